import { Op, QueryTypes, type WhereOptions } from 'sequelize';
import { isTenantAdmin } from '../auth/permissions';
import { AUDIT_ACTIONS, OPEN_RESOURCE_TYPES, auditActionOf, auditResourceTypeOf } from '../models/audit-actions';
import { AUDIT_COUNT_WINDOW, type AuditEventRow } from '../models/audit-event';
import { parseTimeBound } from '../models/audit-time';
import { selectSql } from '../models/select-sql';
import type { RequestContext } from './_lib/context';
import { BadRequestError, NotFoundError, type SubError } from './_lib/errors';
import { link, timestamp } from './_lib/hal';
import { pageInfo, pagingLinks, parsePage } from './_lib/paging';
import { uidOf } from './_lib/references';
import { hal, plain, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { applicationResource } from './applications';
import { environmentResource } from './environments';
import { streamResource } from './streams';

/** Kinds with Private rows: their entries are visible with the row (CONTRACT §8, §7). */
const OWNED: [string, Resource][] = [['Environment', environmentResource], ['Topic', streamResource], ['Application', applicationResource]];

/** The entries the caller may see: the whole tenant for its admins, else its own and those of visible resources. */
async function visibility(ctx: RequestContext): Promise<WhereOptions> {
  const tenancy = { tenantUid: ctx.principal.tenant.uid };
  if (isTenantAdmin(ctx)) return tenancy;
  const { sequelize } = ctx.models;
  const visible: WhereOptions[] = [{ actorKey: ctx.principal.email.toLowerCase() }, { resourceType: { [Op.in]: [...OPEN_RESOURCE_TYPES] } }];
  for (const [type, resource] of OWNED) {
    const scope = await resource.policy.visible?.(ctx);
    if (!scope) {
      visible.push({ resourceType: type });
      continue;
    }
    // A subquery keeps the visibility rule, each kind's own policy, in the database.
    const sql = selectSql(resource.model(ctx.models), { attributes: ['uid'], where: { [Op.and]: [tenancy, scope] } });
    visible.push({ resourceType: type, resourceId: { [Op.in]: sequelize.literal(`(${sql})`) } });
  }
  return { [Op.and]: [tenancy, { [Op.or]: visible }] };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const problem = (field: string, message: string, rejectedValue: unknown): SubError => ({ field, message, rejectedValue });

/** The filters of the query; one 400 naming every bad parameter. */
function filters(query: Record<string, unknown>, now: number): WhereOptions[] {
  const where: WhereOptions[] = [];
  const problems: SubError[] = [];
  const action = text(query.action);
  if (action !== undefined) {
    const canonical = auditActionOf(action);
    if (canonical) where.push({ action: canonical });
    else problems.push(problem('action', 'must be one of GET /audit-history/actions', action));
  }
  const type = text(query.resourceType);
  if (type !== undefined) {
    const canonical = auditResourceTypeOf(type);
    if (canonical) where.push({ resourceType: canonical });
    else problems.push(problem('resourceType', 'must be one of Tenant, User, Group, Cluster, Instance, Environment, Topic (Stream), Schema, Application', type));
  }
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
  return where;
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

/** The matching entries, counted up to `limit`: a LIMIT inside the count, so the database stops there. */
async function countUpTo(ctx: RequestContext, where: WhereOptions, limit: number): Promise<number> {
  const model = ctx.models.AuditEvent;
  const sql = selectSql(model, { attributes: [[ctx.models.sequelize.literal('1'), 'one']], where, limit });
  const [row] = await ctx.models.sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${sql}) AS counted`, { type: QueryTypes.SELECT });
  return Number(row.n);
}

export const listAuditEvents: Handler = async (ctx) => {
  const page = parsePage(ctx.rawQuery, { timestamp: 'timestamp' });
  const where = { [Op.and]: [await visibility(ctx), ...filters(ctx.query, Date.now())] };
  const direction = page.sort[0]?.dir ?? 'DESC';
  const offset = page.page * page.size;
  const window = offset + page.size + AUDIT_COUNT_WINDOW;
  const [rows, counted] = await Promise.all([
    ctx.models.AuditEvent.findAll({ where, order: [['timestamp', direction], ['seq', direction]], limit: page.size, offset }),
    countUpTo(ctx, where, window + 1),
  ]);
  // Beyond the window the count is a lower bound: `next` still leads on, and no `last` claims to be the end.
  const capped = counted > window;
  const info = pageInfo(page, counted);
  const extra = QUERY_PARAMS.filter((p) => text(ctx.query[p]) !== undefined).map((p) => [p, String(ctx.query[p])] as [string, string]);
  const links = pagingLinks(`${ctx.base}/audit-history`, extra, page, info);
  if (capped) delete links.last;
  return hal({ _embedded: { events: rows.map((row) => render(ctx, row)) }, _links: links, page: info });
};

export const listAuditActions: Handler = () => plain([...AUDIT_ACTIONS]);

export const getAuditEvent: Handler = async (ctx) => {
  const uid = uidOf(ctx.params.uid);
  const row = uid === null ? null : await ctx.models.AuditEvent.findOne({ where: { [Op.and]: [{ uid }, await visibility(ctx)] } });
  if (!row) throw new NotFoundError(`Audit entry ${ctx.params.uid} not found`);
  return hal(render(ctx, row));
};
