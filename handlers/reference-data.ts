/**
 * Reference data (docs/contract.md §5.16): `/confidentialities`, `/integrities`, `/support_tiers` (ranked lists) and
 * `/connect_plugins`. The whole tenant reads them, tenant admins change them; every change is audited under the
 * caller's Tenant (docs/contract.md §8) with the entity named in `details`.
 */
import { adminOnlyPolicy } from '../auth/policies/admin-only';
import type { Models } from '../models';
import type { Row, RowModel } from '../models/define';
import { referenceUsers, type ConfigDefinition, type RankedTable } from '../models/reference-data';
import type { RequestContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import type { Resource } from './_lib/resource';

const key = (v: unknown) => String(v).toLowerCase();

/** Filed under the caller's tenant; `details.<itemRel>` names the row itself. */
const underTenant = (itemRel: string, nameOf: (row: Row) => string) => (row: Row, ctx: RequestContext) => ({
  resourceName: ctx.principal.tenant.name as string,
  resourceId: ctx.principal.tenant.uid as string,
  details: { [itemRel]: { uid: row.uid, name: nameOf(row) } },
});

/** A ranked list: `name` unique per tenant, `level`, `description`; deletion refused while something uses a row. */
function rankedResource<C extends RankedTable>(collection: C, itemRel: string, label: string, model: (m: Models) => RowModel): Resource<C, 'findByName'> {
  return {
    collection,
    itemRel,
    model,
    auditType: 'Tenant',
    auditName: (row) => row.name,
    auditAs: underTenant(itemRel, (row) => row.name),
    fields: [
      { name: 'name', unique: true },
      { name: 'level' },
      { name: 'description' },
    ],
    associations: [],
    searches: [
      { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: key(a.name) }) },
    ],
    policy: adminOnlyPolicy,
    blockers: async (ctx, row, transaction) => {
      const users = await referenceUsers(ctx.models, collection, row.uid, transaction);
      return users.length > 0 ? `${label} ${row.name} is used by ${users.join('; ')}; remove it from them first` : null;
    },
  };
}

export const confidentialityResource = rankedResource('confidentialities', 'confidentiality', 'Confidentiality', (m) => m.Confidentiality);
export const integrityResource = rankedResource('integrities', 'integrity', 'Integrity', (m) => m.Integrity);
export const supportTierResource = rankedResource('support_tiers', 'supportTier', 'Support tier', (m) => m.SupportTier);

/** Items as stored: exactly the documented keys, absent optional ones as false/null (unknown keys are dropped). */
function configDefinitionsInput(value: unknown): ConfigDefinition[] {
  return ((value ?? []) as Array<Partial<ConfigDefinition>>).map((d) => ({
    name: d.name!, type: d.type!, required: d.required ?? false, defaultValue: d.defaultValue ?? null, documentation: d.documentation ?? null,
  }));
}

/** Config definition names are unique within a plugin. */
function checkConfigDefinitions(_ctx: RequestContext, values: Record<string, any>) {
  const definitions = values.configDefinitions as ConfigDefinition[] | undefined;
  if (!Array.isArray(definitions)) return;
  const seen = new Set<string>();
  for (const [i, d] of definitions.entries()) {
    if (seen.has(d.name)) {
      const field = `configDefinitions[${i}].name`;
      throw new BadRequestError([`${field}: '${d.name}' is defined twice`], [{ field, message: 'is defined twice', rejectedValue: d.name }]);
    }
    seen.add(d.name);
  }
}

export const connectPluginResource: Resource<'connect_plugins', 'findByPluginClass'> = {
  collection: 'connect_plugins',
  itemRel: 'connectPlugin',
  model: (m) => m.ConnectPlugin,
  auditType: 'Tenant',
  auditName: (row) => row.pluginClass,
  auditAs: underTenant('connectPlugin', (row) => row.pluginClass),
  fields: [
    { name: 'pluginClass', unique: true },
    { name: 'pluginType' },
    { name: 'pluginVersion' },
    { name: 'configDefinitions', kind: 'list', default: () => [], input: configDefinitionsInput },
  ],
  associations: [],
  searches: [
    { name: 'findByPluginClass', single: true, params: [{ name: 'pluginClass', required: true }], where: (a) => ({ pluginClassKey: key(a.pluginClass) }) },
  ],
  policy: adminOnlyPolicy,
  check: checkConfigDefinitions,
};
