/**
 * The database an admin command works on: DATABASE_URL when set; else the embedded PostgreSQL of DATA_DIR — the
 * running one when the service (or anything) runs it, its port read from the lock file, else one started for the
 * command and stopped after it.
 */
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Config } from '../core/config';
import { initModels, type Models } from '../models';
import { dialectOf, openDatabase } from '../models/db';
import { AdminError } from './admin-errors';
import { embeddedUrl, startEmbeddedPostgres } from './embedded-postgres';
import { DataDirInUseError, runningPostmaster, type RunningPostmaster } from './postgres-lock';
import { databaseTarget } from './start-errors';

export interface AdminDatabase {
  sequelize: Sequelize;
  models: Models;
  /** Which database this is, for `status`; never a password. */
  description: string;
  close: () => Promise<void>;
}

/** How long a command waits for an embedded PostgreSQL that is starting or stopping, and how often it looks again. */
const SETTLE_MS = 15_000;
const RETRY_MS = 250;

export async function openAdminDatabase(config: Config): Promise<AdminDatabase> {
  if (config.databaseUrl) {
    const { user, host, database } = databaseTarget(config.databaseUrl);
    return connect(config.databaseUrl, `${dialectOf(config.databaseUrl)} ${database} at ${host} as ${user} (DATABASE_URL)`);
  }
  const dataDir = path.resolve(config.dataDir);
  for (const deadline = Date.now() + SETTLE_MS; ;) {
    try {
      return await openEmbedded(dataDir);
    } catch (err) {
      if (!(err instanceof Settling)) throw err;
      if (Date.now() > deadline) throw new AdminError(err.explain(dataDir, SETTLE_MS));
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/**
 * A server of DATA_DIR that is starting or stopping: it refuses connections, or its lock file or shared memory is
 * still held, for a moment. Looked at again until it serves or is gone; one that stays so is said in one line.
 */
class Settling extends Error {
  constructor(readonly holder: RunningPostmaster | undefined, readonly reason: string) {
    super(reason);
  }

  explain(dataDir: string, ms: number): string {
    const server = this.holder ? `PostgreSQL pid ${this.holder.pid}, port ${this.holder.port}` : 'PostgreSQL';
    return `the embedded PostgreSQL of ${dataDir} (${server}) did not accept connections within ${ms / 1000} s (${this.reason}): run the command again once the service has started or stopped`;
  }
}

/** Without /proc the command is unknown: the lock file is taken at its word. */
const isPostgres = (holder: RunningPostmaster) => holder.command === undefined || holder.command === 'postgres';

/** The running server's traces that a fresh start meets while it goes away. */
const STILL_HELD = /lock file "postmaster\.pid" already exists|pre-existing shared memory block/;

async function openEmbedded(dataDir: string): Promise<AdminDatabase> {
  const running = runningPostmaster(path.join(dataDir, 'postgres'));
  if (running && isPostgres(running)) {
    return connect(embeddedUrl(running.port), `embedded PostgreSQL of ${dataDir} (running, pid ${running.pid})`)
      .catch((err: unknown) => { throw new Settling(running, reasonOf(err)); });
  }
  const embedded = await startEmbeddedPostgres(dataDir).catch((err: unknown) => {
    if (err instanceof DataDirInUseError && isPostgres(err.holder)) throw new Settling(err.holder, 'it started meanwhile');
    const held = STILL_HELD.exec((err as Error)?.message ?? '');
    throw held ? new Settling(undefined, held[0]) : err;
  });
  try {
    const db = await connect(embedded.url, `embedded PostgreSQL of ${dataDir} (started for this command)`);
    return { ...db, close: async () => { await db.close(); await embedded.stop(); } };
  } catch (err) {
    await embedded.stop();
    throw err;
  }
}

/** What the server or the socket said, as PostgreSQL's own words (`the database system is shutting down`). */
function reasonOf(err: unknown): string {
  const e = err as { parent?: { message?: string; code?: string }; message?: string };
  return (e?.parent?.message || e?.message || String(err)).split('\n')[0];
}

async function connect(url: string, description: string): Promise<AdminDatabase> {
  const sequelize = openDatabase(url, { pool: { max: 2, min: 0, idle: 1_000, acquire: 10_000 } });
  try {
    await sequelize.authenticate();
  } catch (err) {
    await sequelize.close();
    throw err;
  }
  return { sequelize, models: initModels(sequelize), description, close: () => sequelize.close() };
}
