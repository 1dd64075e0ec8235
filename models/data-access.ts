/**
 * Every read the generic layers make of a resource's rows, as one interface. Its implementation is chosen once, when
 * the models are set up (models/index initModels): models/data-access-pg on PostgreSQL (prepared statements, one
 * JSON value per row with the targets as subqueries), models/data-access-mysql on MySQL and MariaDB (text
 * statements, a column per attribute, targets read after their rows). Both answer with the same instances: rows
 * as findAll builds them.
 */
import type { Model, ModelStatic, Transaction, WhereOptions } from 'sequelize';
import type { Caller, ItemWanted } from './caller';
import { syncKeys } from './define';
import { byUidSql, byUidsSql, linkedSql, linkSourcesSql, ownedSql, type Order, type RelatedWanted, type Targets } from './select-sql';

export type { Caller, ItemWanted } from './caller';
export type { Order, RelatedWanted, Targets } from './select-sql';

/** A to-many association's target as linked from one source. */
export interface Link<T> { sourceUid: string; target: T }

export interface DataAccess extends RowWrites {
  /**
   * The tenant of `realm`, its user `userUid` (null: none) and, with `item`, that row in the same tenant (null:
   * none there) with the targets of `item.related` where they can be read in the same round trip. Null: no such
   * tenant.
   */
  readCaller(realm: string, userUid: string, item?: ItemWanted): Promise<Caller | null>;
  /** The row with this uid in this tenant, or null. */
  readByUid<M extends Model>(model: ModelStatic<M>, uid: string, tenantUid: string, transaction?: Transaction): Promise<M | null>;
  /** The rows with these uids, in no particular order: the targets of to-one references. */
  readByUids<M extends Model>(model: ModelStatic<M>, uids: string[], transaction?: Transaction): Promise<M[]>;
  /**
   * The targets a to-many association links to each source, in link order (position, then target uid); a link
   * whose target is gone is skipped. A target linked from several sources is one instance.
   */
  readLinked<T extends Model>(join: ModelStatic<Model>, target: ModelStatic<T>, sourceUids: string[], transaction?: Transaction): Promise<Link<T>[]>;
  /**
   * One page of the rows matching `where`, in `order`; with `wanted`, the targets of those associations per row
   * uid (`targets`) when they could be read with the rows.
   */
  readPage<M extends Model>(model: ModelStatic<M>, where: WhereOptions, order: Order, limit: number, offset: number, wanted?: RelatedWanted[]): Promise<{ rows: M[]; targets?: Map<string, Targets> }>;
  /** The first row matching `where` in `order` (default: none), or null. */
  readOne<M extends Model>(model: ModelStatic<M>, where: WhereOptions, order?: Order, transaction?: Transaction): Promise<M | null>;
  /** Every row matching `where`, in `order`. */
  readAll<M extends Model>(model: ModelStatic<M>, where: WhereOptions, order: Order, transaction?: Transaction): Promise<M[]>;
  /** For each of these join tables, the sources it links to one target (the groups a user is in, by link), in one statement. */
  readLinkSources(joins: ModelStatic<Model>[], targetUid: string, transaction?: Transaction): Promise<string[][]>;
  /** For each of `models` (each with an `ownersUid`), the uids of its rows in the tenant owned by one of `groupUids`. */
  readOwned(models: ModelStatic<Model>[], tenantUid: string, groupUids: string[], transaction?: Transaction): Promise<string[][]>;
  /** The rows of a hand-written SELECT whose `?` take `values` (an array value fills `IN (?)`). */
  select(sql: string, values: unknown[], transaction?: Transaction): Promise<Record<string, unknown>[]>;
  /**
   * As `select`, for a statement whose best plan depends on its values (how many rows one key has, as an
   * environment's streams): planned for the values of each call, never as a prepared generic plan.
   */
  selectUnprepared(sql: string, values: unknown[]): Promise<Record<string, unknown>[]>;
}

/**
 * The writes of one row inside a transaction, as Sequelize's save and destroy make them: the timestamps, the
 * lowercase twins (models/define), the version as the optimistic lock (a row changed since it was read fails with
 * OptimisticLockError), the database's refusals as Sequelize's errors. On PostgreSQL prepared statements
 * (models/row-writes-pg); on MySQL and MariaDB save and destroy themselves.
 */
