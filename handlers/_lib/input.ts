/** Request body → model values for create (POST), replace (PUT) and patch (PATCH) — docs/contract.md §3.4. */
import type { Model, ModelStatic, Transaction, UniqueConstraintError } from 'sequelize';
import { collidingColumns } from '../../models/db-errors';
import { columnOf, tableOf } from '../../models/select-sql';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { BadRequestError, ConflictError, UnprocessableError } from '../../core/errors';
import { isNone } from './references';
import { attributeOf, type AssociationDef, type Resource } from './resource';
import { resolveBodyRef } from './store';

export type Mode = 'create' | 'replace' | 'patch';

export interface Input {
  values: Record<string, unknown>;
  /** To-many association targets to store, by rel (only those given or reset). */
  links: Map<AssociationDef, string[]>;
  /** The rows the body's references resolved to, by uid: what the write links to, read once. */
  targets: Map<string, Row>;
}

const has = (body: object, key: string) => Object.prototype.hasOwnProperty.call(body, key);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * PATCH of a map: key by key, `null` removes a key, `{}` clears (docs/contract.md §3.4). Keys are data, so the merge runs
 * on a Map: assigning `out['__proto__'] = v` would set a prototype instead of storing the key.
 */
export function mergeMap(current: unknown, patch: unknown): Record<string, unknown> | null {
  if (patch === null) return null;
  const changes = Object.entries(patch as Record<string, unknown>);
  if (changes.length === 0) return {};
  const merged = new Map(Object.entries((current as Record<string, unknown>) ?? {}));
  for (const [k, v] of changes) {
    if (v === null) merged.delete(k);
    else merged.set(k, v);
  }
  return Object.fromEntries(merged);
}

export async function readInput(resource: Resource, ctx: RequestContext, mode: Mode, row: Row | undefined, transaction: Transaction): Promise<Input> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const immutableChanges: string[] = [];
  for (const f of resource.fields) {
    if (f.readOnly) continue;
    const attr = attributeOf(f);
    let value: unknown;
    if (has(body, f.name)) {
      value = f.input ? f.input(body[f.name]) : body[f.name];
      // PATCH merges into the stored map; create and PUT start from nothing, so a `null` value is a key left out.
      if (f.kind === 'map') value = mergeMap(mode === 'patch' ? row?.get(attr) : null, value);
      if (f.prepare && value !== null && value !== undefined) value = await f.prepare(value);
    } else if (mode === 'patch') {
      continue;
    } else {
      if (mode === 'replace' && (f.immutable || f.keepOnReplace)) continue;
      value = f.default ? f.default(ctx) : null;
      if (mode === 'create' && value === null && !f.default) continue;
    }
    if (row && f.immutable && !same(row.get(attr), value)) immutableChanges.push(`${f.name}: cannot be changed`);
    values[attr] = value;
  }
  const links = new Map<AssociationDef, string[]>();
  const targets = new Map<string, Row>();
  for (const assoc of resource.associations) {
    if (assoc.reverse) continue;
    if (assoc.many) await readMany(assoc, body, mode, ctx, links, targets, transaction);
    else await readOne(assoc, body, mode, row, ctx, values, immutableChanges, targets, transaction);
  }
  if (immutableChanges.length > 0) throw new UnprocessableError(immutableChanges);
  return { values, links, targets };
}

async function readOne(assoc: AssociationDef, body: Record<string, unknown>, mode: Mode, row: Row | undefined, ctx: RequestContext,
  values: Record<string, unknown>, immutableChanges: string[], targets: Map<string, Row>, transaction: Transaction) {
  const attr = assoc.attribute!;
  if (!has(body, assoc.rel)) {
    if (mode === 'create' && assoc.required) throw required(assoc.rel);
    if (mode === 'replace' && !assoc.required) values[attr] = null;
    return;
  }
  const ref = body[assoc.rel];
  if (isNone(ref)) {
    if (assoc.required) throw required(assoc.rel);
    values[attr] = null;
  } else {
    const target = await resolveBodyRef(assoc.target(), ctx, assoc.rel, ref, transaction);
    targets.set(target.uid, target);
    values[attr] = target.uid;
  }
  if (row && assoc.immutable && row.get(attr) !== values[attr]) immutableChanges.push(`${assoc.rel}: cannot be changed`);
}

