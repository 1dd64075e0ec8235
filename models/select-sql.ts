/**
 * SQL as text where findAll cannot say it or costs too much: the SQL of a findAll for a subquery (`IN (…)`,
 * `COUNT(*) FROM (… LIMIT n)`) that must keep every dialect's quoting, column mapping and operators exactly as
 * Sequelize writes them; and the read of one row by uid, built once per model.
 */
import { selectRows } from './prepared';
import type { Row } from './define';
import { readRow, selectSql, typeParser } from './sequelize-adapter';
import { QueryTypes, type ModelStatic, type Model, type Transaction, type WhereOptions } from 'sequelize';

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
 * counted in `order`, the order its page is read in, so the count walks the index the page walks: without it,
 * PostgreSQL counted the first rows of a tenant owning most of a large table by a sequential scan, which reads a
 * large table through a small ring of buffers — from the operating system again on every count (measured at 1M
 * streams: 1.5–2 ms per count against 0.5 ms off the index, the size-dependent part of a page's time).
 */
export async function countSlicesUpTo(model: ModelStatic<Model>, slices: WhereOptions[], limit: number, order: Order): Promise<number> {
  const sequelize = model.sequelize!;
  // selectQuery rewrites the order it is given in place: each slice gets its own copy.
  const parts = slices.map((where) => `(${selectSql(model, { attributes: [[sequelize.literal('1'), 'one']], where, order: order.map(([name, dir]) => [name, dir]), limit })})`);
  // One slice is counted as it is: two executor nodes fewer for each row counted (~10 % of a count of 1,041).
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

/** A model instance from a row read under selectColumns' aliases, as findAll would build it. */
export function buildAliased<M extends Model>(model: ModelStatic<M>, columns: { alias: string; attribute: string }[], row: Record<string, unknown>): M {
  return model.build(Object.fromEntries(columns.map((c) => [c.attribute, row[c.alias]])) as never, { raw: true, isNewRecord: false });
}

/** Per model: its rows by a list of primary keys, as findAll would select them (no tenant: references are by uid). */
const byUidsStatements = new WeakMap<ModelStatic<Model>, string>();

/**
 * The rows with these uids, in no particular order: the targets of to-one references, read for a page or an item
 * with their SQL text built once per model instead of findAll's option cloning and WHERE building on each call.
 */
export async function findByUids<M extends Model>(model: ModelStatic<M>, uids: string[], transaction?: Transaction): Promise<M[]> {
  if (uids.length === 0) return [];
  let sql = byUidsStatements.get(model as ModelStatic<Model>);
  if (!sql) {
    const table = tableOf(model as ModelStatic<Model>);
    sql = `SELECT ${selectColumns(model as ModelStatic<Model>).map((c) => c.select).join(', ')} FROM ${table} WHERE ${columnOf(model as ModelStatic<Model>, 'uid')} IN (?)`;
    byUidsStatements.set(model as ModelStatic<Model>, sql);
  }
  return model.bulkBuild(await selectRows(model.sequelize!, sql, [uids], transaction) as never[], { raw: true, isNewRecord: false });
}

/** Per model: its row by primary key within one tenant, as findOne would select it. */
const byUidStatements = new WeakMap<ModelStatic<Model>, string>();

function byUidStatement(model: ModelStatic<Model>): string {
  let sql = byUidStatements.get(model);
  if (sql) return sql;
  const table = tableOf(model);
  sql = `SELECT ${selectColumns(model).map((c) => c.select).join(', ')} FROM ${table} WHERE ${columnOf(model, 'uid')} = ? AND ${columnOf(model, 'tenantUid')} = ?`;
  byUidStatements.set(model, sql);
  return sql;
}

/**
 * The row with this uid in this tenant, or null: the read behind every GET of an item, its SQL text built once per
 * model instead of findOne's option cloning and WHERE building on each call.
 */
export async function findByUidInTenant<M extends Model>(model: ModelStatic<M>, uid: string, tenantUid: string, transaction?: Transaction): Promise<M | null> {
  const sql = byUidStatement(model as ModelStatic<Model>);
  const [row] = await selectRows(model.sequelize!, sql, [uid, tenantUid], transaction);
  return row ? model.build(row as never, { raw: true, isNewRecord: false }) : null;
}

/** Per join and target model: the targets linked to some sources, with the source each link comes from. */
const linkedStatements = new WeakMap<ModelStatic<Model>, Map<ModelStatic<Model>, { sql: string; columns: ReturnType<typeof selectColumns> }>>();

function linkedStatement(join: ModelStatic<Model>, target: ModelStatic<Model>) {
  let byTarget = linkedStatements.get(join);
  if (!byTarget) linkedStatements.set(join, (byTarget = new Map()));
  let built = byTarget.get(target);
  if (built) return built;
  const q = (name: string) => join.sequelize!.getQueryInterface().quoteIdentifier(name);
  const j = (attribute: string) => `j.${columnOf(join, attribute)}`;
  const columns = selectColumns(target, 'x', 'x_');
  const sql = `SELECT ${j('sourceUid')} AS ${q('j_source')}, ${columns.map((c) => c.select).join(', ')}`
    + ` FROM ${tableOf(join)} j JOIN ${tableOf(target)} x ON x.${columnOf(target, 'uid')} = ${j('targetUid')}`
    + ` WHERE ${j('sourceUid')} IN (?) ORDER BY ${j('position')} ASC, ${j('targetUid')} ASC`;
  byTarget.set(target, (built = { sql, columns }));
  return built;
}

/**
 * The targets a to-many association links to each source, in link order (position, then target uid), read in one
 * statement (the join table joined to the targets); a link whose target is gone is skipped. A target linked from
 * several sources is one instance.
 */
export async function findLinked<T extends Model>(join: ModelStatic<Model>, target: ModelStatic<T>, sourceUids: string[], transaction?: Transaction): Promise<{ sourceUid: string; target: T }[]> {
  if (sourceUids.length === 0) return [];
  const { sql, columns } = linkedStatement(join, target as ModelStatic<Model>);
  const rows = await selectRows(join.sequelize!, sql, [sourceUids], transaction);
  const built = new Map<string, T>();
  return rows.map((row) => {
    const uid = row.x_uid as string;
    let found = built.get(uid);
    if (!found) built.set(uid, (found = buildAliased(target, columns, row)));
    return { sourceUid: row.j_source as string, target: found };
  });
}

/**
 * PostgreSQL's type of each attribute type the models use: a value read as text parses as its own column's would
 * (the parsers Sequelize installs on its connections).
 */
const pgTypeOids: Record<string, number> = { BIGINT: 20, BOOLEAN: 16, CHAR: 1042, DATE: 1184, INTEGER: 23, STRING: 1043, TEXT: 25 };
/** text, varchar, bpchar. */
const STRINGS = new Set([25, 1043, 1042]);

type Attributes = Record<string, { field?: string; type: { key: string } }>;

/** The PostgreSQL type oid of an attribute's values; a type not in pgTypeOids fails here, when a statement is built. */
export function pgTypeOid(model: ModelStatic<Model>, attribute: string): number {
  const { key } = (model.getAttributes() as Attributes)[attribute].type;
  const oid = pgTypeOids[key];
  if (oid === undefined) throw new Error(`${model.name}.${attribute}: no PostgreSQL type for ${key} in select-sql pgTypeOids`);
  return oid;
}

/**
 * PostgreSQL: a model's columns (all, or those `wanted`) of one table of a statement as one JSON array of their
 * text values (`array`), and a row of the model from that array (null when its uid is null: no row joined). One
 * JSON value instead of a column per attribute: pg describes and prepares a parser for every column of an answer
 * on every execution (~8 % of a stream read's time with ~100 columns); the array is parsed once, and each value by
 * its column's parser. Paired stream reads: 0.57–0.68 of bare's requests (Node CPU 500–650 µs per read), against
 * 0.45–0.64 (600–860 µs) with a column per attribute.
 */
export interface TextColumns<T extends Model> { array: string; decode(values: (string | null)[]): T | null }

export function textColumns<T extends Model>(model: ModelStatic<T>, table: string, wanted?: Set<string>): TextColumns<T> {
  const m = model as ModelStatic<Model>;
  const attributes = Object.keys(m.getAttributes()).filter((a) => !wanted || wanted.has(a));
  // json_build_array takes at most 100 arguments (PostgreSQL's FUNC_MAX_ARGS).
  if (attributes.length > 100) throw new Error(`${model.name}: more than 100 columns for one JSON array`);
  const parsers = attributes.map((a) => typeParser(m.sequelize!, pgTypeOid(m, a)));
  const uid = attributes.indexOf('uid');
  // Strings go as they are (a CHAR keeps its padding, which ::text would strip); any other type as its text form,
  // which is what its parser reads (JSON would write dates and numbers its own way).
  const array = `json_build_array(${attributes.map((a) => `${table}.${columnOf(m, a)}${STRINGS.has(pgTypeOid(m, a)) ? '' : '::text'}`).join(', ')})`;
  const decode = (values: (string | null)[]): T | null => {
    if (values[uid] === null) return null;
    const row: Record<string, unknown> = {};
    attributes.forEach((a, i) => { row[a] = values[i] === null ? null : parsers[i](values[i]!); });
    return readRow(model, row);
  };
  return { array, decode };
}

/**
 * PostgreSQL: the targets a to-many association links to one source (`source`, an SQL expression of the outer
 * statement), as one JSON value of the outer row: a list of targets in link order, each as textColumns gives it.
 * Read this way, an item and its to-many targets are one statement, one answer, one round trip.
 */
export function linkedJson<T extends Model>(join: ModelStatic<Model>, target: ModelStatic<T>, source: string): { select: string; decode(value: unknown): T[] } {
  const columns = textColumns(target, 'x');
  const j = (attribute: string) => `j.${columnOf(join, attribute)}`;
  const select = `(SELECT json_agg(${columns.array} ORDER BY ${j('position')} ASC, ${j('targetUid')} ASC)`
    + ` FROM ${tableOf(join)} j JOIN ${tableOf(target as ModelStatic<Model>)} x ON x.${columnOf(target as ModelStatic<Model>, 'uid')} = ${j('targetUid')}`
    + ` WHERE ${j('sourceUid')} = ${source})`;
  // No link: json_agg of no rows is NULL. Read as a column of its own, the json may come parsed or as text.
  const decode = (value: unknown): T[] => ((typeof value === 'string' ? JSON.parse(value) : value ?? []) as (string | null)[][]).map((v) => columns.decode(v)!);
  return { select, decode };
}

/**
 * PostgreSQL: the to-one target a row names (`reference`, an SQL expression of the outer statement), as one JSON
 * value of the outer row: the target as textColumns gives it, or NULL (no reference, or no row of that uid). A
 * subquery, not a join: joined, every join level carried the targets' columns up (PostgreSQL built a tuple
 * descriptor of ~100 columns per level on every execution of the item read), and a join of eight tables took ~4 ms
 * to plan. As subqueries, a stream read cost PostgreSQL 260–340 µs of CPU against 340–470 µs (4 rounds each,
 * 32 clients).
 */
export function oneJson<T extends Model>(target: ModelStatic<T>, alias: string, reference: string): { select: string; decode(value: unknown): T | null } {
  const columns = textColumns(target, alias);
  const select = `(SELECT ${columns.array} FROM ${tableOf(target as ModelStatic<Model>)} ${alias} WHERE ${alias}.${columnOf(target as ModelStatic<Model>, 'uid')} = ${reference})`;
  return { select, decode: (value) => (value == null ? null : columns.decode(value as (string | null)[])) };
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

/** Whether every attribute of a model has a PostgreSQL type textColumns can read. */
export const readsAsText = (model: ModelStatic<Model>): boolean =>
  Object.values(model.getAttributes() as Attributes).every((a) => pgTypeOids[a.type.key] !== undefined);

type PageStatement = { columns: TextColumns<Row>; parts: { wanted: RelatedWanted; select: string; decode(value: unknown): Row[] }[] };
/** Per model (its `wanted` list comes from the model's one resource, the same on every call). */
const pageStatements = new WeakMap<ModelStatic<Model>, PageStatement>();

function pageStatement(model: ModelStatic<Model>, wanted: RelatedWanted[]): PageStatement {
  let built = pageStatements.get(model);
  if (built) return built;
  const source = `r.${columnOf(model, 'uid')}`;
  const parts = wanted.map((w, i) => {
    if (w.join) return { wanted: w, ...linkedJson(w.join, w.target as ModelStatic<Row>, source) };
    const one = oneJson(w.target as ModelStatic<Row>, `a${i}`, `r.${columnOf(model, w.attribute)}`);
    return { wanted: w, select: one.select, decode: (value: unknown) => { const t = one.decode(value); return t ? [t] : []; } };
  });
  pageStatements.set(model, (built = { columns: textColumns(model as ModelStatic<Row>, 'r'), parts }));
  return built;
}

/**
 * PostgreSQL: one page of rows and the targets of their `wanted` associations in one statement: the page as findAll
 * would select it (the same WHERE, order, limit and offset), each row with its targets as subqueries, each row one
 * JSON value (textColumns). Read apart, a page cost three statements (the page, then a to-one and a to-many
 * association's targets), each a round trip, and Sequelize built each row attribute by attribute.
 */
export async function findPageWithTargets<M extends Model>(model: ModelStatic<M>, where: WhereOptions, order: Order, limit: number, offset: number, wanted: RelatedWanted[]): Promise<{ rows: M[]; targets: Map<string, Targets> }> {
  const m = model as ModelStatic<Model>;
  const sequelize = m.sequelize!;
  const { columns, parts } = pageStatement(m, wanted);
  // The table's own columns (`*`), so the outer statement reads them by column name as textColumns does.
  const page = selectSql(m, { attributes: [sequelize.literal('*') as never], where, order: order.map(([name, dir]) => [name, dir]), limit, offset });
  // The page's order again: a subquery's order is not promised to survive the statement around it.
  const by = order.map(([name, dir]) => `r.${columnOf(m, name)} ${dir}`).join(', ');
  const sql = `SELECT json_build_array(${[columns.array, ...parts.map((p) => p.select)].join(', ')})::text AS ${sequelize.getQueryInterface().quoteIdentifier('row')} FROM (${page}) AS r ORDER BY ${by}`;
  const answer = await sequelize.query<{ row: string }>(sql, { type: QueryTypes.SELECT });
  const rows: M[] = [];
  const targets = new Map<string, Targets>();
  for (const { row } of answer) {
    const values = JSON.parse(row) as unknown[];
    const read = columns.decode(values[0] as (string | null)[])! as unknown as M;
    rows.push(read);
    targets.set((read as unknown as Row).uid as string, new Map(parts.map((p, i) => [p.wanted.rel, p.decode(values[1 + i])])));
  }
  return { rows, targets };
}
