/**
 * Environments (docs/contract.md §7): Public ones are visible to the whole tenant, Private ones to owners, viewers,
 * ENVIRONMENT_ADMIN and tenant admins. Owners, ENVIRONMENT_ADMIN and tenant admins edit, delete and synchronize.
 */
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { canEditOwned, hasRole, ownsGroup, visibleOwned } from '../permissions';

export const ENVIRONMENT_ADMIN = 'ENVIRONMENT_ADMIN';

const canEdit = (ctx: RequestContext, row: Row) => canEditOwned(ctx, row.ownersUid, ENVIRONMENT_ADMIN);
export const canSynchronize = canEdit;

const visible = (ctx: RequestContext) => visibleOwned(ctx, ENVIRONMENT_ADMIN, ctx.models.EnvironmentViewer);

/** On create or an owners change the caller must own the new group, unless ENVIRONMENT_ADMIN or tenant admin. */
export async function mayAssignOwners(ctx: RequestContext, ownersUid: string): Promise<boolean> {
  return hasRole(ctx, ENVIRONMENT_ADMIN) || ownsGroup(ctx, ownersUid);
}

export const environmentPolicy: Policy = {
  canCreate: (ctx) => hasRole(ctx, 'ENVIRONMENT_AUTHOR', ENVIRONMENT_ADMIN),
  canEdit,
  canDelete: canEdit,
  visible,
  actions: { ENVIRONMENT_SYNCHRONIZE: canSynchronize },
};
