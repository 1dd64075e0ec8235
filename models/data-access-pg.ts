/**
 * The data access on PostgreSQL. Every read outside a transaction is a named prepared statement on Sequelize's own
 * pooled connections: each connection parses it once and, with `plan_cache_mode=force_generic_plan`
 * (models/db), plans it once, instead of on every request. An item or a page is one statement with the targets of
 * its associations as subqueries, each row one JSON array of text values decoded by its columns' own parsers: pg
 * describes and prepares a parser for every column of an answer on every execution, while one JSON value is
 * parsed once. Rows are built as findAll builds them (models/sequelize-adapter readRow).
 */
import { QueryTypes, type Model, type ModelStatic, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import type { Row } from './define';
import { numbered, queryPrepared } from './pg-prepared';
import { readRow, selectSql, typeParser } from './sequelize-adapter';
import { CALLER_USER, callerFrom, callerValues, columnOf, isTenantRow, linksOf, tableOf, type Order, type RelatedWanted, type Targets } from './select-sql';
import type { Caller, CallerModels, ItemWanted } from './caller';
import { sequelizeReads, statementReads, type DataAccess } from './data-access';
import { pgRowWrites } from './row-writes-pg';

export function pgDataAccess(models: CallerModels): DataAccess {
  const { sequelize } = models;
  const select = (sql: string, values: unknown[], transaction?: Transaction) => selectRows(sequelize, sql, values, transaction);
  return {
    ...sequelizeReads,
    ...statementReads(select, readRow),
    ...pgRowWrites(sequelize),
    // The values in the text: a statement without parameters is planned for them.
    selectUnprepared: (sql, values) => sequelize.query<Record<string, unknown>>(sql, { replacements: values, type: QueryTypes.SELECT }),
    readCaller: (realm, userUid, item) => readCaller(models, realm, userUid, item),
    async readPage(model, where, order, limit, offset, wanted) {
      if (wanted && readsAsText(model as ModelStatic<Model>)) return readPageWithTargets(model, where, order, limit, offset, wanted);
      return { rows: await model.findAll({ where, order, limit, offset }) };
    },
  };
}

// ---- Prepared statements ----

const numberedTexts = new Map<string, string>();

/** The rows of a hand-written SELECT whose `?` take `values`, prepared (in a transaction: on its connection). */
async function selectRows(sequelize: Sequelize, text: string, values: unknown[], transaction?: Transaction): Promise<Record<string, unknown>[]> {
  let prepared = numberedTexts.get(text);
  if (!prepared) numberedTexts.set(text, (prepared = numbered(text)));
  return (await queryPrepared(sequelize, prepared, values, transaction)).rows;
}

// ---- Rows as one JSON array of text values ----

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
  if (oid === undefined) throw new Error(`${model.name}.${attribute}: no PostgreSQL type for ${key} in data-access-pg pgTypeOids`);
  return oid;
}

/** Whether every attribute of a model has a PostgreSQL type textColumns can read. */
const readsAsText = (model: ModelStatic<Model>): boolean =>
  Object.values(model.getAttributes() as Attributes).every((a) => pgTypeOids[a.type.key] !== undefined);

/**
 * A model's columns (all, or those `wanted`) of one table of a statement as one JSON array of their text values
 * (`array`), and a row of the model from that array (null when its uid is null: no row joined). The array is
 * parsed once, and each value by its column's parser.
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
 * The targets a to-many association links to one source (`source`, an SQL expression of the outer statement), as
 * one JSON value of the outer row: a list of targets in link order, each as textColumns gives it. Read this way,
 * an item and its to-many targets are one statement, one answer, one round trip.
 */
export function linkedJson<T extends Model>(join: ModelStatic<Model>, target: ModelStatic<T>, source: string): { select: string; decode(value: unknown): T[] } {
  const columns = textColumns(target, 'x');
  const links = linksOf(join, target as ModelStatic<Model>);
  const select = `(SELECT json_agg(${columns.array} ORDER BY ${links.order}) FROM ${links.from} WHERE ${links.source} = ${source})`;
  // No link: json_agg of no rows is NULL. Read as a column of its own, the json may come parsed or as text.
  const decode = (value: unknown): T[] => ((typeof value === 'string' ? JSON.parse(value) : value ?? []) as (string | null)[][]).map((v) => columns.decode(v)!);
  return { select, decode };
}

