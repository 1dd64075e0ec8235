/**
 * The service revoking Approved grants past their `expiresAt` (issue 33). The database is the only judge: each
 * revocation is a compare-and-set `UPDATE … WHERE uid = ? AND status = 'Approved' AND expires_at <= ?`, and its audit
 * entry (APPLICATION_ACCESS_REVOKED by `system`, reason `expired`) is written in the same transaction only when
 * that statement changed the row. Any number of sweepers on any number of hosts may run at once: a row taken by
 * one is no longer Approved for the others, so each grant is revoked, and audited, exactly once.
 */
import { Op, type Transaction } from 'sequelize';
import type { Models } from './index';
import type { Row } from './define';
import { writeAudit } from './audit-event';
import { isDeadlock } from './db-errors';
import { enqueue } from './notification';
import { accessNotifications } from './notification-facts';

export const EXPIRY_ACTOR = 'system';
export const EXPIRY_REASON = 'expired';
/** Due grants looked at per statement: a long backlog is worked through in such pages. */
const BATCH = 100;

function shuffled<T>(rows: T[]): T[] {
  const copy = [...rows];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** How long before its end a grant's application owners are told it is ending (issue 44). */
export const EXPIRY_WARNING_MS = 7 * 24 * 3600_000;

/**
 * Revokes `grant` if it is still Approved and due at `now`; answers whether this call did. The application's
 * owners are told (issue 44) in the same transaction, with the portal's pages under `publicRoot`.
 */
export async function expireGrant(models: Models, grant: Row, now: Date, transaction: Transaction, publicRoot = ''): Promise<boolean> {
  const { ApplicationAccessGrant } = models;
  const [changed] = await ApplicationAccessGrant.update({
    status: 'Revoked', processedBy: EXPIRY_ACTOR, processedAt: now, openKey: null, comment: EXPIRY_REASON,
    modifiedBy: EXPIRY_ACTOR, modifiedAt: now, version: models.sequelize.literal('version + 1'),
  }, {
    where: { uid: grant.uid, status: 'Approved', expiresAt: { [Op.lte]: now } },
    transaction, silent: true, fields: ['status', 'processedBy', 'processedAt', 'openKey', 'comment', 'modifiedBy', 'modifiedAt', 'version'],
  });
  if (changed !== 1) return false;
  // One after the other: a transaction is one connection, which runs one query at a time.
  const tenant = await models.Tenant.findOne({ where: { uid: grant.tenantUid }, attributes: ['uid', 'shortName', 'settings'], transaction });
  const application = await models.Application.findOne({ where: { uid: grant.applicationUid }, attributes: ['uid', 'shortName'], transaction });
  const stream = await models.Stream.findOne({ where: { uid: grant.streamUid }, attributes: ['uid', 'name'], transaction });
  const environment = await models.Environment.findOne({ where: { uid: grant.environmentUid }, attributes: ['uid', 'shortName'], transaction });
  await writeAudit(models, { tenantUid: grant.tenantUid, tenant: tenant?.shortName ?? null, actor: EXPIRY_ACTOR, actorName: null }, [{
    action: 'APPLICATION_ACCESS_REVOKED', resourceType: 'Application', resourceName: application?.shortName ?? null, resourceId: grant.applicationUid,
    details: {
      grant: grant.uid, stream: stream?.name ?? null, environment: environment?.shortName ?? null, accessType: grant.accessType,
      status: { old: 'Approved', new: 'Revoked' }, reason: EXPIRY_REASON, expiresAt: (grant.expiresAt as Date).toISOString(),
    },
  }], transaction);
  if (tenant) await enqueue(models.Notification, await accessNotifications(models, { tenant, actorEmail: null, publicRoot }, 'access.expired', grant.uid as string, transaction), transaction);
  return true;
}

/**
 * Each Approved grant matching `where`, in pages on (expires_at, uid), handed to `take` in a transaction of its own
 * (one slow row holds up no other); answers the uids `take` took. Keyset paging passes over the rows another
 * sweeper holds and never reads one twice.
 */
async function sweepGrants(models: Models, where: Record<PropertyKey, unknown>, take: (grant: Row, transaction: Transaction) => Promise<boolean>): Promise<string[]> {
  const taken: string[] = [];
  let after: { expiresAt: Date; uid: string } | null = null;
  for (;;) {
    const from: Record<PropertyKey, unknown> = after === null ? {} : {
      [Op.or]: [{ expiresAt: { [Op.gt]: after.expiresAt } }, { expiresAt: after.expiresAt, uid: { [Op.gt]: after.uid } }],
    };
    const due: Row[] = await models.ApplicationAccessGrant.findAll({
      where: { [Op.and]: [{ status: 'Approved', ...where }, from] },
      order: [['expiresAt', 'ASC'], ['uid', 'ASC']], limit: BATCH,
      attributes: ['uid', 'tenantUid', 'applicationUid', 'streamUid', 'environmentUid', 'accessType', 'expiresAt'],
    });
    // In an order of its own: concurrent sweepers then mostly take different rows instead of queueing on the same.
    for (const grant of shuffled(due)) {
      try {
        if (await models.sequelize.transaction((transaction) => take(grant, transaction))) taken.push(grant.uid as string);
      } catch (err) {
        // A collision with another sweeper (a deadlock victim; on Galera, certification lost at commit) rolled this
        // one back whole: the winner took the grant, or it is still due and the next sweep takes it.
        if (!isDeadlock(err)) throw err;
      }
    }
    if (due.length > 0) after = { expiresAt: due[due.length - 1].expiresAt as Date, uid: due[due.length - 1].uid as string };
    if (due.length < BATCH) return taken;
  }
}

/**
 * One sweep: every grant Approved and due at `now` is revoked. Answers the uids this call revoked; those another
 * sweeper took first are not among them.
 */
export function expireDueGrants(models: Models, now: Date = new Date(), publicRoot = ''): Promise<string[]> {
  return sweepGrants(models, { expiresAt: { [Op.lte]: now } }, (grant, transaction) => expireGrant(models, grant, now, transaction, publicRoot));
}

/**
 * The "access expiring" notice (issue 44): every Approved grant ending within seven days of `now` is marked warned
 * by a compare-and-set, and its application's owners are told in the same transaction when the tenant has
 * notifications on, so each grant is warned once however many sweepers run. A grant is marked also when its tenant
 * has them off: turning them on later does not warn of the ends already near. Answers the uids this call marked.
 */
export function warnExpiringGrants(models: Models, now: Date = new Date(), publicRoot = ''): Promise<string[]> {
  const horizon = new Date(now.getTime() + EXPIRY_WARNING_MS);
  return sweepGrants(models, { expiresAt: { [Op.gt]: now, [Op.lte]: horizon }, expiryWarnedAt: null }, async (grant, transaction) => {
    const [changed] = await models.ApplicationAccessGrant.update({ expiryWarnedAt: now }, {
      where: { uid: grant.uid, status: 'Approved', expiryWarnedAt: null }, transaction, silent: true, fields: ['expiryWarnedAt'],
    });
    if (changed !== 1) return false;
    const tenant = await models.Tenant.findOne({ where: { uid: grant.tenantUid }, attributes: ['uid', 'shortName', 'settings'], transaction });
    if (tenant) await enqueue(models.Notification, await accessNotifications(models, { tenant, actorEmail: null, publicRoot }, 'access.expiring', grant.uid as string, transaction), transaction);
    return true;
  });
}
