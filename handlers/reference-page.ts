/**
 * The reference page (`/docs`): Swagger UI from the swagger-ui-dist package, served by the service itself with
 * its start script and styles, so the page loads nothing from elsewhere. Its Content-Security-Policy holds it to
 * that: scripts, styles and requests from this service only (and the external IdP's token endpoint when there is one).
 * People sign in with the authorization code flow and PKCE (public client `self-service`): Swagger UI opens the
 * realm's authorization endpoint in a popup, which comes back to `oauth2-redirect.html` here, whose script hands the
 * code to the page through `window.opener`; so neither page may send Cross-Origin-Opener-Policy.
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
import { createBrowserEndpoints, type BrowserEndpoints } from '../auth/external-discovery';
import { escapeHtml } from '../core/html';

/** The public client of the embedded issuer (auth/browser-clients.ts), which the page's sign-in uses. */
const CLIENT_ID = 'self-service';

const swaggerUi = path.dirname(createRequire(path.join(projectRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
const own = path.join(projectRoot, 'handlers', 'reference-page');

/**
 * Where the sign-in popup returns (self-service's registered redirect URI): the package's `oauth2-redirect.html` has
 * no inline script, only `oauth2-redirect.js` next to it, so `script-src 'self'` holds there too. It is served as
 * this copy, which adds a language, a title and an empty icon, so the browser asks for no /favicon.ico.
 */
const OAUTH2_REDIRECT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Signing in</title>
<link rel="icon" href="data:,">
</head>
<body>
<script src="oauth2-redirect.js"></script>
</body>
</html>
`;

/** The files the page loads, by the name it loads them under (a file, or a text of its own); nothing else is served. */
const FILES: Record<string, { file: string; type: string } | { text: string; type: string }> = {
  'swagger-ui-bundle.js': { file: path.join(swaggerUi, 'swagger-ui-bundle.js'), type: 'text/javascript' },
  'swagger-ui.css': { file: path.join(swaggerUi, 'swagger-ui.css'), type: 'text/css' },
  'reference-page.js': { file: path.join(own, 'page.js'), type: 'text/javascript' },
  'reference-page.css': { file: path.join(own, 'page.css'), type: 'text/css' },
  'oauth2-redirect.html': { text: OAUTH2_REDIRECT_PAGE, type: 'text/html' },
  'oauth2-redirect.js': { file: path.join(swaggerUi, 'oauth2-redirect.js'), type: 'text/javascript' },
};

/**
 * The headers of `oauth2-redirect.html`, whose URL carries the authorization code: its own script only, no frame,
 * no referrer (the code must not travel in a Referer header). No Cross-Origin-Opener-Policy: its script reaches
 * the reference page through `window.opener`.
 */
const REDIRECT_PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
};

interface Asset { body: string; type: string; etag: string }
const loaded = new Map<string, Asset>();

/** Read once, on first use: the bundle is large and most processes never serve the page. */
function asset(name: string): Asset | undefined {
  if (!Object.hasOwn(FILES, name)) return undefined;
  let found = loaded.get(name);
  if (!found) {
    const source = FILES[name];
    const body = 'text' in source ? source.text : readFileSync(source.file, 'utf8');
    found = { body, type: source.type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
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

interface RealmEndpoints { auth: string; token: string }

/** Per external IdP (`AUTH_URL`): its realms' endpoints as its discovery documents name them (auth/external-discovery). */
const discovered = new Map<string, (realm: string) => Promise<BrowserEndpoints>>();

/**
 * The realm's OpenID Connect endpoints the page signs in with: the embedded issuer on this service (paths, so the page
 * uses its own origin), or those the external IdP's discovery document names.
 */
async function realmEndpoints(ctx: RequestContext, realm: string): Promise<RealmEndpoints> {
  const external = ctx.deps.config.externalAuthUrl;
  if (external === undefined) {
    const issuer = `${new URL(ctx.deps.authUrl()).pathname.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}/protocol/openid-connect`;
    return { auth: `${issuer}/auth`, token: `${issuer}/token` };
  }
  let endpoints = discovered.get(external);
  if (!endpoints) discovered.set(external, (endpoints = createBrowserEndpoints(external)));
  const found = await endpoints(realm);
  return { auth: found.authorizationEndpoint, token: found.tokenEndpoint };
}

/** The token request leaves the page for the IdP's token endpoint, wherever its discovery document puts it. */
function contentSecurityPolicy(endpoints: RealmEndpoints): string {
  const token = new URL(endpoints.token, 'http://same.origin');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Swagger UI's style sheet draws its icons as data: images; a binary response is previewed from a blob: URL.
    "img-src 'self' data: blob:",
    `connect-src 'self'${token.origin !== 'http://same.origin' ? ` ${token.origin}` : ''}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const getReferencePage: Handler = async (ctx) => {
  const api = new URL(ctx.base).pathname.replace(/\/+$/, '');
  const realm = typeof ctx.query.realm === 'string' ? ctx.query.realm : ctx.deps.config.bootstrapTenant;
  const attr = (value: string) => `"${escapeHtml(value)}"`;
  const endpoints = await realmEndpoints(ctx, realm);
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
<label>Realm (tenant shortName) for <b>Authorize</b> → passwordLogin (authorizationCode, password)
<input name="realm" value=${attr(realm)} pattern="[a-z][a-z0-9\\-]{1,29}" required></label>
<button type="submit">Use</button>
</form>
<nav><a href=${attr(`${api}/openapi.json`)}>openapi.json</a> <a href=${attr(`${api}/openapi.yaml`)}>openapi.yaml</a> <a href=${attr(`${api}/`)}>API index</a></nav>
</header>
<div id="swagger-ui" data-openapi-url=${attr(`${api}/openapi.json`)} data-api-url=${attr(api)} data-authorization-url=${attr(endpoints.auth)} data-token-url=${attr(endpoints.token)} data-redirect-url=${attr(`${api}/docs/oauth2-redirect.html`)} data-client-id=${attr(CLIENT_ID)}></div>
<script src=${attr(`${api}/docs/swagger-ui-bundle.js`)}></script>
<script src=${attr(`${api}/docs/reference-page.js`)}></script>
</body>
</html>
`;
  return { status: 200, body, contentType: 'text/html', headers: { 'Content-Security-Policy': contentSecurityPolicy(endpoints) } };
};

export const getReferencePageAsset: Handler = (ctx) => {
  const found = asset(ctx.params.file);
  if (!found) throw new NotFoundError(`No file ${ctx.params.file} on the reference page`);
  const headers = { ETag: found.etag, 'Cache-Control': 'no-cache', ...(found.type === 'text/html' ? REDIRECT_PAGE_HEADERS : {}) };
  if (noneMatch(ctx, found.etag)) return { status: 304, headers };
  return { status: 200, body: found.body, contentType: found.type, headers };
};