/**
 * The to-one target a row names (`reference`, an SQL expression of the outer statement), as one JSON value of the
 * outer row: the target as textColumns gives it, or NULL (no reference, or no row of that uid). A subquery, not a
 * join: joined, every join level carries the targets' columns up (PostgreSQL builds a tuple descriptor of every
 * column at every level on every execution), and a join of many tables is slow to plan.
 */
function oneJson<T extends Model>(target: ModelStatic<T>, alias: string, reference: string): { select: string; decode(value: unknown): T | null } {
  const columns = textColumns(target, alias);
  const select = `(SELECT ${columns.array} FROM ${tableOf(target as ModelStatic<Model>)} ${alias} WHERE ${alias}.${columnOf(target as ModelStatic<Model>, 'uid')} = ${reference})`;
  return { select, decode: (value) => (value == null ? null : columns.decode(value as (string | null)[])) };
}

/** One association's targets as a subquery of the outer row `r`, and its JSON value decoded (to-one: none or one). */
type Subquery = { wanted: RelatedWanted; select: string; decode(value: unknown): Row[] };

/**
 * The targets of `wanted` associations of the outer row `r` of `model`, a subquery each, in the order given; a
 * to-one target's table is aliased by its position (`a0`, `a1`, …).
 */
function targetSubqueries(model: ModelStatic<Model>, wanted: RelatedWanted[]): Subquery[] {
  return wanted.map((w, i) => {
    if (w.join) return { wanted: w, ...linkedJson(w.join, w.target as ModelStatic<Row>, `r.${columnOf(model, 'uid')}`) };
    const one = oneJson(w.target as ModelStatic<Row>, `a${i}`, `r.${columnOf(model, w.attribute)}`);
    return { wanted: w, select: one.select, decode: (value: unknown) => { const t = one.decode(value); return t ? [t] : []; } };
  });
}

/** The targets of a row from its JSON values, the subqueries' from `values[start]` on. */
function decodeTargets(subqueries: Subquery[], values: unknown[], start: number): Targets {
  return new Map(subqueries.map((s, i) => [s.wanted.rel, s.decode(values[start + i])]));
}

// ---- The caller's statement ----

/**
 * Built once per item model and its list of associations (one list per resource: handlers/_lib/crud): the
 * statement, numbered for preparing, whose one JSON column holds the tenant, the user, the row and the row's
 * targets, a subquery each.
 */
type CallerStatement = { prepared: string; t: TextColumns<Row>; u: TextColumns<Row>; r?: TextColumns<Row>; targets: Subquery[] };
const plainCaller = new WeakMap<CallerModels, CallerStatement>();
const itemCaller = new WeakMap<ModelStatic<Model>, WeakMap<RelatedWanted[], CallerStatement>>();
/** The key of an item read without associations. */
const NONE: RelatedWanted[] = [];

function callerStatement(models: CallerModels, item: ItemWanted | undefined): CallerStatement {
  if (!item) {
    let built = plainCaller.get(models);
    if (!built) plainCaller.set(models, (built = buildCaller(models, undefined)));
    return built;
  }
  let byWanted = itemCaller.get(item.model);
  if (!byWanted) itemCaller.set(item.model, (byWanted = new WeakMap()));
  const key = item.related ?? NONE;
  let built = byWanted.get(key);
  if (!built) byWanted.set(key, (built = buildCaller(models, item)));
  return built;
}

