/**
 * The portal's build: `npm start` (scripts/build-portal.ts) and the browser tests build it into the cache beside
 * the service's bundle; nothing built is committed. Content-hashed names under /assets/, which the service serves
 * with a year's cache; the client package is read from its sources, as the service's own types are.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export const PORTAL_OUT = path.join(here, '..', 'node_modules', '.cache', 'platform-management-service', 'portal');

export default defineConfig({
  root: here,
  plugins: [react()],
  resolve: { alias: { '@platform-management-service/client': path.join(here, '..', 'client', 'src', 'index.ts') } },
  build: {
    outDir: PORTAL_OUT,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // No inline module-preload polyfill script: the page's CSP allows scripts from the origin only.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
