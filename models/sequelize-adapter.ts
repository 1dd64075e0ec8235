/**
 * Every use of Sequelize beyond its public API, in one file: the SQL findAll would send, an instance built as
 * findAll builds one, a value parsed as Sequelize's own connections parse it, a statement run on one of its
 * pooled connections under its query hooks, and the pool's counters. package.json pins Sequelize to one exact version, and
 * test/unit/sequelize-adapter.test.ts fails when an upgrade changes anything this file relies on.
 */
import { ConnectionAcquireTimeoutError, ConnectionError, Utils, type FindOptions, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';

type Generator = { selectQuery: (table: string, options: object, model: unknown) => string };
type Mapper = { mapOptionFieldNames: (options: object, model: unknown) => object };

/**
 * The SELECT findAll would send for these options (no trailing semicolon): every dialect's quoting, column mapping
 * and operators exactly as Sequelize writes them, for statements that embed it (a subquery, a UNION ALL part).
 * selectQuery rewrites the `order` it is given in place: a caller that reuses an order passes a copy.
 */
export function selectSql(model: ModelStatic<Model>, options: FindOptions): string {
  const generator = model.sequelize!.getQueryInterface().queryGenerator as unknown as Generator;
  // Attribute names to column names, as findAll would.
  const mapped = (Utils as unknown as Mapper).mapOptionFieldNames({ ...options }, model);
  return generator.selectQuery(model.getTableName() as string, mapped, model).replace(/;\s*$/, '');
}

/** What a Sequelize instance holds of its own (sequelize/lib/model.js, the constructor); typed here, not exported by it. */
interface Instance { dataValues: object; _previousDataValues: object; uniqno: number; _changed: Set<string>; _options: object; isNewRecord: boolean }
type Schema = { _schema?: string; _schemaDelimiter?: string };

/**
 * The instance `model.build(values, { raw: true, isNewRecord: false })` makes of values already parsed to their
 * attribute types (dates as dates, booleans as booleans), without the per-attribute `set` build runs for any model
 * with a date or boolean: with `raw` those only call the type sanitizers, which leave such values as they are.
 * Its fields are the constructor's, in its order.
 */
export function readRow<T extends Model>(model: ModelStatic<T>, values: Record<string, unknown>): T {
  const row = Object.create(model.prototype) as Instance;
  row.dataValues = values;
  row._previousDataValues = { ...values };
  row.uniqno = 1;
  row._changed = new Set();
  row._options = { isNewRecord: false, _schema: (model as Schema)._schema, _schemaDelimiter: (model as Schema)._schemaDelimiter, raw: true };
  row.isNewRecord = false;
  return row as unknown as T;
}

type TypeParsers = { getTypeParser(oid: number): (text: string) => unknown };

/** PostgreSQL: the parser Sequelize's connections use for values of a type (by oid). */
export function typeParser(sequelize: Sequelize, oid: number): (text: string) => unknown {
  return (sequelize.connectionManager as unknown as TypeParsers).getTypeParser(oid);
}

/** A pooled connection as the pool hands it out; `_invalid` tells the pool to drop it when it comes back. */
export interface PooledConnection { _invalid?: boolean }
interface Manager {
  getConnection(options: { type: string }): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): void;
  /** sequelize-pool's pool, without read replication. */
  pool: { acquire(): Promise<PooledConnection> };
}
type Hook = ((...args: unknown[]) => unknown) | { fn: (...args: unknown[]) => unknown };
type Observed = Sequelize & { options: { logging?: unknown; databaseVersion?: unknown; replication?: unknown; hooks: Record<string, Hook[] | undefined> } };

/**
 * A connection as the manager's getConnection lends one. Once the server's version is known, without read
 * replication and without pool hooks, getConnection only awaits the pool between two empty hook runs: the pool is
 * asked directly, and its timeout becomes the same ConnectionAcquireTimeoutError.
 */
async function acquire(sequelize: Observed, manager: Manager, options: { type: string }): Promise<PooledConnection> {
  const { hooks, databaseVersion, replication } = sequelize.options;
  if (databaseVersion === 0 || replication || hooks.beforePoolAcquire?.length || hooks.afterPoolAcquire?.length) return manager.getConnection(options);
  try {
    return await manager.pool.acquire();
  } catch (err) {
    throw (err as Error).name === 'TimeoutError' ? new ConnectionAcquireTimeoutError(err as Error) : err;
  }
}

/**
 * Sequelize's hooks of `type` on the instance, in order, as its runHooks calls them: a hook that answers a promise
 * is awaited before the next. Hooks that answer at once (the statement timing) cost no promise.
 */
