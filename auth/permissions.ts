/**
 * The permission model (CONTRACT §7) in one place. Every 403, and every edit/delete link, asks here.
 * TENANT_ADMIN may do everything in its tenant; SUPER_ADMIN is a TENANT_ADMIN of its own tenant plus tenant CRUD.
 */
import type { RequestContext } from '../handlers/_lib/context';

export const TENANT_ADMIN = 'TENANT_ADMIN';
export const SUPER_ADMIN = 'SUPER_ADMIN';

export const isSuperAdmin = (ctx: RequestContext) => ctx.principal.roles.has(SUPER_ADMIN);
export const isTenantAdmin = (ctx: RequestContext) => ctx.principal.roles.has(TENANT_ADMIN) || isSuperAdmin(ctx);

/** Tenant admins, or holders of any of the roles. */
export const hasRole = (ctx: RequestContext, ...roles: string[]) => isTenantAdmin(ctx) || roles.some((r) => ctx.principal.roles.has(r));

const groupCache = new WeakMap<object, Promise<Set<string>>>();

/** Groups the caller is a member, manager or resource manager of (memoised per request). */
export function groupsOf(ctx: RequestContext): Promise<Set<string>> {
  let found = groupCache.get(ctx.principal);
  if (!found) {
    const userUid = ctx.principal.user.uid;
    const { GroupMember, GroupManager, GroupResourceManager } = ctx.models;
    found = Promise.all([GroupMember, GroupManager, GroupResourceManager].map((m) => m.findAll({ where: { targetUid: userUid } })))
      .then((lists) => new Set(lists.flat().map((l) => l.sourceUid)));
    groupCache.set(ctx.principal, found);
  }
  return found;
}

export async function ownsGroup(ctx: RequestContext, groupUid: string | null | undefined): Promise<boolean> {
  return !!groupUid && (await groupsOf(ctx)).has(groupUid);
}

/** Owners of a resource, that kind's ADMIN, and tenant admins may edit it. */
export async function canEditOwned(ctx: RequestContext, ownersUid: string | null | undefined, adminRole: string): Promise<boolean> {
  return hasRole(ctx, adminRole) || ownsGroup(ctx, ownersUid);
}
