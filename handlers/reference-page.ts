/**
 * The reference page (`/docs`): Swagger UI from the swagger-ui-dist package, served by the service itself with
 * its start script and styles, so the page loads nothing from elsewhere. Its Content-Security-Policy holds it to
 * that: scripts, styles and requests from this service only (and the external IdP's token endpoint when there is one).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NotFoundError } from '../core/errors';
import { projectRoot } from '../core/project-root';
import type { RequestContext } from '../core/context';
import type { Handler } from './_lib/reply';
import { noneMatch } from './_lib/etag';

/** The public client of the embedded issuer (auth/client-auth.ts), which the password login uses. */
const CLIENT_ID = 'self-service';

const swaggerUi = path.dirname(createRequire(path.join(projectRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
const own = path.join(projectRoot, 'handlers', 'reference-page');

/** The files the page loads, by the name it loads them under; nothing else is served. */
const FILES: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: path.join(swaggerUi, 'swagger-ui-bundle.js'), type: 'text/javascript' },
  'swagger-ui.css': { file: path.join(swaggerUi, 'swagger-ui.css'), type: 'text/css' },
  'reference-page.js': { file: path.join(own, 'page.js'), type: 'text/javascript' },
  'reference-page.css': { file: path.join(own, 'page.css'), type: 'text/css' },
};

interface Asset { body: string; type: string; etag: string }
const loaded = new Map<string, Asset>();

/** Read once, on first use: the bundle is large and most processes never serve the page. */
function asset(name: string): Asset | undefined {
  if (!Object.hasOwn(FILES, name)) return undefined;
  let found = loaded.get(name);
  if (!found) {
    const body = readFileSync(FILES[name].file, 'utf8');
    found = { body, type: FILES[name].type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
    loaded.set(name, found);
  }
  return found;
}

let favicon: string | undefined;
/** Swagger UI's icon inlined as a data: URL, so the browser asks for no /favicon.ico. */
function faviconUrl(): string {
  favicon ??= `data:image/png;base64,${readFileSync(path.join(swaggerUi, 'favicon-32x32.png')).toString('base64')}`;
  return favicon;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where the password login gets its token: the embedded issuer on this service, or the external IdP. */
function tokenUrl(ctx: RequestContext, realm: string): string {
  const external = ctx.deps.config.externalAuthUrl;
  const issuer = external ?? new URL(ctx.deps.authUrl()).pathname.replace(/\/+$/, '');
  return `${issuer}/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`;
}

function contentSecurityPolicy(ctx: RequestContext): string {
  const external = ctx.deps.config.externalAuthUrl;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Swagger UI's style sheet draws its icons as data: images; a binary response is previewed from a blob: URL.
    "img-src 'self' data: blob:",
    `connect-src 'self'${external ? ` ${new URL(external).origin}` : ''}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const getReferencePage: Handler = (ctx) => {
  const api = new URL(ctx.base).pathname.replace(/\/+$/, '');
  const realm = typeof ctx.query.realm === 'string' ? ctx.query.realm : ctx.deps.config.bootstrapTenant;
  const attr = (value: string) => `"${escapeHtml(value)}"`;
  const body = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform Management Service API reference</title>
<link rel="icon" type="image/png" href=${attr(faviconUrl())}>
<link rel="stylesheet" href=${attr(`${api}/docs/swagger-ui.css`)}>
<link rel="stylesheet" href=${attr(`${api}/docs/reference-page.css`)}>
</head>
<body>
<header class="reference-page-bar">
<form method="get" action=${attr(`${api}/docs`)}>
<label>Realm (tenant shortName) for <b>Authorize</b> → passwordLogin
<input name="realm" value=${attr(realm)} pattern="[a-z][a-z0-9\\-]{1,29}" required></label>
<button type="submit">Use</button>
</form>
<nav><a href=${attr(`${api}/openapi.json`)}>openapi.json</a> <a href=${attr(`${api}/openapi.yaml`)}>openapi.yaml</a> <a href=${attr(`${api}/`)}>API index</a></nav>
</header>
<div id="swagger-ui" data-openapi-url=${attr(`${api}/openapi.json`)} data-api-url=${attr(api)} data-token-url=${attr(tokenUrl(ctx, realm))} data-client-id=${attr(CLIENT_ID)}></div>
<script src=${attr(`${api}/docs/swagger-ui-bundle.js`)}></script>
<script src=${attr(`${api}/docs/reference-page.js`)}></script>
</body>
</html>
`;
  return { status: 200, body, contentType: 'text/html', headers: { 'Content-Security-Policy': contentSecurityPolicy(ctx) } };
};

export const getReferencePageAsset: Handler = (ctx) => {
  const found = asset(ctx.params.file);
  if (!found) throw new NotFoundError(`No file ${ctx.params.file} on the reference page`);
  const headers = { ETag: found.etag, 'Cache-Control': 'no-cache' };
  if (noneMatch(ctx, found.etag)) return { status: 304, headers };
  return { status: 200, body: found.body, contentType: found.type, headers };
};
