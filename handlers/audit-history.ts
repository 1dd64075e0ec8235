import { Op, type WhereOptions } from 'sequelize';
import { isTenantAdmin } from '../auth/permissions';
import { AUDIT_ACTIONS, OPEN_RESOURCE_TYPES, auditActionOf, auditResourceTypeOf } from '../models/audit-actions';
import { AUDIT_VISIBLE_AS_VALUES, type AuditEventRow } from '../models/audit-event';
import { parseTimeBound } from '../core/rules/audit-time';
import { findSlices, selectSql, type Order } from '../models/select-sql';
import type { RequestContext } from '../core/context';
import { BadRequestError, NotFoundError, type SubError } from '../core/errors';
import { link, timestamp } from '../core/hal';
import { pageInfo, pagingLinks, parsePage } from './_lib/paging';
import { boundedCount } from './_lib/store';
import { uidOf } from './_lib/references';
import { hal, plain, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { applicationResource } from './applications';
import { environmentResource } from './environments';
import { streamResource } from './streams';

/** Kinds with Private rows: their entries are visible with the row (docs/contract.md §8, §7). */
const OWNED: [string, Resource][] = [['Environment', environmentResource], ['Topic', streamResource], ['Application', applicationResource]];

/**
 * The entries the caller may see, as disjoint slices (null: the whole tenant, for its admins): its own, then the
 * others' on each open kind, then the others' on each kind with Private rows, limited to the rows it may view.
 * `type`, the resourceType filter, leaves out the slices it excludes. Disjoint, so a listing can ask for each slice
 * on its own index (findSlices) instead of one OR that scans the tenant's history.
 */
async function visibleSlices(ctx: RequestContext, type?: string): Promise<WhereOptions[] | null> {
  if (isTenantAdmin(ctx)) return null;
  const me = ctx.principal.email.toLowerCase();
  const others = { actorKey: { [Op.ne]: me } };
  const slices: WhereOptions[] = [{ actorKey: me }];
  for (const open of OPEN_RESOURCE_TYPES) if (!type || type === open) slices.push({ resourceType: open, ...others });
  for (const [kind, resource] of OWNED) {
    if (type && type !== kind) continue;
    const scope = await resource.policy.visible?.(ctx);
    if (!scope) {
      slices.push({ resourceType: kind, ...others });
      continue;
    }
    // The visibility rule stays each kind's own policy. A short list of visible rows goes in as values, which the
    // database plans on the (tenant, resource id) index; a long one stays a subquery, whose rows are common enough
    // in the history that a scan in time order meets a page of them soon.
    const where = { [Op.and]: [{ tenantUid: ctx.principal.tenant.uid }, scope] };
    const model = resource.model(ctx.models);
    const ids = (await model.findAll({ attributes: ['uid'], where, limit: AUDIT_VISIBLE_AS_VALUES + 1, raw: true })).map((row) => (row as unknown as { uid: string }).uid);
    if (ids.length === 0) continue;
    const visible = ids.length <= AUDIT_VISIBLE_AS_VALUES ? ids : ctx.models.sequelize.literal(`(${selectSql(model, { attributes: ['uid'], where })})`);
    slices.push({ resourceType: kind, resourceId: { [Op.in]: visible }, ...others });
  }
  return slices;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const problem = (field: string, message: string, rejectedValue: unknown): SubError => ({ field, message, rejectedValue });

/** The filters of the query and the resource type it asks for; one 400 naming every bad parameter. */
function filters(query: Record<string, unknown>, now: number): { where: WhereOptions[]; type?: string } {
  const where: WhereOptions[] = [];
  const problems: SubError[] = [];
  const action = text(query.action);
  if (action !== undefined) {
    const canonical = auditActionOf(action);
    if (canonical) where.push({ action: canonical });
    else problems.push(problem('action', 'must be one of GET /audit-history/actions', action));
  }
  const typeText = text(query.resourceType);
  const type = typeText === undefined ? undefined : auditResourceTypeOf(typeText) ?? undefined;
  if (type) where.push({ resourceType: type });
  else if (typeText !== undefined) problems.push(problem('resourceType', 'must be one of Tenant, User, Group, Cluster, Instance, Environment, Topic (Stream), Schema, Application', typeText));
  const actor = text(query.actor);
  if (actor !== undefined) where.push({ actorKey: actor.trim().toLowerCase() });
  const name = text(query.resourceName);
  if (name !== undefined) where.push({ resourceNameKey: name.toLowerCase() });
  const id = text(query.resourceId);
  if (id !== undefined) {
    const uid = /^[0-9a-fA-F-]{32,36}$/.test(id.trim()) ? uidOf(id) : null;
    if (uid) where.push({ resourceId: uid });
    else problems.push(problem('resourceId', 'must be a uid (32 hex digits) or a UUID', id));
  }
  const bounds: Record<string, number> = {};
  for (const field of ['fromTimestamp', 'toTimestamp']) {
    const value = text(query[field]);
    if (value === undefined) continue;
    const ms = parseTimeBound(value, now);
    if (ms === null) problems.push(problem(field, 'must be epoch milliseconds, now, now-<n><s|m|h|d|w>, an ISO-8601 duration (P7D, PT1H) or an ISO-8601 instant with a zone', value));
    else bounds[field] = ms;
  }
  if (bounds.fromTimestamp !== undefined && bounds.toTimestamp !== undefined && bounds.fromTimestamp > bounds.toTimestamp) {
    problems.push(problem('fromTimestamp', 'must not be after toTimestamp', query.fromTimestamp));
  }
  if (bounds.fromTimestamp !== undefined) where.push({ timestamp: { [Op.gte]: new Date(bounds.fromTimestamp) } });
  if (bounds.toTimestamp !== undefined) where.push({ timestamp: { [Op.lt]: new Date(bounds.toTimestamp) } });
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
  return { where, type };
}

function render(ctx: RequestContext, row: AuditEventRow) {
  return {
    uid: row.uid, timestamp: timestamp(row.timestamp), action: row.action, actor: row.actor, actorName: row.actorName ?? null,
    tenant: row.tenant ?? null, resourceType: row.resourceType, resourceName: row.resourceName ?? null, resourceId: row.resourceId ?? null,
    details: (row.details as Record<string, unknown> | null) ?? null,
    _links: { self: link(`${ctx.base}/audit-history/${row.uid}`) },
  };
}

const QUERY_PARAMS = ['action', 'resourceType', 'actor', 'resourceName', 'resourceId', 'fromTimestamp', 'toTimestamp'];

export const listAuditEvents: Handler = async (ctx) => {
  const page = parsePage(ctx.rawQuery, { timestamp: 'timestamp' });
  const { where, type } = filters(ctx.query, Date.now());
  const matching = [{ tenantUid: ctx.principal.tenant.uid }, ...where];
  const slices = ((await visibleSlices(ctx, type)) ?? [{}]).map((slice) => ({ [Op.and]: [...matching, slice] }));
  const direction = page.sort[0]?.dir ?? 'DESC';
  const model = ctx.models.AuditEvent;
  const order: Order = [['timestamp', direction], ['seq', direction]];
  const [rows, { total, capped }] = await Promise.all([
    findSlices(model, slices, order, page.size, page.page * page.size),
    boundedCount(model, slices, page, order),
  ]);
  const info = pageInfo(page, total);
  const extra = QUERY_PARAMS.filter((p) => text(ctx.query[p]) !== undefined).map((p) => [p, String(ctx.query[p])] as [string, string]);
  const links = pagingLinks(`${ctx.base}/audit-history`, extra, page, info, capped);
  return hal({ _embedded: { events: rows.map((row) => render(ctx, row)) }, _links: links, page: info });
};

export const listAuditActions: Handler = () => plain([...AUDIT_ACTIONS]);

export const getAuditEvent: Handler = async (ctx) => {
  const uid = uidOf(ctx.params.uid);
  const slices = await visibleSlices(ctx);
  const visible = slices ? { [Op.or]: slices } : {};
  const row = uid === null ? null : await ctx.models.AuditEvent.findOne({ where: { [Op.and]: [{ uid }, { tenantUid: ctx.principal.tenant.uid }, visible] } });
  if (!row) throw new NotFoundError(`Audit entry ${ctx.params.uid} not found`);
  return hal(render(ctx, row));
};