function buildCaller(models: CallerModels, item: ItemWanted | undefined): CallerStatement {
  const related = item?.related ?? [];
  // To-one targets first, then to-many.
  const targets = item ? targetSubqueries(item.model, [...related.filter((r) => !r.join), ...related.filter((r) => r.join)]) : [];
  const t = textColumns(models.Tenant as ModelStatic<Row>, 't');
  const u = textColumns(models.User as ModelStatic<Row>, 'u', CALLER_USER);
  const r = item ? textColumns(item.model as ModelStatic<Row>, 'r') : undefined;
  const parts = [t.array, u.array, ...(r ? [r.array] : []), ...targets.map((s) => s.select)];
  const q = models.sequelize.getQueryInterface().quoteIdentifier('caller');
  const prepared = numbered(`SELECT json_build_array(${parts.join(', ')})::text AS ${q}${callerFrom(models, item?.model)}`);
  return { prepared, t, u, r, targets };
}

async function readCaller(models: CallerModels, realm: string, userUid: string, item?: ItemWanted): Promise<Caller | null> {
  const wanted = item && isTenantRow(item.model) ? item : undefined;
  const statement = callerStatement(models, wanted);
  const [answer] = (await queryPrepared(models.sequelize, statement.prepared, callerValues(realm, userUid, wanted))).rows;
  if (!answer) return null;
  // Tenant, user, row, targets: in the order buildCaller wrote them.
  const values = JSON.parse(answer.caller as string) as unknown[];
  const tenant = statement.t.decode(values[0] as (string | null)[])!;
  const user = statement.u.decode(values[1] as (string | null)[]);
  if (!statement.r) return { tenant, user };
  const read = statement.r.decode(values[2] as (string | null)[]);
  if (!read) return { tenant, user, item: null };
  return { tenant, user, item: read, related: decodeTargets(statement.targets, values, 3) };
}

// ---- A page with its targets ----

/** Built once per model and its list of associations (one list per resource: handlers/_lib/crud). */
type PageStatement = { columns: TextColumns<Row>; targets: Subquery[] };
const pageStatements = new WeakMap<ModelStatic<Model>, WeakMap<RelatedWanted[], PageStatement>>();

function pageStatement(model: ModelStatic<Model>, wanted: RelatedWanted[]): PageStatement {
  let byWanted = pageStatements.get(model);
  if (!byWanted) pageStatements.set(model, (byWanted = new WeakMap()));
  let built = byWanted.get(wanted);
  if (!built) byWanted.set(wanted, (built = { columns: textColumns(model as ModelStatic<Row>, 'r'), targets: targetSubqueries(model, wanted) }));
  return built;
}

/**
 * One page of rows and the targets of their `wanted` associations in one statement: the page as findAll would
 * select it (the same WHERE, order, limit and offset), each row with its targets as subqueries, each row one JSON
 * value (textColumns).
 */
async function readPageWithTargets<M extends Model>(model: ModelStatic<M>, where: WhereOptions, order: Order, limit: number, offset: number, wanted: RelatedWanted[]): Promise<{ rows: M[]; targets: Map<string, Targets> }> {
  const m = model as ModelStatic<Model>;
  const sequelize = m.sequelize!;
  const { columns, targets: subqueries } = pageStatement(m, wanted);
  // The table's own columns (`*`), so the outer statement reads them by column name as textColumns does.
  const page = selectSql(m, { attributes: [sequelize.literal('*') as never], where, order: order.map(([name, dir]) => [name, dir]), limit, offset });
  // The page's order again: a subquery's order is not promised to survive the statement around it.
  const by = order.map(([name, dir]) => `r.${columnOf(m, name)} ${dir}`).join(', ');
  const sql = `SELECT json_build_array(${[columns.array, ...subqueries.map((s) => s.select)].join(', ')})::text AS ${sequelize.getQueryInterface().quoteIdentifier('row')} FROM (${page}) AS r ORDER BY ${by}`;
  const answer = await sequelize.query<{ row: string }>(sql, { type: QueryTypes.SELECT });
  const rows: M[] = [];
  const targets = new Map<string, Targets>();
  for (const { row } of answer) {
    const values = JSON.parse(row) as unknown[];
    const read = columns.decode(values[0] as (string | null)[])! as unknown as M;
    rows.push(read);
    targets.set((read as unknown as Row).uid as string, decodeTargets(subqueries, values, 1));
  }
  return { rows, targets };
}
