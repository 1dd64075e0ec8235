/**
 * The policy shape shared by kinds owned by a group with Public/Private visibility (applications, streams):
 * docs/contract.md §7 — Public visible to the whole tenant, Private to owners, viewers, the kind's ADMIN and tenant admins;
 * the kind's AUTHOR/ADMIN create; owners (narrowed by `onlyResourceManagerCanUpdateAndDeploy`), the kind's ADMIN
 * and tenant admins edit and delete; a new owners group must be the caller's own unless ADMIN or tenant admin.
 */
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Models } from '../../models';
import type { Row } from '../../models/define';
import type { JoinModel } from '../../models/join';
import { canEditOwned, hasRole, ownsGroup, visibleOwned } from '../permissions';

export interface OwnedKind {
  author: string;
  admin: string;
  viewers: (models: Models) => JoinModel;
}

export function ownedPolicy(kind: OwnedKind): Policy & {
  canEditRow: (ctx: RequestContext, row: Row) => Promise<boolean>;
  mayAssignOwners: (ctx: RequestContext, ownersUid: string) => Promise<boolean>;
} {
  const canEditRow = (ctx: RequestContext, row: Row) => canEditOwned(ctx, row.ownersUid, kind.admin);
  return {
    canCreate: (ctx) => hasRole(ctx, kind.author, kind.admin),
    canEdit: canEditRow,
    canDelete: canEditRow,
    visible: (ctx) => visibleOwned(ctx, kind.admin, kind.viewers(ctx.models)),
    canEditRow,
    mayAssignOwners: async (ctx, ownersUid) => hasRole(ctx, kind.admin) || ownsGroup(ctx, ownersUid),
  };
}
