/**
 * PostgreSQL: the statements every read sends (the caller's, models/caller; a row by uid, to-one targets by uids and
 * to-many targets with their links, models/select-sql) run as named prepared statements on Sequelize's own pooled
 * connections. Sent as plain text, PostgreSQL parsed and planned the caller's three-table
 * join on every request (~0.15–0.2 ms of its CPU, measured with EXPLAIN), on the same two cores the API runs on;
 * prepared, each connection parses it once and soon reuses one generic plan. Rows come back through the type
 * parsers Sequelize installs on its connections, so they read as Sequelize's own would. MySQL and MariaDB keep the
 * text path (the pinned mariadb driver has no prepared statements).
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { isConnectionLost } from './db-errors';
import { onPooledConnection } from './sequelize-adapter';

/** pg's client: a named statement is parsed once per connection. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }, callback: (err: Error | null, res: { rows: Record<string, unknown>[] }) => void): void;
}

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

const numberedTexts = new Map<string, string>();

/**
 * The rows of a hand-written SELECT whose `?` take `values` (an array value fills `IN (?)`): prepared on PostgreSQL
 * outside a transaction, else through Sequelize (a transaction's statements stay on its connection and in its
 * order).
 */
export async function selectRows(sequelize: Sequelize, text: string, values: unknown[], transaction?: Transaction): Promise<Record<string, unknown>[]> {
  if (transaction || sequelize.getDialect() !== 'postgres') {
    return sequelize.query<Record<string, unknown>>(text, { replacements: values, type: QueryTypes.SELECT, transaction });
  }
  return queryPrepared(sequelize, preparedText(text), values);
}

/** A hand-written statement numbered for PostgreSQL (see numbered), once per text. */
function preparedText(text: string): string {
  let prepared = numberedTexts.get(text);
  if (!prepared) numberedTexts.set(text, (prepared = numbered(text)));
  return prepared;
}

/**
 * One prepared statement on a pooled connection. (A batch of statements pipelined in one write still cost the API
 * a wake-up per statement: PostgreSQL answers each statement's Sync in its own write. What one read needs is one
 * statement instead: models/caller.)
 */
export function queryPrepared(sequelize: Sequelize, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  return onPooledConnection(sequelize, text, isConnectionLost, (connection) => new Promise<Record<string, unknown>[]>((resolve, reject) => {
    // pg's promise form left a rejection nobody observed when the database ended the connection under a query
    // (test/integration/database-restart); its callback form does not.
    (connection as PgClient).query({ name: nameOf(text), text, values }, (err, res) => (err ? reject(err) : resolve(res.rows)));
  }));
}
