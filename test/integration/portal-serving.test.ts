/**
 * How the service serves the portal's build (server/portal.ts), against a build of its own in a temporary folder:
 * a browser's page request for any path outside /api, /auth and /metrics gets the page with the service's settings
 * in it and a strict CSP; assets go out brotli- or gzip-compressed with a year's cache; everything else falls
 * through to the §7 error body, as it does for any client that does not ask for a page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portal } from '../../server/portal';
import { startTestApp, type TestApp } from '../support/app';
import { expectError } from '../support/errors';

const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-'));
const SCRIPT = 'console.log("portal");'.repeat(50);
let server: Server;
let origin: string;
let app: TestApp;

beforeAll(async () => {
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta name="portal-config" content=""></head><body><script type="module" src="/assets/index-abc123.js"></script></body></html>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets', 'plain-def456.css'), 'body{}');
  const site = express();
  site.use(portal({ dir, authUrl: () => 'https://id.example.com/auth', publicRoot: () => 'https://portal.example.com', basePath: '/api' }));
  site.use((_req, res) => { res.status(404).json({ fellThrough: true }); });
  server = await new Promise<Server>((resolve) => { const s = site.listen(0, '127.0.0.1', () => resolve(s)); });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await startTestApp();
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const get = (p: string, headers: Record<string, string> = {}) => fetch(`${origin}${p}`, { headers });

describe('the portal page', () => {
  it.each(['/', '/streams', '/streams/0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f', '/no/such/page'])('answers a browser at %s with the page and its settings', async (p) => {
    const res = await get(p, { accept: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self' https://id.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const html = await res.text();
    const meta = /<meta name="portal-config" content="([^"]*)">/.exec(html)![1].replaceAll('&quot;', '"');
    expect(JSON.parse(meta)).toEqual({ authUrl: 'https://id.example.com/auth', api: '/api', clientId: 'self-service', redirectUri: 'https://portal.example.com/' });
  });

  it('compresses the page for a browser that takes gzip', async () => {
    const res = await fetch(`${origin}/`, { headers: { accept: BROWSER, 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it.each([
    ['*/* (curl)', '/streams', '*/*'],
    ['application/json', '/', 'application/json'],
    ['JSON preferred to HTML', '/', 'application/json, text/html;q=0.5'],
    ['no Accept', '/', ''],
    ['a browser, under /api', '/api/no-such', BROWSER],
    ['a browser, under /auth', '/auth/realms/x/nothing', BROWSER],
    ['a browser, /metrics', '/metrics', BROWSER],
  ])('leaves a request to the next handler: %s', async (_name, p, accept) => {
    const res = await get(p, accept ? { accept } : {});
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ fellThrough: true });
  });

  it('leaves a write to the next handler', async () => {
    const res = await fetch(`${origin}/streams`, { method: 'POST', headers: { accept: BROWSER } });
    expect(res.status).toBe(404);
  });
});

describe('the portal assets', () => {
  it.each([['br', 'br'], ['gzip, deflate, br', 'br'], ['gzip', 'gzip']])('answers Accept-Encoding %s with %s and a year of cache', async (acceptEncoding, encoding) => {
    const res = await fetch(`${origin}/assets/index-abc123.js`, { headers: { 'accept-encoding': acceptEncoding } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe(SCRIPT); // fetch decodes it
  });

  it('answers the file itself to a client that takes no compression, and what has no compressed copy', async () => {
    const raw = await fetch(`${origin}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(Number(raw.headers.get('content-length'))).toBe(SCRIPT.length);
    const css = await fetch(`${origin}/assets/plain-def456.css`, { headers: { 'accept-encoding': 'gzip' } });
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(await css.text()).toBe('body{}');
  });

  it.each(['/assets/missing-000.js', '/assets/..%2findex.html', '/assets/index-abc123.exe'])('leaves %s to the next handler', async (p) => {
    expect((await get(p)).status).toBe(404);
  });
});

describe('the service without the page asked for', () => {
  it('answers an unknown path the §7 body to every client that does not ask for a page', async () => {
    for (const accept of ['*/*', 'application/json', 'application/hal+json']) {
      expectError(await fetch(`${app.url}/no/such/page`, { headers: { accept } }).then(async (res) => ({ status: res.status, headers: res.headers, body: await res.json() })), 404);
    }
  });
});
