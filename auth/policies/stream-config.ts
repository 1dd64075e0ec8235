/**
 * Stream configs (docs/contract.md §7): visible when both the stream and the environment are; created, edited, deleted
 * (and their browse permissions managed) by the stream's editors. The environment must be usable, which for a
 * Private one is the same as visible (owners, viewers, ENVIRONMENT_ADMIN, tenant admins): an invisible one is an
 * unknown reference (400), as docs/contract.md §4.1 answers every reference the caller cannot see.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row, RowModel } from '../../models/define';
import type { JoinModel } from '../../models/join';
import { parentRow } from '../parent-rows';
import { groupsOf, hasRole } from '../permissions';
import { ENVIRONMENT_ADMIN, environmentPolicy } from './environment';
import { link } from '../../core/hal';
import { memo } from '../../core/request-memo';
import { canEditStream, STREAM_ADMIN } from './stream';

/**
 * Uids of the Private rows of an owned kind the caller may not see (not owned, not viewed), or undefined when it
 * sees them all (the kind's ADMIN, tenant admins). Filtered here, not in SQL: `NOT (… OR uid IN ())` is NULL.
 */
async function hiddenUids(ctx: RequestContext, model: RowModel, adminRole: string, viewers: JoinModel): Promise<string[] | undefined> {
  if (hasRole(ctx, adminRole)) return undefined;
  const groups = await groupsOf(ctx);
  const viewed = groups.size === 0 ? new Set<string>() : new Set((await viewers.findAll({ where: { targetUid: [...groups] } })).map((v) => v.sourceUid));
  const rows = await model.findAll({ where: { tenantUid: ctx.principal.tenant.uid, visibility: 'Private' }, attributes: ['uid', 'ownersUid'] });
  return rows.filter((r) => !groups.has(r.ownersUid) && !viewed.has(r.uid)).map((r) => r.uid as string);
}

async function visible(ctx: RequestContext): Promise<WhereOptions | undefined> {
  const streams = await hiddenUids(ctx, ctx.models.Stream, STREAM_ADMIN, ctx.models.StreamViewer);
  const environments = await hiddenUids(ctx, ctx.models.Environment, ENVIRONMENT_ADMIN, ctx.models.EnvironmentViewer);
  const filters: WhereOptions[] = [];
  if (streams?.length) filters.push({ streamUid: { [Op.notIn]: streams } });
  if (environments?.length) filters.push({ environmentUid: { [Op.notIn]: environments } });
  return filters.length === 0 ? undefined : { [Op.and]: filters };
}

/** Stream editors of the config's stream. */
async function canEdit(ctx: RequestContext, row: Row): Promise<boolean> {
  const stream = await parentRow(ctx, 'Stream', row.streamUid);
  return !!stream && canEditStream(ctx, stream);
}

/** Whether the caller sees (so may deploy to, being the stream's editor) the environment: one query per environment and request. */
function usableEnvironment(ctx: RequestContext, uid: string): Promise<boolean> {
  return memo(ctx, `usable:Environment:${uid}`, async () => {
    const visible = await environmentPolicy.visible?.(ctx);
    const where = { uid, tenantUid: ctx.principal.tenant.uid };
    return (await ctx.models.Environment.count({ where: visible ? { [Op.and]: [where, visible] } : where, transaction: ctx.transaction })) > 0;
  });
}

/** `promote` where the config's environment declares a successor the caller may deploy the stream to (docs/contract.md §5.8). */
async function actionLinks(ctx: RequestContext, row: Row, self: string): Promise<Record<string, unknown>> {
  const environment = await parentRow(ctx, 'Environment', row.environmentUid);
  const successor = environment?.successorUid as string | null | undefined;
  if (!successor || !(await canEdit(ctx, row)) || !(await usableEnvironment(ctx, successor))) return {};
  return { promote: link(`${self}/promote`) };
}

export const streamConfigPolicy: Policy = {
  // Who could edit some stream: STREAM_AUTHOR/ADMIN, tenant admins, and members of any group (a group may own
  // streams). Whether the caller edits the stream named in the body is checked on the stream itself (403).
  canCreate: async (ctx) => hasRole(ctx, 'STREAM_AUTHOR', STREAM_ADMIN) || (await groupsOf(ctx)).size > 0,
  canCreateIn: { parent: 'STREAM', allowed: canEditStream },
  canEdit,
  canDelete: canEdit,
  visible,
  actions: { STREAM_CONFIG_BROWSE_PERMISSION: canEdit },
  actionLinks,
};
