import { canEditTenant, tenantPolicy } from '../auth/policies/tenant';
import type { components } from '../generated/types';
import type { Transaction } from 'sequelize';
import type { Models } from '../models';
import type { Row, RowModel } from '../models/define';
import { contactTypeOf, DEFAULT_CONTACT_TYPE, findContact, storeContact, type ContactType } from '../models/tenant-contact';
import { authMethodProblems, createFirstAdmin, DEFAULT_AUTH_METHODS, DEFAULT_TENANT_SETTINGS } from '../models/tenant';
import type { AuditEntry } from '../models/audit-event';
import { seedReferenceData } from '../models/reference-data';
import type { RequestContext } from '../core/context';
import { resourceHandlers } from './_lib/crud';
import { emailInput, emailOutput } from './_lib/email';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors';
import { link } from '../core/hal';
import { diff } from './_lib/input';
import { mutate } from './_lib/mutation';
import { plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible } from './_lib/store';

type TenantContact = components['schemas']['TenantContact'];
type TenantAdmin = components['schemas']['TenantAdmin'];

function checkAuthMethods(_ctx: RequestContext, values: Record<string, any>) {
  const methods = values.supportedAuthenticationMethods;
  if (!Array.isArray(methods)) return;
  const problems = authMethodProblems(methods);
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
}

/** POST `admin` → the new tenant's first TENANT_ADMIN, in the tenant's own transaction; audited without its password. */
async function createAdmin(ctx: RequestContext, tenant: Row, transaction: Transaction): Promise<AuditEntry[]> {
  const admin = (ctx.body as { admin?: TenantAdmin } | undefined)?.admin;
  if (!admin) return [];
  const email = emailInput('admin.emailAddress')(admin.emailAddress) as string;
  const user = await createFirstAdmin(ctx.models, tenant, { firstName: admin.firstName, lastName: admin.lastName, email, password: admin.password }, ctx.principal.email, transaction);
  const details = {
    tenant: tenant.shortName, firstName: user.firstName, lastName: user.lastName, emailAddress: { email },
    roles: (user.roles as string[]).map((name) => ({ name })),
  };
  return [{ action: 'CREATED', resourceType: 'User', resourceName: email, resourceId: user.uid, details }];
}

/** Kinds whose rows block a tenant's deletion (docs/contract.md §5.1), counted once their models exist. */
const BLOCKING_KINDS = ['Environment', 'Stream', 'Application', 'Schema'];

async function heldBy(models: Models, tenantUid: string, transaction: Transaction): Promise<string[]> {
  const held: string[] = [];
  for (const kind of BLOCKING_KINDS) {
    const model = (models as unknown as Record<string, RowModel | undefined>)[kind];
    const count = model ? await model.count({ where: { tenantUid }, transaction }) : 0;
    if (count > 0) held.push(`${count} ${kind.toLowerCase()}(s)`);
  }
  return held;
}

export const tenantResource: Resource<'tenants', 'findByShortName'> = {
  collection: 'tenants',
  itemRel: 'tenant',
  model: (m) => m.Tenant,
  auditType: 'Tenant',
  auditName: (row) => row.name,
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
  policy: tenantPolicy,
  /** Tenants are not tenant-scoped (shortName is globally unique); policy.visible narrows non-SUPER_ADMINs to their own. */
  scope: () => ({}),
  check: checkAuthMethods,
  links: (_row, _ctx, self) => ({ contact: link(`${self}/contact{?type}`, true) }),
  /** The tenants table has no tenant_uid: a tenant is its own tenancy (its uid is its rows' tenantUid). */
  onCreate: (_ctx, values) => { delete values.tenantUid; },
  afterCreate: async (ctx, row, transaction) => {
    await seedReferenceData(ctx.models.sequelize.getQueryInterface(), row.uid, transaction);
    return createAdmin(ctx, row, transaction);
  },
  blockers: async (ctx, row, transaction) => {
    if (row.uid === ctx.principal.tenant.uid) return 'You cannot delete the tenant you are signed in to';
    const held = await heldBy(ctx.models, row.uid, transaction);
    return held.length > 0 ? `Tenant ${row.shortName} has ${held.join(', ')}; delete them first` : null;
  },
};

