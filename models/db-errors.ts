/**
 * The database chose this transaction as a deadlock victim (PostgreSQL 40P01, MySQL/MariaDB 1213 / 40001): on
 * MySQL/MariaDB also what one of two racing inserts of the same unique key may meet. Retrying is the answer.
 */
export function isDeadlock(err: unknown): boolean {
  const parent = (err as { parent?: { code?: unknown; errno?: unknown; sqlState?: unknown } })?.parent ?? {};
  return parent.code === '40P01' || parent.errno === 1213 || parent.code === 'ER_LOCK_DEADLOCK' || parent.sqlState === '40001';
}

/**
 * Driver codes that mean the connection, not the statement, failed: the server went away, refused or ended the
 * session (PostgreSQL class 08 and 57P01–57P03; MySQL/MariaDB's socket and kill codes), or the socket broke.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', 'ENOTFOUND',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
  'ER_GET_CONNECTION_TIMEOUT', 'ER_SOCKET_UNEXPECTED_CLOSE', 'ER_CONNECTION_ALREADY_CLOSED', 'ER_CMD_CONNECTION_CLOSED',
  'ER_CONNECTION_KILLED', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR', 'ER_CONNECTION_TIMEOUT', 'ER_SOCKET_TIMEOUT',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT',
]);

/** What pg says, without a code, about a client whose connection has ended. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated( unexpectedly)?|Connection terminated due to connection timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

/**
 * The database connection was lost or could not be had (a restart, a failover, a killed session, a full server):
 * the request may be retried, the answer is 503. Looks at the error and at what Sequelize wrapped (`parent`,
 * `original`), since a connection ended mid-statement reaches us as a DatabaseError.
 */
export function isConnectionLost(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; sqlState?: unknown; parent?: unknown; original?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    // SQLSTATE class 08 from a MySQL-family server: e.g. a Galera node that is not (yet) Synced, 1047 08S01.
    if (typeof e.sqlState === 'string' && e.sqlState.startsWith('08')) return true;
    if (typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message)) return true;
    e = (e.parent ?? e.original) as typeof e;
  }
  return false;
}

/**
 * The last column of every unique index (migrations name each `<table>_<column>_uq`), longest first: MySQL and
 * MariaDB report a collision by index name, and the column is the longest of these the name ends with. A schema
 * test checks the list against every unique index of the migrated database.
 */
export const UNIQUE_INDEX_COLUMNS = [
  'application_id_key', 'plugin_class_key', 'environment_uid', 'short_name_key', 'federated_subject', 'access_type',
  'version_key', 'short_name', 'email_key', 'client_id', 'name_key', 'open_key', 'identity', 'username', 'type', 'seq', 'secret_hash',
].sort((a, b) => b.length - a.length);

/**
 * The columns a unique collision names, the tenant column left out: PostgreSQL reports the index's columns;
 * MySQL and MariaDB the index's name (`groups_name_key_uq`, or `groups.groups_name_key_uq`), read back to its column.
 */
export function collidingColumns(err: { fields?: Record<string, unknown> | string[] }): string[] {
  const keys = Array.isArray(err.fields) ? err.fields : Object.keys(err.fields ?? {});
  return keys.flatMap((key) => {
    const name = key.split('.').pop()!;
    if (name === 'tenant_uid') return [];
    if (!name.endsWith('_uq')) return [name];
    const stem = name.replace(/_uq$/, '');
    if (stem === 'users_federated') return ['federated_subject'];
    const column = UNIQUE_INDEX_COLUMNS.find((c) => stem === c || stem.endsWith(`_${c}`));
    return column ? [column] : [];
  });
}
