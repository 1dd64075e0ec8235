/**
 * SQL text both dialect families send, built once per model where it can be: the SQL of a findAll embedded in a
 * larger statement (a UNION ALL of slices, a bounded count), a model's columns as a select list, the statements by
 * uid, by uids and of a to-many association's links, the groups linked to a user, and the tables of the caller's
 * statement. The data-access implementations (models/data-access-pg, models/data-access-mysql) run them and
 * decode their rows, each its own way.
 */
import type { Row } from './define';
import type { Models } from '../core/context';
import { selectSql } from './sequelize-adapter';
import { QueryTypes, type ModelStatic, type Model, type WhereOptions } from 'sequelize';

export { selectSql };

export type Order = [string, 'ASC' | 'DESC'][];

/**
 * The rows matching any of `slices` (which must be disjoint), in `order`, one page. Each slice is its own
 * `(SELECT … ORDER BY … LIMIT offset+limit)` inside a UNION ALL, so the database plans each one on its own index
 * and stops early in each; one OR over all slices would make it scan and filter the whole table instead.
 */
export async function findSlices<M extends Model>(model: ModelStatic<M>, slices: WhereOptions[], order: Order, limit: number, offset: number): Promise<M[]> {
  const sequelize = model.sequelize!;
  if (slices.length === 1) return model.findAll({ where: slices[0], order, limit, offset });
  const attributes = Object.keys(model.getAttributes());
  // selectQuery rewrites the order it is given in place: each slice gets its own copy.
  const parts = slices.map((where) => `(${selectSql(model as ModelStatic<Model>, { attributes, where, order: order.map(([name, dir]) => [name, dir]), limit: offset + limit })})`);
  const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
  const by = order.map(([name, dir]) => `${q(name)} ${dir}`).join(', ');
  const sql = `SELECT * FROM (${parts.join(' UNION ALL ')}) AS slices ORDER BY ${by} LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`;
  return sequelize.query(sql, { model, mapToModel: true });
}

/**
 * How many rows match any of the disjoint `slices`, counted only up to `limit`: each slice stops there, and the
 * outer LIMIT stops the whole count there (PostgreSQL runs a UNION ALL's parts one after the other). Each slice is
 * counted in `order`, the order its page is read in, so the count walks the index the page walks; without an
 * order, PostgreSQL may count a large tenant by a sequential scan, which reads a large table from the operating
 * system again on every count.
 */
