/**
 * Generic reads: tenancy and visibility first, then the caller's filter, paging and related rows. Every read goes
 * through the data access (`ctx.models.data`, models/data-access), whose implementation the dialect chose at start.
 */
import { Op, type Model, type ModelStatic, type Transaction, type WhereOptions } from 'sequelize';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { primeParentRows } from '../../auth/parent-rows';
import { BadRequestError, NotFoundError } from '../../core/errors';
import { isNone, uidOf } from './references';
import { COUNT_WINDOW, orderOf, type PageRequest } from './paging';
import type { Order, RelatedWanted, Targets } from '../../models/data-access';
import { boundedTotal } from '../../models/select-sql';
import type { AssociationDef, Resource } from './resource';

export async function scopeOf(resource: Resource, ctx: RequestContext): Promise<WhereOptions> {
  const tenancy = resource.scope ? resource.scope(ctx) : { tenantUid: ctx.principal.tenant.uid };
  const visible = resource.policy.visible ? await resource.policy.visible(ctx) : undefined;
  return visible ? { [Op.and]: [tenancy, visible] } : tenancy;
}

/** The scope is the caller's tenant and nothing more (most reads: no visibility rule, or the caller sees all). */
function isTenantOnly(scope: WhereOptions, ctx: RequestContext): boolean {
  const keys = Reflect.ownKeys(scope);
  return keys.length === 1 && keys[0] === 'tenantUid' && (scope as { tenantUid: unknown }).tenantUid === ctx.principal.tenant.uid;
}

/**
 * The row with this uid if the caller may see it. A plain tenant scope takes the row read with the caller when the
 * request named it (auth/authenticate), else the statement built once per model.
 */
async function findByUid(resource: Resource, ctx: RequestContext, uid: string, transaction?: Transaction): Promise<Row | null> {
  const model = resource.model(ctx.models);
  const early = !transaction && ctx.prefetched?.model === model && ctx.prefetched.uid === uid ? ctx.prefetched : undefined;
  const { sees } = resource.policy;
  // A row of the tenant read with the caller, whose visibility its policy tells from the row itself.
  if (early && sees && !resource.scope) return early.row && (await sees(ctx, early.row)) ? prefetchedRow(ctx, early) : null;
  const scope = await scopeOf(resource, ctx);
  if (isTenantOnly(scope, ctx)) {
    if (early) return prefetchedRow(ctx, early);
    return ctx.models.data.readByUid(model, uid, ctx.principal.tenant.uid, transaction);
  }
  return ctx.models.data.readOne(model, { [Op.and]: [{ uid }, scope] }, undefined, transaction);
}

/** The row read with the caller; its targets, read with it, are the parent rows the permission checks read next. */
function prefetchedRow(ctx: RequestContext, early: NonNullable<RequestContext['prefetched']>): Row | null {
  if (early.targets) primeParentRows(ctx, [...early.targets.values()].flat());
  return early.row;
}

/** The row, or 404 when it does not exist or the caller may not see it (another tenant included). */
export async function findVisible(resource: Resource, ctx: RequestContext, id: string, transaction?: Transaction): Promise<Row> {
  const uid = uidOf(id);
  const row = uid === null ? null : await findByUid(resource, ctx, uid, transaction);
  if (!row) throw new NotFoundError(`${resource.itemRel} ${id} not found`);
  return row;
}

/**
 * One page and its bounded total. A page that is not full tells the total by itself (no count query); otherwise
 * the matching rows are counted only up to the window past the page, off the same index the page is read from.
 * With `wanted`, the targets of those associations where the data access reads them with the rows (`targets`,
 * per row uid: PostgreSQL).
 */
export async function findPage(resource: Resource, ctx: RequestContext, where: WhereOptions | undefined, page: PageRequest, wanted?: RelatedWanted[]): Promise<{ rows: Row[]; total: number; capped: boolean; targets?: Map<string, Targets> }> {
  const scope = await scopeOf(resource, ctx);
  const matching = where ? { [Op.and]: [scope, where] } : scope;
  const model = resource.model(ctx.models);
  const offset = page.page * page.size;
  const { rows, targets } = await ctx.models.data.readPage(model, matching, orderOf(page), page.size, offset, wanted);
  return { rows, targets, ...(await boundedTotal(model, [matching], page, orderOf(page), COUNT_WINDOW, rows.length)) };
}

