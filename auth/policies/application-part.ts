/**
 * What hangs off an application in one environment (principals, credentials, deployments; docs/contract.md §7): its editors
 * ("app editors") create, edit, delete and operate it; they see it, and so do the environment's owners except for
 * credentials. APPLICATION_ADMIN and tenant admins see and edit all of them.
 */
import { Op, type WhereOptions } from 'sequelize';
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { parentRow } from '../parent-rows';
import { groupsOf, hasRole } from '../permissions';
import { APPLICATION_ADMIN, canEditApplication } from './application';

/** The row's application, for the app-editor checks. */
export async function applicationOf(ctx: RequestContext, row: Row): Promise<Row | null> {
  return parentRow(ctx, 'Application', row.applicationUid);
}

export async function editsApplicationOf(ctx: RequestContext, row: Row): Promise<boolean> {
  const application = await applicationOf(ctx, row);
  return !!application && canEditApplication(ctx, application);
}

export function applicationPartPolicy(o: { environmentOwnersSee: boolean }): Policy {
  return {
    // Who could edit some application (a member of any group may own one); the body's application is checked there.
    canCreate: async (ctx) => hasRole(ctx, 'APPLICATION_AUTHOR', APPLICATION_ADMIN) || (await groupsOf(ctx)).size > 0,
    canCreateIn: { parent: 'APPLICATION', allowed: canEditApplication },
    canEdit: editsApplicationOf,
    canDelete: editsApplicationOf,
    visible: async (ctx): Promise<WhereOptions | undefined> => {
      if (hasRole(ctx, APPLICATION_ADMIN)) return undefined;
      const groups = [...(await groupsOf(ctx))];
      if (groups.length === 0) return { uid: { [Op.in]: [] } };
      const { Application, Environment, data } = ctx.models;
      const [applications, environments] = await data.readOwned(o.environmentOwnersSee ? [Application, Environment] : [Application], ctx.principal.tenant.uid, groups, ctx.transaction);
      const filters: WhereOptions[] = [{ applicationUid: applications }];
      if (o.environmentOwnersSee) filters.push({ environmentUid: environments });
      return { [Op.or]: filters };
    },
  };
}
