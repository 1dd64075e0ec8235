/**
 * Builds the portal (ui/) with Vite into the cache beside the service's bundle, unless what it is built from is
 * unchanged since the last build (a stamp of ui/, client/src/ and package-lock.json). Each asset gets a brotli and a
 * gzip copy beside it, which server/portal.ts serves to the browsers that take them. `npm start` runs this before
 * the service starts (prestart); the tests' setup runs it once before any test starts a service.
 *
 * A build is made in a folder of its own and then put in place by renames, so several starts at once (tests, a
 * rolling restart) never serve or build over a half-written portal: the last build to finish stays.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { projectRoot } from '../core/project-root';
import { PORTAL_DIR } from '../server/portal';

const INPUTS = ['ui', path.join('client', 'src'), 'package-lock.json'];
const STAMP = path.join(PORTAL_DIR, '.built-from');
// Source maps only go to a developer's tools: not worth the build's time to compress.
const COMPRESSED = new Set(['.js', '.css', '.html', '.svg', '.json']);

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
  const building = `${PORTAL_DIR}.building-${process.pid}`;
  try {
    await build({ configFile: path.join(projectRoot, 'ui', 'vite.config.ts'), logLevel: 'warn', build: { outDir: building } });
    compressAssets(path.join(building, 'assets'));
    writeFileSync(path.join(building, path.basename(STAMP)), source);
    install(building);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return 'built';
}

/** Puts a finished build in place of the current one; a build another process put there meanwhile may win. */
function install(building: string): void {
  const old = `${PORTAL_DIR}.old-${process.pid}`;
  try {
    renameSync(PORTAL_DIR, old);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    renameSync(building, PORTAL_DIR);
  } catch (err) {
    // Another build was put in place between the two renames: it is as new as this one.
    if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(projectRoot, 'scripts', 'build-portal.ts')) {
  const outcome = await buildPortal({ force: process.argv.includes('--force') });
  if (outcome === 'built') process.stderr.write(`portal built into ${path.relative(process.cwd(), PORTAL_DIR) || PORTAL_DIR}\n`);
}
