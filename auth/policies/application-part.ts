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

async function ownedUids(ctx: RequestContext, model: 'Application' | 'Environment', groups: string[]): Promise<string[]> {
  const rows = await ctx.models[model].findAll({ where: { tenantUid: ctx.principal.tenant.uid, ownersUid: groups }, attributes: ['uid'] });
  return rows.map((r) => r.uid as string);
}

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
      const filters: WhereOptions[] = [{ applicationUid: await ownedUids(ctx, 'Application', groups) }];
      if (o.environmentOwnersSee) filters.push({ environmentUid: await ownedUids(ctx, 'Environment', groups) });
      return { [Op.or]: filters };
    },
  };
}
