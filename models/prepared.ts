/**
 * PostgreSQL: the statements every read sends (the caller's, models/caller; a row by uid, to-one targets by uids and
 * to-many targets with their links, models/select-sql) run as named prepared statements on Sequelize's own pooled
 * connections. Sent as plain text, PostgreSQL parsed and planned the caller's three-table
 * join on every request (~0.15–0.2 ms of its CPU, measured with EXPLAIN), on the same two cores the API runs on;
 * prepared, each connection parses it once and soon reuses one generic plan. Rows come back through the type
 * parsers Sequelize installs on its connections, so they read as Sequelize's own would. MySQL and MariaDB keep the
 * text path (the pinned mariadb driver has no prepared statements).
 */
import { ConnectionError, QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { isConnectionLost } from './db-errors';

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }, callback: (err: Error | null, res: { rows: Record<string, unknown>[] }) => void): void;
  _invalid?: boolean;
}
interface Pool {
  getConnection(options: { type: string }): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
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
 * Sequelize's query hooks and logger see the statement as they see their own (`query.sql`), so whatever observes
 * the statements (the query-count test, a debug log) sees these too.
 */
type Observed = Sequelize & { runHooks(name: string, ...args: unknown[]): Promise<void>; options: { logging?: unknown } };

/**
 * One prepared statement on a pooled connection. (A batch of statements pipelined in one write still cost the API
 * a wake-up per statement: PostgreSQL answers each statement's Sync in its own write. What one read needs is one
 * statement instead: models/caller.)
 */
export async function queryPrepared(sequelize: Sequelize, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const pool = sequelize.connectionManager as unknown as Pool;
  const options = { type: 'SELECT', prepared: true };
  const query = { sql: text };
  const connection = await pool.getConnection(options);
  try {
    const { logging } = (sequelize as Observed).options;
    await (sequelize as Observed).runHooks('beforeQuery', options, query);
    if (typeof logging === 'function') logging(`Executing (prepared): ${query.sql}`);
    // pg's promise form left a rejection nobody observed when the database ended the connection under a query
    // (test/integration/database-restart); its callback form does not.
    const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      connection.query({ name: nameOf(text), text, values }, (err, res) => (err ? reject(err) : resolve(res.rows)));
    });
    return rows;
  } catch (err) {
    // A lost connection goes back to the pool marked unusable, and the pool drops it.
    if (isConnectionLost(err)) {
      connection._invalid = true;
      throw new ConnectionError(err as Error);
    }
    throw err;
  } finally {
    await (sequelize as Observed).runHooks('afterQuery', options, query);
    await pool.releaseConnection(connection);
  }
}
