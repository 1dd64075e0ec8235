/**
 * PostgreSQL's named prepared statements on Sequelize's connections: each connection parses a statement once and,
 * with `plan_cache_mode=force_generic_plan` (models/db), plans it once, instead of on every request. The reads of
 * models/data-access-pg and the writes of models/row-writes-pg run through here.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { isConnectionLost } from './db-errors';
import { onPooledConnection, sequelizeError, type StatementOptions } from './sequelize-adapter';

/** One name per statement text: a connection refuses a known name with another text. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `pms_${names.size + 1}`));
  return name;
}

/**
 * `?` placeholders as PostgreSQL's `$1`, `$2`, …, and a list `IN (?)` as `= ANY($n)` (one array value); the
 * statements given here have no `?` or `IN (?)` of any other kind.
 */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/ IN \(\?\)/g, ' = ANY(?)').replace(/\?/g, () => `$${++n}`);
}

/** What pg answers a statement: its rows and, for a write, the rows it changed. */
export interface Answer { rows: Record<string, unknown>[]; rowCount: number | null }

/** pg's client: a named statement is parsed once per connection. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }, callback: (err: Error | null, res: Answer) => void): void;
}

/**
 * One prepared statement (`$n` placeholders) on a pooled connection, or on the connection of `transaction`. One
 * statement per round trip, not a pipeline of several: PostgreSQL answers each statement of a pipeline in its own
 * write, and each wakes the API again. A statement the database refuses fails with Sequelize's error for it
 * (UniqueConstraintError, …), as a statement of Sequelize's own would.
 */
export function queryPrepared(sequelize: Sequelize, text: string, values: unknown[], transaction?: Transaction, statement?: StatementOptions): Promise<Answer> {
  return onPooledConnection(sequelize, text, isConnectionLost, (connection) => new Promise<Answer>((resolve, reject) => {
    // pg's promise form leaves a rejection nobody observes when the database ends the connection under a query
    // (test/integration/database-restart); its callback form does not.
    (connection as PgClient).query({ name: nameOf(text), text, values }, (err, res) => {
      if (!err) resolve(res);
      else reject(isConnectionLost(err) ? err : sequelizeError(sequelize, err));
    });
  }), transaction, statement);
}
