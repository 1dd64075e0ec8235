/**
 * The database chose this transaction as a deadlock victim (PostgreSQL 40P01, MySQL/MariaDB 1213 / 40001): on
 * MySQL/MariaDB also what one of two racing inserts of the same unique key may meet. Retrying is the answer.
 */
export function isDeadlock(err: unknown): boolean {
  const parent = (err as { parent?: { code?: unknown; errno?: unknown; sqlState?: unknown } })?.parent ?? {};
  return parent.code === '40P01' || parent.errno === 1213 || parent.code === 'ER_LOCK_DEADLOCK' || parent.sqlState === '40001';
}
