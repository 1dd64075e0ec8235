/**
 * The portal's weight as the issue sets it: at most 300 KB of JavaScript, gzip-compressed, on the first load of any
 * page. Every script of the build counted together bounds every page's first load (a page loads a subset), so the
 * budget holds for all of them while the sum does. The build is the one `npm start` serves, made by the tests' setup.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PORTAL_DIR } from '../../server/portal';

const BUDGET = 300 * 1024;
const assets = path.join(PORTAL_DIR, 'assets');

describe('the portal build', () => {
  it('holds at most 300 KB of JavaScript, gzip-compressed, in all its scripts together', () => {
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.map((f) => statSync(path.join(assets, `${f}.gz`)).size);
    const total = gzipped.reduce((a, b) => a + b, 0);
    expect(total, `${scripts.join(', ')}: ${Math.round(total / 1024)} KB`).toBeLessThanOrEqual(BUDGET);
  });

  it('names its scripts and style sheets by their content, and loads nothing from elsewhere', () => {
    const html = readFileSync(path.join(PORTAL_DIR, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    const local = refs.filter((r) => r !== 'data:,');
    expect(local.length).toBeGreaterThan(0);
    for (const ref of local) expect(ref).toMatch(/^\/assets\/[A-Za-z0-9_-]+-[A-Za-z0-9_-]{8}\.(js|css)$/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style/);
  });
});
