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

/** Revokes `grant` if it is still Approved and due at `now`; answers whether this call did. */
export async function expireGrant(models: Models, grant: Row, now: Date, transaction: Transaction): Promise<boolean> {
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
  const tenant = await models.Tenant.findOne({ where: { uid: grant.tenantUid }, attributes: ['uid', 'shortName'], transaction });
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
  return true;
}

/**
 * One sweep: every grant Approved and due at `now` is revoked, each in a transaction of its own (one slow row holds
 * up no other). Answers the uids this call revoked; those another sweeper took first are not among them.
 */
export async function expireDueGrants(models: Models, now: Date = new Date()): Promise<string[]> {
  const revoked: string[] = [];
  // Keyset paging on (expires_at, uid): rows another sweeper holds are passed over, never read twice.
  let after: { expiresAt: Date; uid: string } | null = null;
  for (;;) {
    const from: Record<PropertyKey, unknown> = after === null ? {} : {
      [Op.or]: [{ expiresAt: { [Op.gt]: after.expiresAt } }, { expiresAt: after.expiresAt, uid: { [Op.gt]: after.uid } }],
    };
    const due: Row[] = await models.ApplicationAccessGrant.findAll({
      where: { [Op.and]: [{ status: 'Approved', expiresAt: { [Op.lte]: now } }, from] },
      order: [['expiresAt', 'ASC'], ['uid', 'ASC']], limit: BATCH,
      attributes: ['uid', 'tenantUid', 'applicationUid', 'streamUid', 'environmentUid', 'accessType', 'expiresAt'],
    });
    // In an order of its own: concurrent sweepers then mostly take different rows instead of queueing on the same.
    for (const grant of shuffled(due)) {
      try {
        if (await models.sequelize.transaction((transaction) => expireGrant(models, grant, now, transaction))) revoked.push(grant.uid as string);
      } catch (err) {
        // A collision with another sweeper (a deadlock victim; on Galera, certification lost at commit) rolled this
        // one back whole: the winner revoked the grant, or it is still due and the next sweep takes it.
        if (!isDeadlock(err)) throw err;
      }
    }
    if (due.length > 0) after = { expiresAt: due[due.length - 1].expiresAt as Date, uid: due[due.length - 1].uid as string };
    if (due.length < BATCH) return revoked;
  }
}
