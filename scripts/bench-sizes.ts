/**
 * A database per size for the size-dependent scenarios of `npm run bench`: the smaller sizes get a database of their
 * own beside the bench's (same server, `<name>_<kind>_<size>`), each with its own API, so all sizes are on hand at
 * once and are measured in alternating rounds. Measured one after the other instead (a size, then the seeding up to
 * the next), the minutes between them let the drift of a shared machine into the ratio: the streams page read
 * 0.82 to 1.30 of its 1k time at 1M over three runs of one build.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { initModels, type Models } from '../models';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import type { Api } from './bench-api';
import { startApi, type Server } from './bench-service';

/** The database a URL names. */
const databaseOf = (url: URL): string => decodeURIComponent(url.pathname.replace(/^\//, ''));

/** The URL of a database beside `url`'s on the same server: its name with `suffix` appended. */
export function siblingUrl(url: string, suffix: string): string {
  const u = new URL(url);
  const name = databaseOf(u);
  if (!name) throw new Error(`DATABASE_URL names no database: ${u.protocol}//${u.host}`);
  u.pathname = `/${encodeURIComponent(`${name}_${suffix}`)}`;
  return u.toString();
}

/** Creates the database `name` on `sequelize`'s server unless it exists. */
async function ensureDatabase(sequelize: Sequelize, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`not a plain database name: ${name}`);
  if (sequelize.getDialect() !== 'postgres') {
    await sequelize.query(`CREATE DATABASE IF NOT EXISTS \`${name}\``);
    return;
  }
  const found = await sequelize.query('SELECT 1 FROM pg_database WHERE datname = ?', { replacements: [name], type: QueryTypes.SELECT });
  if (found.length === 0) await sequelize.query(`CREATE DATABASE "${name}"`);
}

/** A database of one size with the API running on it. */
export interface SizeTarget { size: number; models: Models; server: Server; api: Api; tenantUid: string }

/**
 * The database beside `main`'s for `size` of `kind` (created and migrated when missing) and an API started on it as
 * the bench's own (the bench tenant and its admin made on its first start): one worker, or `defaults` npm start's.
 */
export async function siblingTarget(
  main: { url: string; sequelize: Sequelize; dataDir: string }, kind: string, size: number, api: (origin: string) => Api, o: { defaults?: boolean } = {},
): Promise<SizeTarget> {
  const url = siblingUrl(main.url, `${kind}_${size}`);
  await ensureDatabase(main.sequelize, databaseOf(new URL(url)));
  const models = initModels(openDatabase(url));
  await migrate(models.sequelize);
  const started = await startApi({ databaseUrl: url, dataDir: main.dataDir, workers: o.defaults ? undefined : 1 }, api);
  const tenant = await models.Tenant.findOne({ where: { shortName: started.api.tenant } });
  if (!tenant) throw new Error(`the API on ${kind} ${size} did not create the bench tenant`);
  return { size, models, server: started.server, api: started.api, tenantUid: tenant.uid as string };
}

/** Stops the API of each target and closes its connections (the main database's target is not among them). */
export async function stopTargets(targets: SizeTarget[]): Promise<void> {
  for (const t of targets) {
    await t.server.stop();
    await t.models.sequelize.close().catch(() => undefined);
  }
}
