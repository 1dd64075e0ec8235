/**
 * Applications (CONTRACT §7): Public ones are visible to the whole tenant, Private ones to owners, viewers,
 * APPLICATION_ADMIN and tenant admins. APPLICATION_AUTHOR/ADMIN create; owners, APPLICATION_ADMIN and tenant
 * admins edit and delete (owners narrowed by `onlyResourceManagerCanUpdateAndDeploy`).
 */
import type { RequestContext } from '../../handlers/_lib/context';
import type { Policy } from '../../handlers/_lib/resource';
import type { Row } from '../../models/define';
import { canEditOwned, hasRole, ownsGroup, visibleOwned } from '../permissions';

export const APPLICATION_ADMIN = 'APPLICATION_ADMIN';

/** "App editors" of CONTRACT §7, which principals, credentials, deployments and grant requests reuse. */
export const canEditApplication = (ctx: RequestContext, row: Row) => canEditOwned(ctx, row.ownersUid, APPLICATION_ADMIN);

/** On create or an owners change the caller must own the new group, unless APPLICATION_ADMIN or tenant admin. */
export async function mayAssignApplicationOwners(ctx: RequestContext, ownersUid: string): Promise<boolean> {
  return hasRole(ctx, APPLICATION_ADMIN) || ownsGroup(ctx, ownersUid);
}

export const applicationPolicy: Policy = {
  canCreate: (ctx) => hasRole(ctx, 'APPLICATION_AUTHOR', APPLICATION_ADMIN),
  canEdit: canEditApplication,
  canDelete: canEditApplication,
  visible: (ctx) => visibleOwned(ctx, APPLICATION_ADMIN, ctx.models.ApplicationViewer),
};
