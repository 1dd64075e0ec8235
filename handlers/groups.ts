import { callerGroups, groupPolicy } from '../auth/policies/group';
import type { Transaction } from 'sequelize';
import type { Models } from '../models';
import type { Row, RowModel } from '../models/define';
import { listing } from './_lib/crud';
import { emailInput, emailOutput } from './_lib/email';
import { itemHref, link } from '../core/hal';
import type { Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { keyContains } from './_lib/store';
import { userResource } from './users';

/**
 * docs/contract.md §5.3: `members` is always an array of templated user links, one per member; `managers` and
 * `resourceManagers` are templated links to the association endpoints.
 */
function groupLinks(row: Row, ctx: { base: string }, self: string, related?: Map<string, Row | Row[] | null>) {
  const members = (related?.get('members') as Row[] | undefined) ?? [];
  return {
    members: members.map((u) => link(`${itemHref(ctx.base, userResource.collection, u.uid)}{?projection}`, true)),
    managers: link(`${self}/managers{?projection}`, true),
    resourceManagers: link(`${self}/resourceManagers{?projection}`, true),
  };
}

/**
 * What a group owns: rows of every model with an `ownersUid` attribute (environments today; streams, schemas and
 * applications count as soon as their models exist), e.g. `['2 environment(s)']`.
 */
async function ownedBy(models: Models, groupUid: string, transaction: Transaction): Promise<string[]> {
  const owned: string[] = [];
  for (const [name, model] of Object.entries(models) as [string, RowModel][]) {
    if (typeof model !== 'function' || !('getAttributes' in model) || !('ownersUid' in model.getAttributes())) continue;
    const count = await model.count({ where: { ownersUid: groupUid }, transaction });
    if (count > 0) owned.push(`${count} ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}(s)`);
  }
  return owned;
}

export const groupResource: Resource<'groups', 'findByName'> = {
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
  policy: groupPolicy,
  links: groupLinks,
  blockers: async (ctx, row, transaction) => {
    const owned = await ownedBy(ctx.models, row.uid, transaction);
    return owned.length > 0 ? `Group ${row.name} owns ${owned.join(', ')}; give them another owner first` : null;
  },
};

/** `GET /group{?name,page,size,sort}`: the caller's groups (member, manager or resource manager), `name` a substring. */
export const listCallerGroups: Handler = async (ctx) => {
  const raw = ctx.rawQuery.name;
  const name = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const where = { ...(await callerGroups(ctx)), ...(name === '' ? {} : keyContains('nameKey', name)) };
  return listing(groupResource, ctx, where, `${ctx.base}/group`, name === '' ? [] : [['name', name]], true);
};
