/**
 * Environments (CONTRACT §7): Public ones are visible to the whole tenant, Private ones to owners, viewers,
 * ENVIRONMENT_ADMIN and tenant admins. Owners, ENVIRONMENT_ADMIN and tenant admins edit, delete and synchronize.
 */
import { Op } from 'sequelize';
import type { RequestContext } from '../../handlers/_lib/context';
import type { Policy } from '../../handlers/_lib/resource';
import type { Row } from '../../models/define';
import { canEditOwned, groupsOf, hasRole, ownsGroup } from '../permissions';

export const ENVIRONMENT_ADMIN = 'ENVIRONMENT_ADMIN';

const canEdit = (ctx: RequestContext, row: Row) => canEditOwned(ctx, row.ownersUid, ENVIRONMENT_ADMIN);
export const canSynchronize = canEdit;

async function visible(ctx: RequestContext) {
  if (hasRole(ctx, ENVIRONMENT_ADMIN)) return undefined;
  const groups = [...(await groupsOf(ctx))];
  if (groups.length === 0) return { visibility: 'Public' };
  const viewed = await ctx.models.EnvironmentViewer.findAll({ where: { targetUid: groups } });
  return { [Op.or]: [{ visibility: 'Public' }, { ownersUid: groups }, { uid: viewed.map((v) => v.sourceUid) }] };
}

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