/**
 * The rows matching any of the disjoint `slices`, counted up to COUNT_WINDOW past the end of the page, in the
 * page's `order` (off the index the page is read from); `capped` when more match (the total is then a lower
 * bound). Collections and the audit history count this one way.
 */
export function boundedCount(model: ModelStatic<Model>, slices: WhereOptions[], page: PageRequest, order: Order): Promise<{ total: number; capped: boolean }> {
  return boundedTotal(model, slices, page, order, COUNT_WINDOW);
}

export async function findOneWhere(resource: Resource, ctx: RequestContext, where: WhereOptions): Promise<Row | null> {
  return ctx.models.data.readOne(resource.model(ctx.models), { [Op.and]: [await scopeOf(resource, ctx), where] }, [['createdAt', 'ASC'], ['uid', 'ASC']]);
}

/**
 * Resolves a body reference to a visible row of the resource the field implies; unknown → 400
 * `<field>: unknown <type> <value>` (query references answer 404 instead, see resolveQueryRef).
 */
export async function resolveBodyRef(target: Resource, ctx: RequestContext, field: string, value: unknown, transaction?: Transaction): Promise<Row> {
  const uid = uidOf(value);
  const row = uid === null ? null : await findByUid(target, ctx, uid, transaction);
  if (!row) {
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    throw new BadRequestError([`${field}: unknown ${target.itemRel} ${shown}`], [{ field, message: `unknown ${target.itemRel}`, rejectedValue: value }]);
  }
  return row;
}

/** A required body reference: `""`/`null`/absent → 400 `<field>: is required` (docs/contract.md §4.1), else as resolveBodyRef. */
export async function resolveRequiredBodyRef(target: Resource, ctx: RequestContext, field: string, value: unknown, transaction?: Transaction): Promise<Row> {
  if (isNone(value)) throw new BadRequestError([`${field}: is required`], [{ field, message: 'is required', rejectedValue: value ?? null }]);
  return resolveBodyRef(target, ctx, field, value, transaction);
}

export async function resolveQueryRef(target: Resource, ctx: RequestContext, value: unknown): Promise<Row> {
  if (isNone(value)) throw new NotFoundError(`${target.itemRel} not found`);
  return findVisible(target, ctx, String(uidOf(value) ?? value));
}

export type Related = Map<string, Map<string, Row | Row[] | null>>;

/**
 * Targets of every association of every row (`only`: of those named), in one query per association (to-many: join
 * and targets in one); none for the associations whose targets were read with the rows (`read`, per row uid: findPage on PostgreSQL) or
 * with the caller (one row: earlyTargets).
 */
export async function loadRelated(resource: Resource, rows: Row[], ctx: RequestContext, transaction?: Transaction, read?: Map<string, Targets>,
  only?: ReadonlySet<string>): Promise<Related> {
  const related: Related = new Map(rows.map((r) => [r.uid as string, new Map()]));
  const early = read ?? (rows.length === 1 && !transaction ? earlyTargets(resource, rows[0], ctx) : undefined);
  for (const assoc of resource.associations) {
    if (only && !only.has(assoc.rel)) continue;
    if (early && rows.every((row) => takeEarly(assoc, row, early.get(row.uid)?.get(assoc.rel), related))) continue;
    await loadAssociation(assoc, rows, ctx, related, transaction);
  }
  return related;
}

/** The targets of one association of every row, into `related` (which holds an entry per row). */
export async function loadAssociation(assoc: AssociationDef, rows: Row[], ctx: RequestContext, related: Related, transaction?: Transaction): Promise<void> {
  if (assoc.many) await loadMany(assoc, rows, ctx, related, transaction);
  else await loadOne(assoc, rows, ctx, related, transaction);
}

