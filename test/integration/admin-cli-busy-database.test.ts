/**
 * Issue 41: `npm run admin` ends in one line whatever the embedded PostgreSQL of DATA_DIR is doing: still stopping
 * after the service (it waits, then works), stopping for ever, named by a stale lock file, unable to start.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialectOf } from '../../models/db';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../scripts/embedded-postgres';
import { runningPostmaster } from '../../scripts/postgres-lock';
import { runAdmin, type AdminRun } from '../support/admin-cli';

const dirs: string[] = [];
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

/** A new DATA_DIR; with `cluster`, its PostgreSQL cluster made and stopped. */
async function dataDir(cluster = true): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-admin-busy-'));
  dirs.push(dir);
  if (cluster) await (await startEmbeddedPostgres(dir)).stop();
  return dir;
}

const status = (dir: string) => runAdmin(['status'], { DATABASE_URL: undefined, DATA_DIR: dir });

/** One line on stderr, nothing on stdout, exit code 1. */
function oneLine(run: AdminRun): string {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).not.toContain('    at ');
  expect(run.stderr.split('\n').filter((line) => line !== ''), run.stderr).toHaveLength(1);
  return run.stderr.trim();
}

/** PostgreSQL as a stopping service leaves it: told to stop (smart shutdown) while a client holds a session. */
async function stopping(dir: string): Promise<{ server: EmbeddedDb; release: () => Promise<void> }> {
  const server = await startEmbeddedPostgres(dir);
  const client = new pg.Client(server.url);
  await client.connect();
  process.kill(runningPostmaster(path.join(dir, 'postgres'))!.pid, 'SIGTERM');
  const refused = new pg.Client(server.url);
  await expect(refused.connect()).rejects.toThrow('the database system is shutting down');
  return { server, release: async () => { await client.end(); await server.stop(); } };
}

/** A lock file as PostgreSQL 16 writes it, naming `pid` and `port`. */
function lockFile(dir: string, pid: number, port: number): void {
  writeFileSync(path.join(dir, 'postgres', 'postmaster.pid'), `${pid}\n${path.join(dir, 'postgres')}\n1732000000\n${port}\n/tmp\n127.0.0.1\n  5999001         0\nready   \n`);
}

describe.skipIf(dialectOf(inject('databaseUrl')) !== 'postgres')('npm run admin while the embedded database is busy', () => {
  let dir: string;
  beforeAll(async () => { dir = await dataDir(); });

  it('status while the PostgreSQL of a stopped service is still stopping: waits for it, then works on its own', async () => {
    const { release } = await stopping(dir);
    const run = status(dir);
    setTimeout(() => void release(), 1_500);
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`database    embedded PostgreSQL of ${dir} (started for this command)\n`);
  }, 60_000);

  it('status while it never stops: one line after its wait', async () => {
    const { release } = await stopping(dir);
    try {
      const line = oneLine(await status(dir));
      expect(line).toMatch(new RegExp(`^the embedded PostgreSQL of ${dir} \\(PostgreSQL pid \\d+, port \\d+\\) did not accept connections within 15 s \\(the database system is shutting down\\): run the command again once the service has started or stopped$`));
    } finally {
      await release();
    }
  }, 60_000);

  it('a stale lock file, its pid gone: PostgreSQL is started for the command', async () => {
    lockFile(dir, 2 ** 22 + 1, 1);
    const run = await status(dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(started for this command)');
  }, 60_000);

  it('a stale lock file whose pid another program now runs: one line saying which file to delete', async () => {
    lockFile(dir, process.pid, 1);
    try {
      expect(oneLine(await status(dir))).toMatch(new RegExp(`^DATA_DIR ${dir} is locked: ${dir}/postgres/postmaster\\.pid names pid ${process.pid}, which now runs '[^']+', not PostgreSQL: if no service uses this DATA_DIR, delete that file`));
    } finally {
      rmSync(path.join(dir, 'postgres', 'postmaster.pid'));
    }
  }, 60_000);

  it('a cluster PostgreSQL cannot start: one line with what it said', async () => {
    const broken = await dataDir(false);
    mkdirSync(path.join(broken, 'postgres'), { mode: 0o700 });
    writeFileSync(path.join(broken, 'postgres', 'PG_VERSION'), '9\n');
    expect(oneLine(await status(broken))).toMatch(new RegExp(`^status failed: PostgreSQL in ${broken}/postgres exited \\(\\d+\\) before accepting connections: … \\S`));
  }, 60_000);
});
