/** Issue 30: a DATA_DIR is in use when its PostgreSQL lock file names a running process. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, runningPostmaster } from '../../scripts/postgres-lock';

const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

/** A cluster directory whose lock file names `pid` and port 5999, as PostgreSQL 16 writes it. */
function cluster(pid: number | null): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-lock-'));
  dirs.push(dir);
  if (pid !== null) writeFileSync(path.join(dir, 'postmaster.pid'), `${pid}\n${dir}\n1732000000\n5999\n/tmp\n127.0.0.1\n  5999001         0\nready   \n`);
  return dir;
}

describe('the lock file of the embedded PostgreSQL', () => {
  it('names the running server: its pid, port and command', () => {
    const held = runningPostmaster(cluster(process.pid));
    expect(held).toMatchObject({ pid: process.pid, port: 5999 });
    expect(held?.command).toBe(readFileSync('/proc/self/comm', 'utf8').trim());
  });

  it('is no lock without the file, or when its pid no longer runs', () => {
    expect(runningPostmaster(cluster(null))).toBeUndefined();
    expect(runningPostmaster(cluster(2 ** 22 + 1))).toBeUndefined();
  });

  it('says what to do: stop the other service, or (a reused pid) delete the stale file', () => {
    expect(new DataDirInUseError('/srv/data', { pid: 123, port: 5999, command: 'postgres' }).message)
      .toBe('DATA_DIR /srv/data is in use by another running service (PostgreSQL pid 123): stop it, or set DATA_DIR to another directory');
    expect(new DataDirInUseError('/srv/data', { pid: 123, port: 5999, command: 'nginx' }).message)
      .toBe("DATA_DIR /srv/data is locked: /srv/data/postgres/postmaster.pid names pid 123, which now runs 'nginx', not PostgreSQL: if no service uses this DATA_DIR, delete that file, or set DATA_DIR to another directory");
  });
});
