/**
 * The permission model (docs/contract.md §7) in one place. Every 403, and every edit/delete link, asks here.
 * TENANT_ADMIN may do everything in its tenant; SUPER_ADMIN is a TENANT_ADMIN of its own tenant plus tenant CRUD.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { RequestContext } from '../core/context';
import type { JoinModel } from '../models/join';
import { memo } from '../core/request-memo';

export const TENANT_ADMIN = 'TENANT_ADMIN';
export const SUPER_ADMIN = 'SUPER_ADMIN';

export const isSuperAdmin = (ctx: RequestContext) => ctx.principal.roles.has(SUPER_ADMIN);
export const isTenantAdmin = (ctx: RequestContext) => ctx.principal.roles.has(TENANT_ADMIN) || isSuperAdmin(ctx);

/** Tenant admins, or holders of any of the roles. */
export const hasRole = (ctx: RequestContext, ...roles: string[]) => isTenantAdmin(ctx) || roles.some((r) => ctx.principal.roles.has(r));

/** The groups the caller's user is linked to, by kind of link, and the unions the checks ask for. */
interface CallerGroups { any: Set<string>; managed: Set<string>; managedOrResource: Set<string> }

/** One statement, once per request: every group the caller is a member, manager or resource manager of, by link. */
function callerGroups(ctx: RequestContext): Promise<CallerGroups> {
  const { GroupMember, GroupManager, GroupResourceManager } = ctx.models;
  return memo(ctx, 'groups', async () => {
    const [member, manager, resource] = await ctx.models.data.readLinkSources([GroupMember, GroupManager, GroupResourceManager], ctx.principal.user.uid, ctx.transaction);
    return { any: new Set([...member, ...manager, ...resource]), managed: new Set(manager), managedOrResource: new Set([...manager, ...resource]) };
  });
}

/** Groups the caller is a member, manager or resource manager of. */
export async function groupsOf(ctx: RequestContext): Promise<Set<string>> {
  return (await callerGroups(ctx)).any;
}

/** Groups the caller manages (not resource-manages). */
export async function managerOf(ctx: RequestContext): Promise<Set<string>> {
  return (await callerGroups(ctx)).managed;
}

export async function ownsGroup(ctx: RequestContext, groupUid: string | null | undefined): Promise<boolean> {
  return !!groupUid && (await groupsOf(ctx)).has(groupUid);
}

/**
 * The groups whose rows the caller may edit as their owner: every group it belongs to, or only those it manages
 * or resource-manages when the tenant says so (canEditOwned).
 */
export async function editorGroupsOf(ctx: RequestContext): Promise<Set<string>> {
  return onlyResourceManagers(ctx) ? managedGroupsOf(ctx) : groupsOf(ctx);
}

/** Groups the caller manages or resource-manages. */
async function managedGroupsOf(ctx: RequestContext): Promise<Set<string>> {
  return (await callerGroups(ctx)).managedOrResource;
}

/** The tenant setting that narrows "owner" to the owners group's managers and resource managers (docs/contract.md §5.1). */
const onlyResourceManagers = (ctx: RequestContext) =>
  ((ctx.principal.tenant.settings ?? {}) as Record<string, string>).onlyResourceManagerCanUpdateAndDeploy === 'true';

/**
 * Owners of a resource, that kind's ADMIN, and tenant admins may edit, delete and operate it. Under
 * `onlyResourceManagerCanUpdateAndDeploy` a plain member of the owners group no longer counts as an owner here.
 */
export async function canEditOwned(ctx: RequestContext, ownersUid: string | null | undefined, adminRole: string): Promise<boolean> {
  if (hasRole(ctx, adminRole)) return true;
  if (!ownersUid) return false;
  return onlyResourceManagers(ctx) ? (await managedGroupsOf(ctx)).has(ownersUid) : ownsGroup(ctx, ownersUid);
}

/**
 * Rows of an owned kind the caller may see (docs/contract.md §7): Public ones, Private ones it owns or views; all for that
 * kind's ADMIN and tenant admins (undefined = no filter).
 */
export async function visibleOwned(ctx: RequestContext, adminRole: string, viewers: JoinModel): Promise<WhereOptions | undefined> {
  if (hasRole(ctx, adminRole)) return undefined;
  const groups = [...(await groupsOf(ctx))];
  if (groups.length === 0) return { visibility: 'Public' };
  const viewed = await viewers.findAll({ where: { targetUid: groups }, transaction: ctx.transaction });
  return { [Op.or]: [{ visibility: 'Public' }, { ownersUid: groups }, { uid: viewed.map((v) => v.sourceUid) }] };
}