async function readMany(assoc: AssociationDef, body: Record<string, unknown>, mode: Mode, ctx: RequestContext,
  links: Map<AssociationDef, string[]>, targets: Map<string, Row>, transaction: Transaction) {
  if (!has(body, assoc.rel)) {
    if (mode !== 'patch') links.set(assoc, []);
    return;
  }
  const refs = body[assoc.rel];
  const list = refs === null ? [] : (refs as unknown[]);
  const uids: string[] = [];
  for (const [i, ref] of list.entries()) {
    if (isNone(ref)) continue;
    const target = await resolveBodyRef(assoc.target(), ctx, `${assoc.rel}[${i}]`, ref, transaction);
    targets.set(target.uid, target);
    uids.push(target.uid);
  }
  links.set(assoc, uids);
}

const required = (field: string) => new BadRequestError([`${field}: is required`], [{ field, message: 'is required' }]);

type Attributes = Record<string, { field?: string; _keyOf?: string }>;

/** The lowercase twin attribute of `attr` (`nameKey` of `name`), if the model has one. */
const twinOf = (attributes: Attributes, attr: string) => Object.keys(attributes).find((a) => attributes[a]._keyOf === attr);

/** 409 naming the first unique field whose value (ignoring case) another row of the scope already has. */
export async function checkUnique(resource: Resource, ctx: RequestContext, values: Record<string, unknown>, row: Row | undefined, transaction: Transaction): Promise<void> {
  const model = resource.model(ctx.models);
  for (const f of resource.fields.filter((x) => x.unique)) {
    const attr = attributeOf(f);
    const value = values[attr];
    if (typeof value !== 'string' || (row && String(row.get(attr)).toLowerCase() === value.toLowerCase())) continue;
    const scoped = !resource.scope;
    const sql = clashSql(model, attr, scoped, !!row);
    const clash = await ctx.models.data.select(sql, [...(scoped ? [ctx.principal.tenant.uid] : []), value.toLowerCase(), ...(row ? [row.uid] : [])], transaction);
    if (clash.length > 0) throw new ConflictError(`${f.name}: '${value}' already exists`);
  }
}

/** Built once per model, attribute and shape: the statement that finds another row with a unique value. */
const clashTexts = new WeakMap<object, Map<string, string>>();

/**
 * A row of the scope (the tenant when `scoped`) other than the one updated (`other`: `uid <> ?`) whose `attr`
 * has the value, ignoring case: its lowercase twin (`name_key`) carries the unique index; LOWER(name) would scan
 * every row of the tenant.
 */
function clashSql(model: ModelStatic<Model>, attr: string, scoped: boolean, other: boolean): string {
  let byKey = clashTexts.get(model);
  if (!byKey) clashTexts.set(model, (byKey = new Map()));
  const key = `${attr}:${scoped}:${other}`;
  let sql = byKey.get(key);
  if (!sql) {
    const twin = twinOf(model.getAttributes() as Attributes, attr);
    const same = twin ? `${columnOf(model, twin)} = ?` : `LOWER(${columnOf(model, attr)}) = ?`;
    const where = [...(scoped ? [`${columnOf(model, 'tenantUid')} = ?`] : []), same, ...(other ? [`${columnOf(model, 'uid')} <> ?`] : [])];
    byKey.set(key, (sql = `SELECT 1 AS one FROM ${tableOf(model)} WHERE ${where.join(' AND ')} LIMIT 1`));
  }
  return sql;
}

/**
 * The same 409 as checkUnique's when the unique index, not the check, met the clash: a concurrent write of the
 * same value committed between the check and the insert. Undefined when the index is none of the resource's fields.
 */
export function uniqueIndexClash(resource: Resource, ctx: RequestContext, values: Record<string, unknown>, err: UniqueConstraintError): ConflictError | undefined {
  const columns = new Set(collidingColumns(err));
  const attributes = resource.model(ctx.models).getAttributes() as Attributes;
  const columnOf = (attr: string) => attributes[attr]?.field ?? attr;
  for (const f of resource.fields.filter((x) => x.unique)) {
    const attr = attributeOf(f);
    const twin = twinOf(attributes, attr);
    if (columns.has(columnOf(attr)) || (twin && columns.has(columnOf(twin)))) return new ConflictError(`${f.name}: '${String(values[attr])}' already exists`);
  }
  return undefined;
}

/** `{field: {old, new}}` for every changed wire value. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!same(before[key], after[key])) out[key] = { old: before[key] ?? null, new: after[key] ?? null };
  }
  return out;
}