const h = resourceHandlers(tenantResource);

/** `GET /tenant`: the caller's own tenant. */
export const getCurrentTenant = h.current((ctx) => ctx.principal.tenant.uid);

// ---- contacts: GET|PUT /tenants/{id}/contact{?type} ------------------------------------------------------------

const typeProblem = (value: unknown) => {
  const message = 'must be one of BUSINESS, TECHNICAL';
  return new BadRequestError([`type: ${message}`], [{ field: 'type', message, rejectedValue: value }]);
};

/** `?type=` in any case; BUSINESS when absent. */
function queryType(ctx: RequestContext): ContactType | undefined {
  const raw = ctx.rawQuery.type;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return undefined;
  const type = contactTypeOf(value);
  if (!type) throw typeProblem(value);
  return type;
}

const contactView = (row: Row): TenantContact => ({
  type: row.type, name: row.name, emailAddress: emailOutput(row.email) as TenantContact['emailAddress'], phoneNumber: row.phoneNumber ?? null,
});

export const getTenantContact: Handler = async (ctx) => {
  const tenant = await findVisible(tenantResource, ctx, ctx.params.id);
  const type = queryType(ctx) ?? DEFAULT_CONTACT_TYPE;
  const row = await findContact(ctx.models, tenant.uid, type);
  if (!row) throw new NotFoundError(`Tenant ${tenant.shortName} has no ${type} contact`);
  return plain(contactView(row));
};

/** Target 404, then 403 (docs/contract.md §2 order). */
async function editableTenant(ctx: RequestContext): Promise<Row> {
  const tenant = await findVisible(tenantResource, ctx, ctx.params.id);
  if (!(await canEditTenant(ctx, tenant))) throw new ForbiddenError('You may not edit the contacts of this tenant');
  return tenant;
}

/** The query's type, else the body's, else BUSINESS; a body type contradicting the query is refused. */
function bodyType(ctx: RequestContext, body: { type?: string }): ContactType {
  const fromQuery = queryType(ctx);
  const fromBody = typeof body.type === 'string' ? contactTypeOf(body.type) : undefined;
  if (fromQuery && fromBody && fromQuery !== fromBody) {
    const message = `must equal the type query parameter (${fromQuery})`;
    throw new BadRequestError([`type: ${message}`], [{ field: 'type', message, rejectedValue: body.type }]);
  }
  return fromQuery ?? fromBody ?? DEFAULT_CONTACT_TYPE;
}

export const replaceTenantContact: Handler = withPrecheck(async (ctx) => {
  const tenant = await editableTenant(ctx);
  const body = ctx.body as components['schemas']['TenantContactInput'];
  const type = bodyType(ctx, body);
  const values = { name: body.name, email: emailInput('emailAddress')(body.emailAddress), phoneNumber: body.phoneNumber ?? null };
  const row = await mutate(ctx, async (transaction) => {
    const before = await findContact(ctx.models, tenant.uid, type, transaction);
    const old = before ? contactView(before) : undefined;
    const { row: saved, created } = await storeContact(ctx.models, tenant.uid, type, values, ctx.principal.email, transaction);
    const now = contactView(saved);
    const changes = old ? diff(old, now) : {};
    const base = { resourceType: 'Tenant', resourceName: tenant.name, resourceId: tenant.uid };
    const audit: AuditEntry[] = created
      ? [{ action: 'CREATED', ...base, details: { contactType: type, name: now.name, emailAddress: now.emailAddress, phoneNumber: now.phoneNumber } }]
      : Object.keys(changes).length === 0 ? [] : [{ action: 'UPDATED', ...base, details: { contactType: type, ...changes } }];
    return { result: saved, audit };
  });
  return plain(contactView(row));
}, editableTenant);
