/** A person's password set outside the API (`npm run admin -- reset-password`), audited as the API audits it. */
import { Op } from 'sequelize';
import { hashSecret } from '../core/passwords';
import { writeAudit } from './audit-event';
import type { Maker } from './bootstrap';
import type { Row } from './define';
import type { Models } from '../core/context';

export interface Person { user: Row; tenant: Row }

/** The people (not service accounts) with this address, in any case: in every tenant, or in the one named. */
export async function findPeopleByEmail(models: Models, email: string, tenantShortName?: string): Promise<Person[]> {
  const users = await models.User.findAll({
    where: { emailKey: email.trim().toLowerCase(), serviceAccount: false },
    order: [['createdAt', 'ASC'], ['uid', 'ASC']],
  });
  if (users.length === 0) return [];
  const tenants = await models.Tenant.findAll({ where: { uid: { [Op.in]: users.map((u) => u.tenantUid as string) } } });
  const byUid = new Map(tenants.map((t) => [t.uid as string, t]));
  return users
    .map((user) => ({ user, tenant: byUid.get(user.tenantUid as string)! }))
    .filter((p) => p.tenant && (tenantShortName === undefined || p.tenant.shortName === tenantShortName.toLowerCase()));
}

/**
 * Stores `password` (as its scrypt hash) for the person and writes the entry a password change through the API
 * writes (UPDATED User with a `password` change, which writeAudit redacts to `"***"`), in one transaction.
 */
export async function resetPassword(models: Models, person: Person, password: string, maker: Maker): Promise<void> {
  const passwordHash = await hashSecret(password);
  await models.sequelize.transaction(async (transaction) => {
    await person.user.update({ passwordHash, modifiedBy: maker.actor }, { transaction });
    await writeAudit(models, { tenantUid: person.tenant.uid, tenant: person.tenant.shortName, ...maker }, [{
      action: 'UPDATED', resourceType: 'User', resourceName: person.user.email, resourceId: person.user.uid,
      details: { password: { old: '***', new: '***' } },
    }], transaction);
  });
}
