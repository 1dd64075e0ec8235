/**
 * The bench tenant's streams, each with one stream config in the bench environment, written straight into the
 * database in multi-row INSERTs (the service would take hours for a million through HTTP). Rows are what the create
 * handlers write: 32-hex uids, the lowercase name twin, the owners group, audit columns, version 0, the topic name
 * from the instance's pattern, the environment's partitions and retention. Topping up is incremental: seeded names
 * are numbered, so the next row after n existing ones is number n.
 */
import { Op } from 'sequelize';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Models } from '../models';
import { newUid, type RowModel } from '../models/define';

// Big enough to amortise a round trip, small enough for MariaDB's default max_allowed_packet.
const BATCH = 5_000;
const DOMAINS = ['orders', 'payments', 'customers', 'inventory', 'shipping', 'billing', 'fraud', 'clicks'];
const VALUE_TYPES = ['JSON', 'String', 'Binary', 'JSON', 'Xml'];
const FIRST = Date.UTC(2024, 0, 1);
// The database's index upkeep is the cost, not ours: a batch per core in flight (at least two, so the next batch is
// built while the last is written; on 2 cores, 1.5 times one at a time).
const IN_FLIGHT = Math.max(2, Math.min(8, os.availableParallelism()));

/** The name of seeded stream `i` (the `bench-` prefix is what counts them). */
export const seededName = (i: number) => `bench-${DOMAINS[i % DOMAINS.length]}-${String(i).padStart(7, '0')}`;

/** A bar on a terminal (rows, rows/s, ETA); elsewhere (a pipe, CI's log) one line a tenth, so a log stays short. */
export function progress(label: string, total: number): (done: number) => void {
  const started = performance.now();
  let tenths = -1;
  return (done) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = done / seconds;
    const eta = done >= total ? `${seconds.toFixed(1)} s` : `ETA ${Math.ceil((total - done) / rate)} s`;
    const text = `${done}/${total} rows, ${Math.round(rate)} rows/s, ${eta}`;
    if (process.stderr.isTTY) {
      const filled = Math.round((done / total) * 30);
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${text}\x1b[K${done >= total ? '\n' : ''}`);
    } else if (Math.floor((done / total) * 10) > tenths) {
      tenths = Math.floor((done / total) * 10);
      process.stderr.write(`${label} ${tenths * 10}% ${text}\n`);
    }
  };
}

/** A row by attribute name → by column name, as bulkInsert takes it. */
export function columnsOf(model: RowModel): (row: Record<string, unknown>) => Record<string, unknown> {
  const attributes = model.getAttributes() as Record<string, { field?: string }>;
  return (row) => Object.fromEntries(Object.entries(row).map(([k, v]) => {
    if (!attributes[k]) throw new Error(`${model.name} has no attribute ${k}`);
    return [attributes[k].field ?? k, v];
  }));
}

export interface StreamSeed {
  tenantUid: string;
  /** The admin's e-mail address: createdBy/modifiedBy as the API would set them. */
  actor: string;
  ownersUid: string;
  environment: { uid: string; partitions: number; retentionTime: number };
  topicName: (stream: string) => string;
}

export interface Seeding { rows: number; seconds: number }

export const seededCount = (models: Models, tenantUid: string) => models.Stream.count({ where: { tenantUid, nameKey: { [Op.like]: 'bench-%' } } });

function rowsFor(s: StreamSeed, from: number, to: number) {
  const streams: Record<string, unknown>[] = [];
  const configs: Record<string, unknown>[] = [];
  for (let i = from; i < to; i++) {
    const name = seededName(i);
    const at = new Date(FIRST + i * 60_000);
    const common = { tenantUid: s.tenantUid, createdBy: s.actor, modifiedBy: s.actor, createdAt: at, modifiedAt: at, version: 0 };
    const uid = newUid();
    streams.push({
      ...common, uid, name, nameKey: name.toLowerCase(), description: `Seeded stream ${i} of the ${DOMAINS[i % DOMAINS.length]} domain`,
      keyType: 'String', valueType: VALUE_TYPES[i % VALUE_TYPES.length], keySchemaUid: null, valueSchemaUid: null,
      retentionPolicy: i % 10 === 0 ? 'compact' : 'delete', visibility: 'Public', ownersUid: s.ownersUid,
      confidentialityUid: null, integrityUid: null, properties: '{}',
    });
    configs.push({
      ...common, uid: newUid(), streamUid: uid, environmentUid: s.environment.uid, partitions: s.environment.partitions,
      retentionTime: s.environment.retentionTime, properties: '{}', keySchemaVersionUid: null, valueSchemaVersionUid: null, topicName: s.topicName(name),
    });
  }
  return { streams, configs };
}

/** Tops the seeded streams (and their configs) up to `target`; a batch's streams and configs share a transaction. */
export async function seedStreams(models: Models, s: StreamSeed, target: number): Promise<Seeding> {
  const have = await seededCount(models, s.tenantUid);
  if (have >= target) return { rows: 0, seconds: 0 };
  const qi = models.sequelize.getQueryInterface();
  const streamColumns = columnsOf(models.Stream);
  const configColumns = columnsOf(models.StreamConfig);
  const bar = progress(`seeding streams + stream configs to ${target}`, target - have);
  const started = performance.now();
  const writing: Promise<unknown>[] = [];
  let written = 0;
  try {
    for (let from = have; from < target; from += BATCH) {
      const to = Math.min(target, from + BATCH);
      const { streams, configs } = rowsFor(s, from, to);
      if (writing.length === IN_FLIGHT) await writing.shift();
      writing.push(models.sequelize.transaction(async (transaction) => {
        await qi.bulkInsert('streams', streams.map(streamColumns), { transaction });
        await qi.bulkInsert('stream_configs', configs.map(configColumns), { transaction });
      }).then(() => bar((written += to - from))));
    }
    await Promise.all(writing);
  } catch (err) {
    // The batches still in flight end before the error goes up (and the database is closed under them).
    await Promise.allSettled(writing);
    throw err;
  }
  const seconds = (performance.now() - started) / 1000;
  await settle(models, ['streams', 'stream_configs']);
  return { rows: target - have, seconds };
}

/**
 * Fresh statistics, and on PostgreSQL a vacuum and a checkpoint too: after a bulk insert autovacuum would otherwise
 * visit the new rows, and the checkpointer write them out, while the next scenarios run, taking a core of two from
 * both sides of the comparison at a time nobody chose (a long-running database has its tables vacuumed and its
 * pages written). Not counted in the seeding time.
 */
export async function settle(models: Models, tables: string[]): Promise<void> {
  const postgres = models.sequelize.getDialect() === 'postgres';
  await models.sequelize.query(`${postgres ? 'VACUUM (ANALYZE)' : 'ANALYZE TABLE'} ${tables.join(', ')}`);
  // CHECKPOINT needs a superuser or pg_checkpoint: an external DATABASE_URL may not allow it.
  if (postgres) await models.sequelize.query('CHECKPOINT').catch(() => undefined);
}