/**
 * The targets read with the caller for the item this GET names (auth/authenticate: the data access's readCaller).
 * Also when the row itself was read again (a caller whose scope has a visibility rule): targets are not subject to
 * the caller's visibility, so they are the same for every reader.
 */
function earlyTargets(resource: Resource, row: Row, ctx: RequestContext): Map<string, Targets> | undefined {
  const early = ctx.prefetched;
  return early?.targets && early.uid === row.uid && early.model === resource.model(ctx.models) ? new Map([[row.uid as string, early.targets]]) : undefined;
}

/**
 * Targets read with the caller (readCaller), when they answer for this row: a to-one target is taken only when it
 * is the one the row names (a caller whose scope has a visibility rule reads the row again, and may read it changed
 * since; then the target is read again too).
 */
function takeEarly(assoc: AssociationDef, row: Row, targets: Row[] | undefined, related: Related): boolean {
  if (!targets) return false;
  if (assoc.many) {
    related.get(row.uid)!.set(assoc.rel, targets);
    return true;
  }
  const named = row[assoc.attribute!] as string | null;
  const target = targets.find((t) => t.uid === named) ?? null;
  if (named !== null && target === null) return false;
  related.get(row.uid)!.set(assoc.rel, target);
  return true;
}

async function loadOne(assoc: AssociationDef, rows: Row[], ctx: RequestContext, related: Related, transaction?: Transaction) {
  const uids = [...new Set(rows.map((r) => r[assoc.attribute!] as string | null).filter((u): u is string => !!u))];
  const targets = await ctx.models.data.readByUids(assoc.target().model(ctx.models), uids, transaction);
  const byUid = new Map(targets.map((t) => [t.uid as string, t]));
  for (const r of rows) related.get(r.uid)!.set(assoc.rel, byUid.get(r[assoc.attribute!]) ?? null);
}

async function loadMany(assoc: AssociationDef, rows: Row[], ctx: RequestContext, related: Related, transaction?: Transaction) {
  if (assoc.reverse) return loadReverse(assoc, assoc.reverse, rows, ctx, related, transaction);
  const links = await ctx.models.data.readLinked(ctx.models[assoc.join!] as unknown as ModelStatic<Model>, assoc.target().model(ctx.models), rows.map((r) => r.uid as string), transaction);
  for (const r of rows) related.get(r.uid)!.set(assoc.rel, []);
  for (const l of links) (related.get(l.sourceUid)!.get(assoc.rel) as Row[]).push(l.target);
}

async function loadReverse(assoc: AssociationDef, attribute: string, rows: Row[], ctx: RequestContext, related: Related, transaction?: Transaction) {
  for (const r of rows) related.get(r.uid)!.set(assoc.rel, []);
  if (rows.length === 0) return;
  const targets = await ctx.models.data.readAll(assoc.target().model(ctx.models), { [attribute]: rows.map((r) => r.uid) }, [['createdAt', 'ASC'], ['uid', 'ASC']], transaction);
  for (const t of targets) (related.get(t[attribute])?.get(assoc.rel) as Row[] | undefined)?.push(t);
}

/** Replaces the links of a to-many association, keeping the given order; a row just created (`fresh`) has none to remove. */
export async function setLinks(ctx: RequestContext, assoc: AssociationDef, sourceUid: string, targetUids: string[], transaction: Transaction, fresh = false): Promise<void> {
  const join = ctx.models[assoc.join!] as unknown as ModelStatic<Model>;
  if (!fresh) await join.destroy({ where: { sourceUid }, transaction });
  const unique = [...new Set(targetUids)];
  await ctx.models.data.insertStored(join, unique.map((targetUid, position) => ({ sourceUid, targetUid, position })), transaction);
}

/**
 * Case-insensitive substring filter on a lowercase `*_key` attribute (e.g. `nameKey`); `%`, `_` and `\` in the
 * value match themselves.
 */
export function keyContains(attribute: string, value: string): WhereOptions {
  const escaped = value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return { [attribute]: { [Op.like]: `%${escaped}%` } };
}
