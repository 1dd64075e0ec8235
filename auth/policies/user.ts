/**
 * Users (docs/contract.md §5.2, §7): everyone in the tenant reads them; tenant admins create, edit, delete and assign
 * roles; a user may edit a few fields of its own (names, phone number, settings, password). SUPER_ADMIN is only
 * granted, removed — or its holder deleted — by a SUPER_ADMIN.
 */
import type { RequestContext } from '../../core/context';
import { ForbiddenError } from '../../core/errors';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { holdsRole } from '../../models/user';
import { isSuperAdmin, isTenantAdmin, SUPER_ADMIN } from '../permissions';

/** Model attributes a user may change on its own item without being a tenant admin. */
export const SELF_EDITABLE = new Set(['firstName', 'middleName', 'lastName', 'phoneNumber', 'settings', 'passwordHash']);

export const isSelf = (ctx: RequestContext, row: Row) => row.uid === ctx.principal.user.uid;

/** `PUT|PATCH /users/{id}/roles` and the `assign_roles` link: tenant admins (the SUPER_ADMIN role itself: see below). */
export const canAssignRoles = (ctx: RequestContext, _row?: Row) => isTenantAdmin(ctx);

/** `GET|DELETE /users/{id}/lockout`: tenant admins; the `lockout` link only where the embedded issuer counts failures. */
export const canManageLockout = (ctx: RequestContext, _row?: Row) => isTenantAdmin(ctx);
export const offersLockout = (ctx: RequestContext, row?: Row) => canManageLockout(ctx, row) && ctx.deps.config.externalAuthUrl === undefined;

export const canEditUser = (ctx: RequestContext, row: Row) => isTenantAdmin(ctx) || isSelf(ctx, row);

/** Tenant admins delete users; a SUPER_ADMIN's account only a SUPER_ADMIN. Deleting oneself is refused later (422). */
export const canDeleteUser = (ctx: RequestContext, row: Row) => isTenantAdmin(ctx) && (isSuperAdmin(ctx) || !holdsRole(row, SUPER_ADMIN));

const sameRoles = (a: string[], b: string[]) => a.length === b.length && a.every((r) => b.includes(r));

/** Whether granting or removing SUPER_ADMIN is part of the change; only a SUPER_ADMIN may do that. */
export function mayChangeSuperAdmin(ctx: RequestContext, before: string[], after: string[]): boolean {
  return isSuperAdmin(ctx) || before.includes(SUPER_ADMIN) === after.includes(SUPER_ADMIN);
}

/**
 * 403 unless the caller may store `values` (model attributes) on `row` (undefined on create): a non-admin only
 * the self-editable fields of its own item (an unchanged value of any other field is fine), and SUPER_ADMIN
 * changes only by a SUPER_ADMIN.
 */
export function authorizeUserChange(ctx: RequestContext, values: Record<string, unknown>, row: Row | undefined): void {
  const before = ((row?.roles as string[] | undefined) ?? []);
  const after = (values.roles as string[] | undefined) ?? before;
  if (!mayChangeSuperAdmin(ctx, before, after)) throw new ForbiddenError('Only a SUPER_ADMIN may grant or remove SUPER_ADMIN');
  if (isTenantAdmin(ctx) || !row) return;
  const changed = Object.keys(values).filter((key) => {
    if (SELF_EDITABLE.has(key)) return false;
    if (key === 'roles') return !sameRoles(before, after);
    return JSON.stringify(values[key] ?? null) !== JSON.stringify(row.get(key) ?? null);
  });
  if (changed.length > 0) {
    throw new ForbiddenError('You may change only your own names, phone number, settings and password');
  }
}

export const userPolicy: Policy = {
  canCreate: isTenantAdmin,
  canEdit: canEditUser,
  canDelete: canDeleteUser,
  hideDeleteLink: isSelf,
  actions: { USER_ASSIGN_ROLES: canAssignRoles },
};
