/**
 * Groups (docs/contract.md §5.3, §7): the whole tenant reads them; tenant admins create; tenant admins and the group's own
 * managers edit and delete it (members and resource managers do not).
 */
import type { WhereOptions } from 'sequelize';
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { groupsOf, isTenantAdmin, managerOf } from '../permissions';

/** Whether the caller is among the managers of the group (once per request; a write forgets it, so its reply is current). */
export async function managesGroup(ctx: RequestContext, groupUid: string): Promise<boolean> {
  return (await managerOf(ctx)).has(groupUid);
}

/** TENANT_ADMIN (SUPER_ADMIN included), or a manager of this group. */
export async function canEditGroup(ctx: RequestContext, row: Row): Promise<boolean> {
  return isTenantAdmin(ctx) || managesGroup(ctx, row.uid as string);
}

/** The groups `GET /group` lists: those the caller is a member, manager or resource manager of. */
export async function callerGroups(ctx: RequestContext): Promise<WhereOptions> {
  return { uid: [...(await groupsOf(ctx))] };
}

export const groupPolicy: Policy = {
  canCreate: isTenantAdmin,
  canEdit: canEditGroup,
  canDelete: canEditGroup,
};
