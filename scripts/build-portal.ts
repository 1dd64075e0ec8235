/**
 * Builds the portal (ui/) with Vite into the cache beside the service's bundle, unless what it is built from is
 * unchanged since the last build (a stamp of ui/, client/src/ and package-lock.json). Each asset gets a brotli and a
 * gzip copy beside it, which server/portal.ts serves to the browsers that take them. `npm start` runs this before
 * the service starts (prestart); the browser tests run it in their setup.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { projectRoot } from '../core/project-root';
import { PORTAL_DIR } from '../server/portal';

const INPUTS = ['ui', path.join('client', 'src'), 'package-lock.json'];
const STAMP = path.join(PORTAL_DIR, '.built-from');
const COMPRESSED = new Set(['.js', '.css', '.html', '.svg', '.map', '.json']);

function filesUnder(relative: string): string[] {
  const full = path.join(projectRoot, relative);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [relative];
  return readdirSync(full, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
    .flatMap((e) => filesUnder(path.join(relative, e.name)));
}

/** What the build is made from, as one hash: names and contents. */
export function portalSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder).sort()) hash.update(file).update('\0').update(readFileSync(path.join(projectRoot, file))).update('\0');
  return hash.digest('hex');
}

function compressAssets(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) compressAssets(file);
    else if (COMPRESSED.has(path.extname(entry.name))) {
      const body = readFileSync(file);
      writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
  }
}

export async function buildPortal(options: { force?: boolean } = {}): Promise<'built' | 'unchanged'> {
  const source = portalSourceHash();
  if (!options.force && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === source) return 'unchanged';
  const { build } = await import('vite');
  await build({ configFile: path.join(projectRoot, 'ui', 'vite.config.ts'), logLevel: 'warn' });
  compressAssets(path.join(PORTAL_DIR, 'assets'));
  writeFileSync(STAMP, source);
  return 'built';
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(projectRoot, 'scripts', 'build-portal.ts')) {
  const outcome = await buildPortal({ force: process.argv.includes('--force') });
  if (outcome === 'built') process.stderr.write(`portal built into ${path.relative(process.cwd(), PORTAL_DIR) || PORTAL_DIR}\n`);
}
