/**
 * The readiness probe's statement: one round trip to the database that also reads how far its schema is migrated
 * (the newest name in umzug's `schema_migrations`). Its answer comes within the bound whatever the database does:
 * a statement that waits on a hung database, a held lock or a pool with no free connection is abandoned and counts
 * as no answer. Probes arriving while a statement still waits share it instead of sending another, so a hung
 * database holds one pooled connection for the probes, however often an orchestrator asks.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { TIMED_OUT, within } from '../core/within';

export type DatabaseProbe =
  /** `newestApplied`: null when no migration is applied. */
  | { answered: true; ms: number; newestApplied: string | null }
  | { answered: false; ms: number; reason: 'timeout' | 'error' };

type Outcome = { ok: true; newestApplied: string | null } | { ok: false };

// Migration names start with a zero-padded sequence number, so the greatest name is the newest migration.
const NEWEST_APPLIED = 'SELECT MAX(name) AS name FROM schema_migrations';

const waiting = new WeakMap<Sequelize, Promise<Outcome>>();

function statement(sequelize: Sequelize): Promise<Outcome> {
  let pending = waiting.get(sequelize);
  if (!pending) {
    pending = sequelize.query<{ name: string | null }>(NEWEST_APPLIED, { type: QueryTypes.SELECT, plain: true })
      .then((row): Outcome => ({ ok: true, newestApplied: row?.name ?? null }), (): Outcome => ({ ok: false }))
      .finally(() => waiting.delete(sequelize));
    waiting.set(sequelize, pending);
  }
  return pending;
}

export async function probeDatabase(sequelize: Sequelize, boundMs: number): Promise<DatabaseProbe> {
  const started = performance.now();
  const outcome = await within(statement(sequelize), boundMs);
  const ms = Math.round((performance.now() - started) * 10) / 10;
  if (outcome === TIMED_OUT) return { answered: false, ms, reason: 'timeout' };
  if (!outcome.ok) return { answered: false, ms, reason: 'error' };
  return { answered: true, ms, newestApplied: outcome.newestApplied };
}
