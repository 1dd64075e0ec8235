import { isSuperAdmin, isTenantAdmin } from '../auth/permissions';
import type { Row } from '../models/define';
import { DEFAULT_AUTH_METHODS, DEFAULT_TENANT_SETTINGS } from '../models/tenant';
import type { RequestContext } from './_lib/context';
import { renderOne, resourceHandlers } from './_lib/crud';
import { validatorHeaders } from './_lib/etag';
import { NotFoundError } from './_lib/errors';
import { hal, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';

/** TENANT_ADMIN (or SUPER_ADMIN) of this very tenant. */
const adminOf = (ctx: RequestContext, row: Row) => isTenantAdmin(ctx) && row.uid === ctx.principal.tenant.uid;

export const tenantResource: Resource = {
  collection: 'tenants',
  itemRel: 'tenant',
  model: (m) => m.Tenant,
  auditType: 'Tenant',
  auditName: (row) => row.shortName,
  fields: [
    { name: 'name' },
    { name: 'shortName', unique: true, immutable: true },
    { name: 'uniqueConsumerGroup', default: () => false, input: (v) => v ?? false },
    { name: 'logo' },
    { name: 'dataClassificationEnabled', default: () => false, input: (v) => v ?? false },
    { name: 'supportedAuthenticationMethods', kind: 'list', default: () => structuredClone(DEFAULT_AUTH_METHODS), input: (v) => v ?? [] },
    { name: 'wizardCompleted', default: () => false, input: (v) => v ?? false },
    { name: 'customerId' },
    { name: 'properties', kind: 'map' },
    { name: 'settings', kind: 'map', default: () => ({ ...DEFAULT_TENANT_SETTINGS }), output: (v) => ({ ...DEFAULT_TENANT_SETTINGS, ...((v as object) ?? {}) }) },
  ],
  computed: (row, ctx) => ({ issuerUrl: `${ctx.deps.authUrl()}/realms/${row.shortName}` }),
  associations: [],
  searches: [
    { name: 'findByShortName', single: true, params: [{ name: 'shortName', required: true }], where: (a) => ({ shortName: String(a.shortName).toLowerCase() }) },
  ],
  policy: { canCreate: isSuperAdmin, canEdit: adminOf, canDelete: isSuperAdmin },
  /** SUPER_ADMIN lists every tenant; everyone else only its own. Uniqueness (shortName) is therefore global. */
  scope: (ctx) => (isSuperAdmin(ctx) ? {} : { uid: ctx.principal.tenant.uid }),
  /** The tenants table has no tenant_uid: a tenant is its own tenancy (its uid is its rows' tenantUid). */
  onCreate: (_ctx, values) => { delete values.tenantUid; },
  blockers: async (ctx, row, transaction) => {
    const envs = await ctx.models.Environment.count({ where: { tenantUid: row.uid }, transaction });
    return envs > 0 ? `Tenant ${row.shortName} has ${envs} environment(s); delete them first` : null;
  },
};

const h = resourceHandlers(tenantResource);
export const listTenants = h.list;
export const createTenant = h.create;
export const getTenant = h.get;
export const replaceTenant = h.replace;
export const patchTenant = h.patch;
export const deleteTenant = h.remove;
export const listTenantSearches = h.searchIndex;
export const findTenantByShortName = h.search('findByShortName');

/** `GET /tenant`: the caller's own tenant, read fresh. */
export const getCurrentTenant: Handler = async (ctx) => {
  const row = await ctx.models.Tenant.findByPk(ctx.principal.tenant.uid);
  if (!row) throw new NotFoundError('tenant not found');
  return hal(await renderOne(tenantResource, row, ctx), 200, validatorHeaders(row));
};
