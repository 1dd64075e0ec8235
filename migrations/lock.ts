/**
 * One migrator at a time on a database, however many hosts start together: PostgreSQL holds a transaction-level
 * advisory lock, MySQL and MariaDB a named lock (GET_LOCK). A Galera cluster refuses or confines GET_LOCK to one node,
 * so there the lock is a row every node sees: certification lets exactly one insert of it commit.
 */
import { randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** Arbitrary, fixed: the advisory lock key and lock name every version of the service uses. */
const PG_LOCK_KEY = 7_354_110_321;
const LOCK_NAME = 'pms_schema_migrations';
/** How long a starting host waits for another one's migrations before it gives up (a stop, not a race). */
const WAIT_SECONDS = 600;
/** The Galera lock row's lease: a holder that dies frees it this long after its last renewal. */
const LEASE_SECONDS = 60;
const RENEW_MS = 15_000;
const POLL_MS = 250;

export class MigrationLockTimeout extends Error {
  constructor() {
    super(`another host held the migration lock for more than ${WAIT_SECONDS} s`);
  }
}

export async function withMigrationLock<T>(sequelize: Sequelize, run: () => Promise<T>): Promise<T> {
  if (sequelize.getDialect() === 'postgres') {
    return sequelize.transaction(async (transaction) => {
      await sequelize.query(`SET LOCAL lock_timeout = '${WAIT_SECONDS}s'`, { transaction });
      await sequelize.query('SELECT pg_advisory_xact_lock(:key)', { replacements: { key: PG_LOCK_KEY }, transaction });
      return run();
    });
  }
  if (await isGalera(sequelize)) return withLockRow(sequelize, run);
  // A transaction pins one pooled connection, the session GET_LOCK belongs to.
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ got: number | string | null }>('SELECT GET_LOCK(:name, :wait) AS got', {
      replacements: { name: LOCK_NAME, wait: WAIT_SECONDS }, type: QueryTypes.SELECT, transaction,
    });
    if (Number(row?.got) !== 1) throw new MigrationLockTimeout();
    try {
      return await run();
    } finally {
      await sequelize.query('SELECT RELEASE_LOCK(:name)', { replacements: { name: LOCK_NAME }, transaction }).catch(() => undefined);
    }
  });
}

/** MariaDB Galera (wsrep on); MySQL has no such variable and answers no row. */
async function isGalera(sequelize: Sequelize): Promise<boolean> {
  const rows = await sequelize.query<{ Value: string }>("SHOW VARIABLES LIKE 'wsrep_on'", { type: QueryTypes.SELECT });
  return rows.some((r) => String(r.Value).toUpperCase() === 'ON');
}

async function withLockRow<T>(sequelize: Sequelize, run: () => Promise<T>): Promise<T> {
  await sequelize.query(
    'CREATE TABLE IF NOT EXISTS schema_migration_lock (id INT NOT NULL PRIMARY KEY, holder VARCHAR(64) NOT NULL, expires_at DATETIME(3) NOT NULL) ENGINE=InnoDB',
  );
  const holder = randomBytes(16).toString('hex');
  const deadline = Date.now() + WAIT_SECONDS * 1000;
  while (!(await takeLockRow(sequelize, holder))) {
    if (Date.now() > deadline) throw new MigrationLockTimeout();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const renew = setInterval(() => {
    void write(sequelize, 'UPDATE schema_migration_lock SET expires_at = NOW(3) + INTERVAL :lease SECOND WHERE id = 1 AND holder = :holder', holder)
      .catch(() => undefined);
  }, RENEW_MS);
  try {
    return await run();
  } finally {
    clearInterval(renew);
    await write(sequelize, 'DELETE FROM schema_migration_lock WHERE id = 1 AND holder = :holder', holder).catch(() => undefined);
  }
}

/** Inserts the row, or takes it over once its lease has run out; false while another holder has it. */
async function takeLockRow(sequelize: Sequelize, holder: string): Promise<boolean> {
  try {
    await write(sequelize, 'INSERT INTO schema_migration_lock (id, holder, expires_at) VALUES (1, :holder, NOW(3) + INTERVAL :lease SECOND)', holder);
    return true;
  } catch (err) {
    if (!collided(err)) throw err;
  }
  const affected = await write(
    sequelize,
    'UPDATE schema_migration_lock SET holder = :holder, expires_at = NOW(3) + INTERVAL :lease SECOND WHERE id = 1 AND expires_at < NOW(3)',
    holder,
  ).catch((err: unknown) => { if (collided(err)) return 0; throw err; });
  return affected === 1;
}

/** A duplicate key (the row is there) or a deadlock (another node's write won certification at commit). */
function collided(err: unknown): boolean {
  if ((err as { name?: string }).name === 'SequelizeUniqueConstraintError') return true;
  const parent = (err as { parent?: { errno?: unknown; sqlState?: unknown } }).parent ?? {};
  return parent.errno === 1213 || parent.sqlState === '40001';
}

/** A statement in a transaction of its own (committed, so every node has seen it): the rows it changed. */
async function write(sequelize: Sequelize, sql: string, holder: string): Promise<number> {
  return sequelize.transaction(async (transaction: Transaction) => {
    const [, meta] = await sequelize.query(sql, { replacements: { holder, lease: LEASE_SECONDS }, transaction });
    const m = meta as { affectedRows?: number } | number | undefined;
    return typeof m === 'number' ? m : m?.affectedRows ?? 0;
  });
}
