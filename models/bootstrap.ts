/** First start on an empty database: the demo tenant and its admin (docs/contract.md §1.1 BOOTSTRAP_*). */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../core/passwords';
import { writeAudit } from './audit-event';
import { seedReferenceData } from './reference-data';
import type { Models } from '../core/context';

export interface Bootstrapped { tenant: string; email: string; password: string }

export function randomPassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
}

/** Creates the tenant and a SUPER_ADMIN + TENANT_ADMIN user when no tenant exists yet; otherwise does nothing. */
export async function bootstrap(models: Models, opts: { tenant: string; email: string; password?: string }): Promise<Bootstrapped | null> {
  if ((await models.Tenant.count()) > 0) return null;
  const password = opts.password ?? randomPassword();
  const passwordHash = await hashSecret(password);
  await models.sequelize.transaction(async (transaction) => {
    const tenant = await models.Tenant.create({ name: opts.tenant, shortName: opts.tenant, createdBy: null, modifiedBy: null }, { transaction });
    await seedReferenceData(models.sequelize.getQueryInterface(), tenant.uid, transaction);
    const user = await models.User.create({
      tenantUid: tenant.uid, firstName: 'Demo', lastName: 'Admin', email: opts.email, passwordHash,
      roles: ['SUPER_ADMIN', 'TENANT_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'],
    }, { transaction });
    await writeAudit(models.AuditEvent, { tenantUid: tenant.uid, tenant: tenant.shortName, actor: 'system', actorName: null }, [
      { action: 'CREATED', resourceType: 'Tenant', resourceName: tenant.name, resourceId: tenant.uid, details: { name: tenant.name, shortName: tenant.shortName } },
      { action: 'CREATED', resourceType: 'User', resourceName: opts.email, resourceId: user.uid, details: { emailAddress: { email: opts.email }, roles: user.roles } },
    ], transaction);
  });
  return { tenant: opts.tenant, email: opts.email, password };
}