export async function countSlicesUpTo(model: ModelStatic<Model>, slices: WhereOptions[], limit: number, order: Order): Promise<number> {
  const sequelize = model.sequelize!;
  // selectQuery rewrites the order it is given in place: each slice gets its own copy.
  const parts = slices.map((where) => `(${selectSql(model, { attributes: [[sequelize.literal('1'), 'one']], where, order: order.map(([name, dir]) => [name, dir]), limit })})`);
  // One slice is counted as it is: no UNION ALL and outer LIMIT nodes to pass each counted row through.
  const counted = parts.length === 1 ? parts[0] : `(SELECT 1 AS one FROM (${parts.join(' UNION ALL ')}) AS slices LIMIT ${Math.trunc(limit)})`;
  const [row] = await sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${counted} AS counted`, { type: QueryTypes.SELECT });
  return Math.min(Number(row.n), limit);
}

/**
 * A model's columns as a select list, each aliased to `<prefix><attribute>` (`table` qualifies them for a join):
 * the hand-written statements read rows under the names findAll would give them.
 */
export function selectColumns(model: ModelStatic<Model>, table = '', prefix = ''): { alias: string; attribute: string; select: string }[] {
  const q = (name: string) => model.sequelize!.getQueryInterface().quoteIdentifier(name);
  return Object.entries(model.getAttributes() as Record<string, { field?: string }>).map(([attribute, def]) => ({
    alias: `${prefix}${attribute}`, attribute, select: `${table ? `${table}.` : ''}${q(def.field ?? attribute)} AS ${q(`${prefix}${attribute}`)}`,
  }));
}

/** A model's table, quoted for its dialect. */
export function tableOf(model: ModelStatic<Model>): string {
  return model.sequelize!.getQueryInterface().quoteIdentifier(model.getTableName() as string);
}

/** An attribute's column, quoted for the model's dialect. */
export function columnOf(model: ModelStatic<Model>, attribute: string): string {
  return model.sequelize!.getQueryInterface().quoteIdentifier((model.getAttributes() as Record<string, { field?: string }>)[attribute].field ?? attribute);
}

/** A model's columns as selectColumns gives them. */
export type Columns = ReturnType<typeof selectColumns>;

/** Per model: its row by primary key within one tenant, as findOne would select it. */
const byUidStatements = new WeakMap<ModelStatic<Model>, string>();

/** The row with `?` (uid) in the tenant `?`: the read of one item by uid. */
export function byUidSql(model: ModelStatic<Model>): string {
  let sql = byUidStatements.get(model);
  if (!sql) {
    sql = `SELECT ${selectColumns(model).map((c) => c.select).join(', ')} FROM ${tableOf(model)} WHERE ${columnOf(model, 'uid')} = ? AND ${columnOf(model, 'tenantUid')} = ?`;
    byUidStatements.set(model, sql);
  }
  return sql;
}

/** Per model: its rows by a list of primary keys, as findAll would select them (no tenant: references are by uid). */
const byUidsStatements = new WeakMap<ModelStatic<Model>, string>();

/** The rows whose uid is in the list `IN (?)`: the targets of to-one references. */
export function byUidsSql(model: ModelStatic<Model>): string {
  let sql = byUidsStatements.get(model);
  if (!sql) {
    sql = `SELECT ${selectColumns(model).map((c) => c.select).join(', ')} FROM ${tableOf(model)} WHERE ${columnOf(model, 'uid')} IN (?)`;
    byUidsStatements.set(model, sql);
  }
  return sql;
}

/**
 * A to-many association's links (join table `j`) joined to their targets (`x`), and their order: link position,
 * then target uid. A link whose target is gone joins nothing. `from` ends where the links' sources are chosen.
 */
export function linksOf(join: ModelStatic<Model>, target: ModelStatic<Model>): { from: string; source: string; order: string } {
  const j = (attribute: string) => `j.${columnOf(join, attribute)}`;
  return {
    from: `${tableOf(join)} j JOIN ${tableOf(target)} x ON x.${columnOf(target, 'uid')} = ${j('targetUid')}`,
    source: j('sourceUid'),
    order: `${j('position')} ASC, ${j('targetUid')} ASC`,
  };
}

/** Per join and target model: the targets linked to some sources, with the source each link comes from. */
const linkedStatements = new WeakMap<ModelStatic<Model>, Map<ModelStatic<Model>, { sql: string; columns: Columns }>>();

/** The targets linked to the sources in `IN (?)`, each with its link's source (`j_source`), in link order. */
export function linkedSql(join: ModelStatic<Model>, target: ModelStatic<Model>): { sql: string; columns: Columns } {
  let byTarget = linkedStatements.get(join);
  if (!byTarget) linkedStatements.set(join, (byTarget = new Map()));
  let built = byTarget.get(target);
  if (built) return built;
  const links = linksOf(join, target);
  const columns = selectColumns(target, 'x', 'x_');
  const sql = `SELECT ${links.source} AS ${join.sequelize!.getQueryInterface().quoteIdentifier('j_source')}, ${columns.map((c) => c.select).join(', ')}`
    + ` FROM ${links.from} WHERE ${links.source} IN (?) ORDER BY ${links.order}`;
  byTarget.set(target, (built = { sql, columns }));
  return built;
}

/** Per first join model, per list of join models (by name): the sources linked to one target in any of them. */
const linkSourcesStatements = new WeakMap<ModelStatic<Model>, Map<string, string>>();

/**
 * The sources (`g`) linked to the target `?` in each of the `joins` tables, with the join's index (`k`); one
 * placeholder per join, each taking the same target uid.
 */
export function linkSourcesSql(joins: ModelStatic<Model>[]): string {
  return builtOnce(linkSourcesStatements, joins, () => joins
    .map((m, k) => `SELECT ${k} AS k, ${columnOf(m, 'sourceUid')} AS g FROM ${tableOf(m)} WHERE ${columnOf(m, 'targetUid')} = ?`).join(' UNION ALL '));
}

/** A statement's text over a list of models, built on first use: cached per first model, then per the list's names. */
function builtOnce(cache: WeakMap<ModelStatic<Model>, Map<string, string>>, models: ModelStatic<Model>[], build: () => string): string {
  let byNames = cache.get(models[0]);
  if (!byNames) cache.set(models[0], (byNames = new Map()));
  const names = models.map((m) => m.name).join(',');
  let sql = byNames.get(names);
  if (!sql) byNames.set(names, (sql = build()));
  return sql;
}

/** Per first model, per list of models (by name): the rows each list's groups own. */
const ownedStatements = new WeakMap<ModelStatic<Model>, Map<string, string>>();

/**
 * The uids (`u`) of each model's rows in the tenant `?` owned by one of the groups `IN (?)`, tagged (`k`) with the
 * model's place in `models`: one statement for every kind a visibility rule asks about.
 */
export function ownedSql(models: ModelStatic<Model>[]): string {
  const q = (name: string) => models[0].sequelize!.getQueryInterface().quoteIdentifier(name);
  return builtOnce(ownedStatements, models, () => models.map((m, k) => `SELECT ${k} AS ${q('k')}, ${columnOf(m, 'uid')} AS ${q('u')} FROM ${tableOf(m)}`
    + ` WHERE ${columnOf(m, 'tenantUid')} = ? AND ${columnOf(m, 'ownersUid')} IN (?)`).join(' UNION ALL '));
}

/**
 * A to-one (`attribute` of the row names the target) or to-many (`join` links row and targets) association whose
 * targets a read renders.
 */
export type RelatedWanted =
  | { rel: string; target: ModelStatic<Model>; attribute: string; join?: undefined }
  | { rel: string; target: ModelStatic<Model>; join: ModelStatic<Model>; attribute?: undefined };

/** Per association asked for, a row's targets (to-one: none or one; to-many: in link order). */
export type Targets = Map<string, Row[]>;

/**
 * What a request needs of its caller's user row (the principal's uid, roles, email and name). Its password and
 * client-secret hashes, settings and federation links are not read on every request; code that needs them reads
 * the user itself.
 */
export const CALLER_USER = new Set(['uid', 'tenantUid', 'email', 'roles', 'firstName', 'middleName', 'lastName', 'version']);

/** Whether a model's rows belong to one tenant (a `tenantUid` attribute): only those can be read alongside. */
export const isTenantRow = (model: ModelStatic<Model>): boolean => 'tenantUid' in model.getAttributes();

/** What the caller's statement reads besides the item: the tenants and users. */
export type CallerModels = Pick<Models, 'sequelize' | 'Tenant' | 'User'>;

/**
 * The tables of the caller's statement: the tenant `t` by its short name, its user `u` and, when a GET names one,
 * the item `r` in that tenant; placeholders, in order: user uid, item uid (with an item), realm.
 */
export function callerFrom(models: CallerModels, item?: ModelStatic<Model>): string {
  const q = (name: string) => models.sequelize.getQueryInterface().quoteIdentifier(name);
  return ` FROM ${tableOf(models.Tenant as ModelStatic<Model>)} t`
    + ` LEFT JOIN ${tableOf(models.User as ModelStatic<Model>)} u ON u.${q('tenant_uid')} = t.${q('uid')} AND u.${q('uid')} = ?`
    + (item ? ` LEFT JOIN ${tableOf(item)} r ON r.${columnOf(item, 'tenantUid')} = t.${q('uid')} AND r.${columnOf(item, 'uid')} = ?` : '')
    + ` WHERE t.${q('short_name')} = ?`;
}

/** The values of the caller's statement, in its placeholders' order (see callerFrom). */
export function callerValues(realm: string, userUid: string, item?: { uid: string }): string[] {
  return item ? [userUid, item.uid, realm] : [userUid, realm];
}

/**
 * The total of a listing, bounded: the rows matching any of the disjoint `slices`, counted up to `window` rows past
 * the end of the page (`capped` when more match: the total is then a lower bound). With `returned` (the rows the
 * page read), a page that is not full tells the total by itself and nothing is counted.
 */
export async function boundedTotal(model: ModelStatic<Model>, slices: WhereOptions[], page: { page: number; size: number }, order: Order,
  window: number, returned?: number): Promise<{ total: number; capped: boolean }> {
  const offset = page.page * page.size;
  if (returned !== undefined && ((returned > 0 && returned < page.size) || (returned === 0 && offset === 0))) return { total: offset + returned, capped: false };
  const limit = offset + page.size + window;
  const counted = await countSlicesUpTo(model, slices, limit + 1, order);
  return { total: counted, capped: counted > limit };
}
