/**
 * A tenant with its first admin, made outside the API: on the first start on an empty database (docs/contract.md
 * §1.1 BOOTSTRAP_*) and by `npm run admin -- create-tenant`.
 */
import { randomBytes } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { isDeadlock } from './db-errors';
import { hashSecret } from '../core/passwords';
import { writeAudit, type AuditActor } from './audit-event';
import { seedReferenceData } from './reference-data';
import { DEFAULT_ROLES } from './user';
import type { Models } from '../core/context';

export interface Bootstrapped { tenant: string; email: string; password: string }

export function randomPassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
}

/** Who made a tenant outside the API: `system` at first start, the admin CLI otherwise (docs/contract.md §8). */
export type Maker = Pick<AuditActor, 'actor' | 'actorName'>;

export interface NewTenant {
  shortName: string;
  name?: string;
  email: string;
  /** The admin's name; `Tenant Admin` unless given. */
  firstName?: string;
  lastName?: string;
  /** Absent: a random one, returned. */
  password?: string;
  /** The first tenant's admin also administers every tenant (SUPER_ADMIN). */
  superAdmin: boolean;
  /** With an external identity provider the admin has no password here: it is linked on its first sign-in. */
  withoutPassword?: boolean;
}

export interface CreatedTenant { tenant: string; email: string; password: string | null; roles: string[] }

/**
 * The tenant, its reference data and a TENANT_ADMIN (with the author roles, and SUPER_ADMIN when asked), audited as
 * `maker` in one transaction.
 */
export async function createTenantWithAdmin(models: Models, spec: NewTenant, maker: Maker): Promise<CreatedTenant> {
  const password = spec.withoutPassword ? null : spec.password ?? randomPassword();
  const passwordHash = password === null ? null : await hashSecret(password);
  const roles = [...(spec.superAdmin ? ['SUPER_ADMIN'] : []), 'TENANT_ADMIN', ...DEFAULT_ROLES];
  const name = spec.name ?? spec.shortName;
  await models.sequelize.transaction(async (transaction) => {
    const tenant = await models.Tenant.create({ name, shortName: spec.shortName, createdBy: maker.actor, modifiedBy: maker.actor }, { transaction });
    await seedReferenceData(models.sequelize.getQueryInterface(), tenant.uid, transaction);
    const user = await models.User.create({
      tenantUid: tenant.uid, firstName: spec.firstName ?? 'Tenant', lastName: spec.lastName ?? 'Admin', email: spec.email, passwordHash, roles,
      createdBy: maker.actor, modifiedBy: maker.actor,
    }, { transaction });
    await writeAudit(models, { tenantUid: tenant.uid, tenant: tenant.shortName, ...maker }, [
      { action: 'CREATED', resourceType: 'Tenant', resourceName: tenant.name, resourceId: tenant.uid, details: { name: tenant.name, shortName: tenant.shortName } },
      { action: 'CREATED', resourceType: 'User', resourceName: spec.email, resourceId: user.uid, details: { emailAddress: { email: spec.email }, roles: user.roles } },
    ], transaction);
  });
  return { tenant: spec.shortName, email: spec.email, password, roles };
}

/**
 * Creates the tenant and a SUPER_ADMIN + TENANT_ADMIN user when no tenant exists yet; otherwise does nothing. Hosts
 * starting together on an empty database each try: the tenant's unique short name lets one of them make it.
 */
export async function bootstrap(models: Models, opts: { tenant: string; email: string; password?: string }): Promise<Bootstrapped | null> {
  if ((await models.Tenant.count()) > 0) return null;
  const password = opts.password ?? randomPassword();
  try {
    await createTenantWithAdmin(models, { shortName: opts.tenant, email: opts.email, firstName: 'Demo', password, superAdmin: true }, { actor: 'system', actorName: null });
  } catch (err) {
    if (err instanceof UniqueConstraintError || isDeadlock(err)) return null;
    throw err;
  }
  return { tenant: opts.tenant, email: opts.email, password };
}

/** The first-start admin on a later start, when that tenant and user still exist: what the start banner names. */
export async function findBootstrapAdmin(models: Models, opts: { tenant: string; email: string }): Promise<{ tenant: string; email: string } | null> {
  const tenant = await models.Tenant.findOne({ where: { shortName: opts.tenant } });
  if (!tenant) return null;
  const user = await models.User.findOne({ where: { tenantUid: tenant.uid, emailKey: opts.email.toLowerCase(), serviceAccount: false } });
  return user ? { tenant: tenant.shortName, email: user.email } : null;
}
