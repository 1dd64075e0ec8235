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
import { embeddedUrl, startEmbeddedPostgres } from './embedded-postgres';
import { runningPostmaster } from './postgres-lock';
import { databaseTarget } from './start-errors';

export interface AdminDatabase {
  sequelize: Sequelize;
  models: Models;
  /** Which database this is, for `status`; never a password. */
  description: string;
  close: () => Promise<void>;
}

export async function openAdminDatabase(config: Config): Promise<AdminDatabase> {
  if (config.databaseUrl) {
    const { user, host, database } = databaseTarget(config.databaseUrl);
    return connect(config.databaseUrl, `${dialectOf(config.databaseUrl)} ${database} at ${host} as ${user} (DATABASE_URL)`);
  }
  const dataDir = path.resolve(config.dataDir);
  const running = runningPostmaster(path.join(dataDir, 'postgres'));
  if (running && (running.command === undefined || running.command === 'postgres')) {
    return connect(embeddedUrl(running.port), `embedded PostgreSQL of ${dataDir} (running, pid ${running.pid})`);
  }
  const embedded = await startEmbeddedPostgres(dataDir);
  try {
    const db = await connect(embedded.url, `embedded PostgreSQL of ${dataDir} (started for this command)`);
    return { ...db, close: async () => { await db.close(); await embedded.stop(); } };
  } catch (err) {
    await embedded.stop();
    throw err;
  }
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
