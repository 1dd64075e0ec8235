/**
 * The portal (ui/), served by the service itself from the build in the cache (scripts/build-portal.ts; nothing
 * built is committed). A browser's page request for any path outside /api, /auth and /metrics gets the portal's
 * page, whose router shows the page or its own "not found"; every other request (an API client's, a script's) keeps
 * the §7 error body. Its assets have content-hashed names: a year's cache, and the brotli or gzip copy the build
 * made when the browser takes it.
 */
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import Negotiator from 'negotiator';
import { projectRoot } from '../core/project-root';
import { escapeHtml } from '../core/html';

export const PORTAL_DIR = path.join(projectRoot, 'node_modules', '.cache', 'platform-management-service', 'portal');

export interface PortalSettings {
  /** The issuer root (`{publicRoot}/auth` or the external IdP's). */
  authUrl: () => string;
  /** The service's public root, whose `/` is the portal's registered redirect URI. */
  publicRoot: () => string;
  /** The API's base path, e.g. `/api`. */
  basePath: string;
  dir?: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json',
  '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png', '.json': 'application/json',
};
const ENCODINGS = ['br', 'gzip', 'identity'];
const SUFFIX: Record<string, string> = { br: '.br', gzip: '.gz', identity: '' };
const RESERVED = /^\/(?:auth|metrics)(?:\/|$)/i;
const ASSET = /^\/assets\/[A-Za-z0-9._-]+$/;

function contentSecurityPolicy(authUrl: string): string {
  const issuer = new URL(authUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    // OpenID discovery and the token endpoint: this service's issuer, or the external IdP's.
    `connect-src 'self' ${issuer}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * A browser's page request: it names text/html itself and prefers it to JSON. A wildcard Accept alone (curl,
 * scripts, API clients) does not, so an unknown path answers them the §7 body as before.
 */
function asksForPage(req: Request): boolean {
  const accept = req.headers.accept ?? '';
  return /(^|[\s,])text\/html\s*(;|,|$)/i.test(accept) && new Negotiator(req).mediaType(['text/html', 'application/json']) === 'text/html';
}

interface Page { identity: Buffer; gzip: Buffer; csp: string }

export function portal(settings: PortalSettings): (req: Request, res: Response, next: NextFunction) => void {
  const dir = settings.dir ?? PORTAL_DIR;
  let page: Page | undefined;

  /** The page with this service's settings in its `portal-config` meta element, made once. */
  function indexPage(): Page | undefined {
    if (page) return page;
    const file = path.join(dir, 'index.html');
    if (!existsSync(file)) return undefined;
    const authUrl = settings.authUrl();
    const config = { authUrl, api: settings.basePath, clientId: 'self-service', redirectUri: `${settings.publicRoot()}/` };
    const html = readFileSync(file, 'utf8').replace('<meta name="portal-config" content="">', `<meta name="portal-config" content="${escapeHtml(JSON.stringify(config))}">`);
    const identity = Buffer.from(html);
    page = { identity, gzip: gzipSync(identity), csp: contentSecurityPolicy(authUrl) };
    return page;
  }

  async function asset(req: Request, res: Response, next: NextFunction, pathname: string): Promise<void> {
    const file = path.join(dir, pathname);
    const type = TYPES[path.extname(file)];
    if (!type) return next();
    // The smallest copy the browser takes: its Accept-Encoding says which it takes, not which it prefers.
    const accepted = new Negotiator(req).encodings(ENCODINGS);
    const encoding = ENCODINGS.find((e) => accepted.includes(e) && existsSync(file + SUFFIX[e]));
    if (!encoding) return next();
    const body = await readFile(file + SUFFIX[encoding]);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = req.path;
    if (ASSET.test(pathname)) {
      asset(req, res, next, pathname).catch(next);
      return;
    }
    if (RESERVED.test(pathname) || pathname.toLowerCase().startsWith(`${settings.basePath.toLowerCase()}/`)) return next();
    if (!asksForPage(req)) return next();
    const built = indexPage();
    if (!built) return next();
    const gzip = new Negotiator(req).encodings(['gzip', 'identity'])[0] === 'gzip';
    const body = gzip ? built.gzip : built.identity;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', built.csp);
    // The sign-in's answer (an authorization code) arrives in this page's URL: it must not leave in a Referer.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Vary', 'Accept, Accept-Encoding');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
