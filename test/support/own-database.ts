/**
 * A database server of the suite's kind for one test file alone, which may stop and restart it without touching
 * the suite's: PostgreSQL 16.8 (embedded) or MariaDB (scripts/mariadb.sh, in the MariaDB runs), on a loopback
 * port that stays the same across restarts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { migrate } from '../../migrations/migrator';
import { dialectOf, openDatabase } from '../../models/db';
import { createTenant, startTestApp, type TestApp, type TestTenant } from './app';
import { freePort, startEmbeddedPostgres } from '../../scripts/embedded-postgres';
import { ROOT } from './npm-start';

const run = promisify(execFile);

export interface OwnDatabase {
  url: string;
  /** Stops the server as its fast shutdown does (clients disconnected, committed work kept) and starts it again. */
  stopServer: () => Promise<void>;
  startServer: () => Promise<void>;
  close: () => Promise<void>;
}

export async function ownDatabase(): Promise<OwnDatabase> {
  const suite = inject('databaseUrl');
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-own-db-'));
  const port = await freePort();
  if (dialectOf(suite) === 'postgres') {
    let server = await startEmbeddedPostgres(dir, 'platform', port);
    return {
      url: server.url,
      stopServer: () => server.stop(),
      startServer: async () => { server = await startEmbeddedPostgres(dir, 'platform', port); },
      close: async () => { await server.stop(); rmSync(dir, { recursive: true, force: true }); },
    };
  }
  const script = path.join(ROOT, 'scripts/mariadb.sh');
  const env = { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` };
  const startServer = async () => { await run(script, ['start', dir, String(port)], { env }); };
  const stopServer = async () => { await run(script, ['stop', dir], { env }); };
  await startServer();
  await run('mariadb', ['--no-defaults', '-h127.0.0.1', `-P${port}`, '-upms', '-ppms', '-e', 'CREATE DATABASE platform CHARACTER SET utf8mb4 COLLATE utf8mb4_bin'], { env });
  const url = new URL(suite);
  Object.assign(url, { port: String(port), pathname: '/platform' });
  return {
    url: url.toString(), stopServer, startServer,
    close: async () => { await stopServer(); rmSync(dir, { recursive: true, force: true }); },
  };
}

/** A database of the file's own, migrated, with the service on it and a tenant: for a file that stops its database. */
export async function appOnOwnDatabase(prefix: string): Promise<{ db: OwnDatabase; app: TestApp; t: TestTenant }> {
  const db = await ownDatabase();
  const sequelize = openDatabase(db.url);
  await migrate(sequelize);
  await sequelize.close();
  const app = await startTestApp({ databaseUrl: db.url });
  return { db, app, t: await createTenant(app, prefix) };
}
