/**
 * Issue 30: a start that cannot succeed says why in one line on stderr, naming the cause and the fix, and exits
 * non-zero, without a stack trace: a DATA_DIR in use, a port in use, a database refusing the credentials, an
 * encryption key that is not one (or not the one the stored keys were sealed with), a malformed setting.
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKeyStore } from '../../auth/keys';
import { loadConfig } from '../../core/config';
import { createSecretBox } from '../../core/secret-box';
import { migrate } from '../../migrations/migrator';
import { initModels } from '../../models';
import { dialectOf, openDatabase } from '../../models/db';
import { freePort, startEmbeddedPostgres } from '../../scripts/embedded-postgres';
import { forkWorkers } from '../../server/workers';
import { npmStart, ROOT } from '../support/npm-start';
import { createRunDatabase } from '../support/run-database';

const serverUrl = inject('databaseUrl');
const postgres = dialectOf(serverUrl) === 'postgres';
const dirs: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-start-errors-'));
  dirs.push(dir);
  return dir;
};

async function runDatabase(): Promise<string> {
  const db = await createRunDatabase(serverUrl);
  cleanups.push(db.drop);
  return db.url;
}

/** Runs `npm start` to its end: the one line it wrote on stderr and its exit code. */
async function failedStart(env: Record<string, string | undefined>): Promise<string> {
  return (await failedStartOutput(env)).line;
}

/** As failedStart, with what it printed on stdout before it gave up. */
async function failedStartOutput(env: Record<string, string | undefined>): Promise<{ line: string; stdout: string }> {
  const start = npmStart({ DATA_DIR: tempDir(), WORKERS: '1', PORT: String(await freePort()), ...env });
  const code = await Promise.race([start.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 60_000).unref())]);
  if (code === 'running') await start.stop();
  const stderr = start.stderr();
  expect(code, `${start.stdout()}\n${stderr}`).toBe(1);
  expect(stderr).not.toContain('    at ');
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, stderr).toHaveLength(1);
  return { line: lines[0], stdout: start.stdout() };
}

async function occupiedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as net.AddressInfo).port;
}

describe('npm start refuses to start, in one line', () => {
  it.skipIf(!postgres)('on a DATA_DIR whose embedded PostgreSQL another service runs', async () => {
    const dataDir = tempDir();
    const running = await startEmbeddedPostgres(dataDir);
    cleanups.push(running.stop);
    const inUse = new RegExp(`^DATA_DIR ${dataDir} is in use by another running service \\(PostgreSQL pid \\d+\\): stop it, or set DATA_DIR to another directory$`);
    const { line, stdout } = await failedStartOutput({ DATABASE_URL: undefined, DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    expect(line).toMatch(inUse);
    // Said before anything is started, as operations.md says.
    expect(stdout).not.toContain('starting embedded PostgreSQL');
    // A second service of the same checkout also finds its port taken: the DATA_DIR is said, the more telling cause.
    expect(await failedStart({ DATABASE_URL: undefined, DATA_DIR: dataDir, PORT: String(await occupiedPort()) })).toMatch(inUse);
  }, 90_000);

  it.each([1, 2])('on a port in use (WORKERS=%i)', async (workers) => {
    const port = await occupiedPort();
    const line = await failedStart({ DATABASE_URL: await runDatabase(), PORT: String(port), WORKERS: String(workers) });
    expect(line).toBe(`port ${port} is in use: stop the other process or set PORT to a free port`);
  }, 90_000);

  it('when the database refuses the credentials of DATABASE_URL, naming user and host but never the password', async () => {
    const url = new URL(serverUrl);
    const password = `wrong-${randomBytes(6).toString('hex')}`;
    url.password = password;
    url.pathname = '/nowhere';
    const line = await failedStart({ DATABASE_URL: url.toString() });
    expect(line).toBe(`the database at ${url.hostname}:${url.port} refused user '${url.username}' (wrong password, no such user, or not allowed from this host): fix DATABASE_URL`);
    expect(line).not.toContain(password);
  }, 90_000);

  it('when ENCRYPTION_KEY is not a key', async () => {
    const line = await failedStart({ DATABASE_URL: await runDatabase(), ENCRYPTION_KEY: 'not-a-key' });
    expect(line).toMatch(/^ENCRYPTION_KEY is not an encryption key: expected a base64-encoded key of 32 bytes \(e\.g\. `openssl rand -base64 32`\)/);
    expect(line).not.toContain('not-a-key');
  }, 90_000);

  it('when the key file in DATA_DIR is not a key', async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'secret.key'), 'half a key\n');
    const line = await failedStart({ DATABASE_URL: await runDatabase(), DATA_DIR: dataDir, ENCRYPTION_KEY: undefined });
    expect(line).toMatch(new RegExp(`^the key file ${path.join(dataDir, 'secret.key')} is not an encryption key: expected a base64-encoded key of 32 bytes`));
  }, 90_000);

  it('when ENCRYPTION_KEY is not the key the stored signing keys were sealed with', async () => {
    const databaseUrl = await runDatabase();
    const sequelize = openDatabase(databaseUrl);
    try {
      await migrate(sequelize);
      const sealedWith = { ENCRYPTION_KEY: randomBytes(32).toString('base64') };
      await createKeyStore(initModels(sequelize), createSecretBox(loadConfig({}), sealedWith)).activeKey();
    } finally {
      await sequelize.close();
    }
    const line = await failedStart({ DATABASE_URL: databaseUrl, ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    expect(line).toMatch(/^ENCRYPTION_KEY does not open the token signing keys stored in the database, which were sealed with another key: give every instance on this database that key as ENCRYPTION_KEY/);
  }, 90_000);

  it.each([
    [{ WORKERS: '0' }, 'WORKERS must be a positive whole number of processes, got "0"'],
    [{ DATABASE_URL: 'oracle://db.example.com/platform' }, 'DATABASE_URL must start with postgres://, mysql:// or mariadb:// (got oracle://)'],
  ])('on a malformed setting %o', async (env, expected) => {
    expect(await failedStart({ DATABASE_URL: serverUrl, ...env })).toBe(expected);
  }, 90_000);
});

describe('the worker cluster', () => {
  it("relays a worker's start-up failure to the primary as the same line", async () => {
    const port = await occupiedPort();
    // This test process is the primary; its workers run the real start script (as `npm start`'s do).
    cluster.setupPrimary({ exec: path.join(ROOT, 'scripts/start.ts'), execArgv: ['--import', 'tsx'], silent: true });
    const workers = forkWorkers(2, { DATABASE_URL: serverUrl, PORT: String(port), WORKERS: '2', LOG_LEVEL: 'warn' });
    cleanups.push(workers.stop);
    await expect(workers.ready).rejects.toThrow(`port ${port} is in use: stop the other process or set PORT to a free port`);
  }, 90_000);
});
