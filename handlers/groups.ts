import { isTenantAdmin } from '../auth/permissions';
import type { RequestContext } from './_lib/context';
import { associationHandlers } from './_lib/associations';
import { resourceHandlers } from './_lib/crud';
import { emailInput, emailOutput } from './_lib/email';
import type { Resource } from './_lib/resource';
import type { Row } from '../models/define';
import { userResource } from './users';

/** TENANT_ADMIN, or a manager of this group. */
async function adminOrManager(ctx: RequestContext, row: Row): Promise<boolean> {
  if (isTenantAdmin(ctx)) return true;
  const hit = await ctx.models.GroupManager.count({ where: { sourceUid: row.uid, targetUid: ctx.principal.user.uid } });
  return hit > 0;
}

export const groupResource: Resource = {
  collection: 'groups',
  itemRel: 'group',
  model: (m) => m.Group,
  auditType: 'Group',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', unique: true },
    { name: 'emailAddress', attribute: 'email', input: emailInput('emailAddress'), output: emailOutput, sortable: false },
    { name: 'phoneNumber' },
  ],
  associations: [
    { rel: 'members', target: () => userResource, many: true, join: 'GroupMember' },
    { rel: 'managers', target: () => userResource, many: true, join: 'GroupManager' },
    { rel: 'resourceManagers', target: () => userResource, many: true, join: 'GroupResourceManager' },
  ],
  searches: [
    { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: String(a.name).toLowerCase() }) },
  ],
  policy: { canCreate: isTenantAdmin, canEdit: adminOrManager, canDelete: adminOrManager },
  blockers: async (ctx, row, transaction) => {
    const owned = await ctx.models.Environment.count({ where: { ownersUid: row.uid }, transaction });
    return owned > 0 ? `Group ${row.name} owns ${owned} environment(s); give them another owner first` : null;
  },
};

const h = resourceHandlers(groupResource);
export const listGroups = h.list;
export const createGroup = h.create;
export const getGroup = h.get;
export const replaceGroup = h.replace;
export const patchGroup = h.patch;
export const deleteGroup = h.remove;
export const listGroupSearches = h.searchIndex;
export const findGroupsByName = h.search('findByName');

const a = associationHandlers(groupResource);
export const getGroupAssociation = a.get;
export const replaceGroupAssociation = a.put;
export const addGroupAssociationTargets = a.post;
export const patchGroupAssociation = a.patch;
export const deleteGroupAssociation = a.remove;
export const getGroupAssociationMember = a.getMember;
export const deleteGroupAssociationMember = a.removeMember;