function runHooks(sequelize: Observed, type: string, ...args: unknown[]): Promise<void> | undefined {
  const hooks = sequelize.options.hooks[type];
  if (!hooks) return undefined;
  for (let i = 0; i < hooks.length; i++) {
    const hook = hooks[i];
    const answer = (typeof hook === 'object' ? hook.fn : hook).apply(sequelize, args);
    if (answer instanceof Promise) return awaitRest(sequelize, hooks, i + 1, answer, args);
  }
  return undefined;
}

async function awaitRest(sequelize: Observed, hooks: Hook[], from: number, pending: Promise<unknown>, args: unknown[]): Promise<void> {
  await pending;
  for (let i = from; i < hooks.length; i++) {
    const hook = hooks[i];
    await (typeof hook === 'object' ? hook.fn : hook).apply(sequelize, args);
  }
}

/** What a statement's hooks are told besides its SQL: its kind and, for the metrics' table label, its model. */
export interface StatementOptions { type?: 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE'; model?: ModelStatic<Model> }

/**
 * `run` on one of Sequelize's pooled connections, or on the connection of `transaction` (whose statements stay
 * on it, in order), as Sequelize runs its own queries: its `beforeQuery` and `afterQuery` hooks and its logger see
 * the statement (`query.sql`) as they see their own, so whatever observes the statements (the query-count test, a
 * debug log) sees these too. A connection lost under the statement (`isLost`) is marked unusable for the pool,
 * and the error becomes Sequelize's ConnectionError.
 */
export async function onPooledConnection<R>(sequelize: Sequelize, sql: string, isLost: (err: unknown) => boolean, run: (connection: unknown) => Promise<R>,
  transaction?: Transaction, statement: StatementOptions = {}): Promise<R> {
  const observed = sequelize as Observed;
  const manager = sequelize.connectionManager as unknown as Manager;
  const options = { type: statement.type ?? 'SELECT', prepared: true, ...(statement.model ? { model: statement.model } : {}) };
  const query = { sql };
  const own = transaction ? (transaction as unknown as { connection: PooledConnection }).connection : undefined;
  const connection = own ?? await acquire(observed, manager, options);
  try {
    const { logging } = observed.options;
    const before = runHooks(observed, 'beforeQuery', options, query);
    if (before) await before;
    if (typeof logging === 'function') logging(`Executing (prepared): ${query.sql}`);
    return await run(connection);
  } catch (err) {
    if (isLost(err)) {
      connection._invalid = true;
      throw new ConnectionError(err as Error);
    }
    throw err;
  } finally {
    const after = runHooks(observed, 'afterQuery', options, query);
    if (after) await after;
    if (!own) manager.releaseConnection(connection);
  }
}

type Formatter = { formatError(err: Error, stack?: string): Error };
type Dialect = { Query: new (connection: unknown, sequelize: Sequelize, options: object) => Formatter };

/** A driver's error as Sequelize's own query would have thrown it (UniqueConstraintError, ForeignKeyConstraintError, …). */
export function sequelizeError(sequelize: Sequelize, err: Error): Error {
  const { Query } = (sequelize as unknown as { dialect: Dialect }).dialect;
  return new Query(null, sequelize, {}).formatError(err, err.stack);
}

/** The attributes Sequelize's save keeps for a model: its timestamps and its version (the optimistic lock). */
export interface Bookkeeping { createdAt?: string; updatedAt?: string; version?: string; autoIncrement: string[] }

export function bookkeeping(model: ModelStatic<Model>): Bookkeeping {
  const m = model as unknown as { _timestampAttributes: { createdAt?: string; updatedAt?: string }; _versionAttribute?: string; autoIncrementAttribute?: string };
  const attributes = model.getAttributes() as Record<string, { autoIncrement?: boolean }>;
  return {
    createdAt: m._timestampAttributes.createdAt || undefined,
    updatedAt: m._timestampAttributes.updatedAt || undefined,
    version: m._versionAttribute || undefined,
    autoIncrement: Object.keys(attributes).filter((a) => attributes[a].autoIncrement),
  };
}

/** A row written as save writes it: nothing changed since, its values now its previous values. */
export function markSaved(row: Model): void {
  const r = row as unknown as Instance;
  r._previousDataValues = { ...r.dataValues };
  r._changed = new Set();
  r.isNewRecord = false;
  (r._options as { isNewRecord?: boolean }).isNewRecord = false;
}

/** sequelize-pool's counters, on the pool Sequelize keeps without read replication. */
interface PoolCounters { using: number; available: number; waiting: number }

/** Connections of the pool in use and idle, and the statements waiting for one. */
export function poolUsage(sequelize: Sequelize): { used: number; idle: number; waiting: number } {
  const pool = (sequelize.connectionManager as unknown as { pool?: Partial<PoolCounters> }).pool;
  return { used: pool?.using ?? 0, idle: pool?.available ?? 0, waiting: pool?.waiting ?? 0 };
}
