/**
 * Read-your-writes on a MariaDB Galera cluster. A write is acknowledged once every node has certified it, but
 * another node may not have applied it yet: without more, a host reading through that node may answer 404 for
 * what a host on another node has just created. `wsrep_sync_wait = 1` makes each read (SELECT, SHOW, BEGIN) of the
 * session wait until its node has applied everything the cluster had certified when the read began.
 *
 * Whether the server is a Galera node (`@@wsrep_on`) is asked once per connection pool; on Galera every new
 * session then sets the variable. Other MySQL-family servers are left as they are (MySQL has no `wsrep_on`).
 */
import type { Sequelize } from 'sequelize';

/** The session setting, applied on Galera nodes only. */
export const GALERA_SESSION_SQL = 'SET SESSION wsrep_sync_wait = 1';

type Run = (sql: string) => Promise<unknown>;

interface CallbackConnection { query(sql: string, done: (err: Error | null, rows?: unknown) => void): unknown }
interface PromiseConnection { query(sql: string): Promise<unknown> }

/** mysql2's connections (as Sequelize opens them) take a callback; mariadb's answer a promise. */
function runner(dialect: string, connection: unknown): Run {
  if (dialect === 'mariadb') return (sql) => (connection as PromiseConnection).query(sql);
  return (sql) => new Promise((resolve, reject) => {
    (connection as CallbackConnection).query(sql, (err, rows) => (err ? reject(err) : resolve(rows)));
  });
}

/** 1193 ER_UNKNOWN_SYSTEM_VARIABLE: a server without wsrep (MySQL). */
const isUnknownVariable = (err: unknown) => (err as { errno?: unknown })?.errno === 1193;

export async function isGaleraNode(run: Run): Promise<boolean> {
  try {
    const rows = await run('SELECT @@wsrep_on AS galera') as { galera?: unknown }[];
    return Number(rows[0]?.galera) === 1;
  } catch (err) {
    if (isUnknownVariable(err)) return false;
    throw err;
  }
}

export function causalReadsOnGalera(sequelize: Sequelize): void {
  const dialect = sequelize.getDialect();
  if (dialect !== 'mysql' && dialect !== 'mariadb') return;
  let galera: Promise<boolean> | undefined;
  sequelize.addHook('afterConnect', async (connection) => {
    const run = runner(dialect, connection);
    // A failed check (the connection lost) is asked again on the next connection.
    galera ??= isGaleraNode(run).catch((err: unknown) => { galera = undefined; throw err; });
    if (await galera) await run(GALERA_SESSION_SQL);
  });
}