export interface RowWrites {
  /**
   * Stores a row made by `model.build`; answers it as read back (on PostgreSQL every attribute, null where none was
   * given; through save, the attributes save holds).
   */
  insert<M extends Model>(row: M, transaction: Transaction): Promise<M>;
  /**
   * As insert, except that a row clashing with another on a unique index is not written and null answers, the
   * transaction still usable: PostgreSQL only (`ON CONFLICT DO NOTHING`). Absent where the dialect cannot (MySQL's
   * INSERT IGNORE would also turn other refusals into warnings).
   */
  insertUnlessClash?<M extends Model>(row: M, transaction: Transaction): Promise<M | null>;
  /** Stores what was set on a row since it was read (nothing when nothing changed), as save does. */
  update<M extends Model>(row: M, transaction: Transaction): Promise<M>;
  /** Deletes the row as it was read (its uid and version), as destroy does. */
  destroy(row: Model, transaction: Transaction): Promise<void>;
  /** New rows of stored values (no setters, no defaults: each row gives the same attributes), in one statement. */
  insertStored(model: ModelStatic<Model>, rows: Record<string, unknown>[], transaction: Transaction): Promise<void>;
}

/** The row writes through Sequelize's own save, destroy and bulkInsert. */
export const sequelizeWrites: RowWrites = {
  insert: (row, transaction) => row.save({ transaction }),
  update: (row, transaction) => {
    syncKeys(row);
    return row.save({ transaction });
  },
  destroy: (row, transaction) => row.destroy({ transaction }),
  async insertStored(model, rows, transaction) {
    if (rows.length === 0) return;
    const attributes = model.getAttributes() as Record<string, { field?: string }>;
    const byField = Object.fromEntries(Object.entries(attributes).map(([a, def]) => [def.field ?? a, def]));
    const records = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined).map(([a, v]) => [attributes[a]?.field ?? a, v])));
    await model.sequelize!.getQueryInterface().bulkInsert(model.getTableName() as string, records, { transaction, model } as never, byField as never);
  },
};

/** The reads both implementations make through Sequelize's own findOne and findAll. */
export const sequelizeReads: Pick<DataAccess, 'readOne' | 'readAll'> = {
  readOne: (model, where, order, transaction) => model.findOne({ where, ...(order ? { order } : {}), transaction }),
  readAll: (model, where, order, transaction) => model.findAll({ where, order, transaction }),
};

/**
 * The reads of the shared statements of models/select-sql (by uid, by uids, links, link sources) through an
 * implementation's `select`, each row made by its `rowOf` from values keyed by attribute name: the statements
 * select every column under its attribute's name (a link's target under `x_`, renamed here).
 */
export function statementReads(
  select: DataAccess['select'],
  rowOf: <M extends Model>(model: ModelStatic<M>, values: Record<string, unknown>) => M,
): Pick<DataAccess, 'select' | 'readByUid' | 'readByUids' | 'readLinked' | 'readLinkSources' | 'readOwned'> {
  return {
    select,
    async readByUid(model, uid, tenantUid, transaction) {
      const [row] = await select(byUidSql(model as ModelStatic<Model>), [uid, tenantUid], transaction);
      return row ? rowOf(model, row) : null;
    },
    async readByUids(model, uids, transaction) {
      if (uids.length === 0) return [];
      return (await select(byUidsSql(model as ModelStatic<Model>), [uids], transaction)).map((row) => rowOf(model, row));
    },
    async readLinked(join, target, sourceUids, transaction) {
      if (sourceUids.length === 0) return [];
      const { sql, columns } = linkedSql(join, target as ModelStatic<Model>);
      const rows = await select(sql, [sourceUids], transaction);
      return linksFrom(rows, (row) => rowOf(target, Object.fromEntries(columns.map((c) => [c.attribute, row[c.alias]]))));
    },
    async readLinkSources(joins, targetUid, transaction) {
      const sources: string[][] = joins.map(() => []);
      for (const row of await select(linkSourcesSql(joins), joins.map(() => targetUid), transaction)) sources[Number(row.k)].push(row.g as string);
      return sources;
    },
    async readOwned(models, tenantUid, groupUids, transaction) {
      const owned: string[][] = models.map(() => []);
      if (groupUids.length === 0) return owned;
      const rows = await select(ownedSql(models), models.flatMap(() => [tenantUid, groupUids]), transaction);
      for (const row of rows) owned[Number(row.k)].push(row.u as string);
      return owned;
    },
  };
}

/** Rows of a to-many read, each target built once however many sources link it. */
function linksFrom<T>(rows: Record<string, unknown>[], build: (row: Record<string, unknown>) => T): Link<T>[] {
  const built = new Map<string, T>();
  return rows.map((row) => {
    const uid = row.x_uid as string;
    let found = built.get(uid);
    if (!found) built.set(uid, (found = build(row)));
    return { sourceUid: row.j_source as string, target: found };
  });
}
