/**
 * The notification outbox (migrations/0023): rows written with the change they tell about, delivered by whichever
 * host claims them. A claim is a compare-and-set: candidates are read, then one UPDATE leases those still free to
 * a token of this claim, and the rows carrying the token are what this claim got. Two claimers racing for a row:
 * the database lets one UPDATE change it, the other's condition no longer holds. A lease that runs out (a host
 * killed mid-send) makes the row claimable again, which is the only way a message goes out twice.
 */
import { randomBytes } from 'node:crypto';
import { DataTypes, Op, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';
import type { NextAttempt } from '../core/rules/notification-schedule';
import { newUid } from './define';

export type NotificationStatus = 'pending' | 'sent' | 'dead';

export type NotificationRow = Model & {
  uid: string; tenantUid: string; event: string; channel: string; recipient: string; payload: string; status: NotificationStatus;
  attempts: number; createdAt: Date; dueAt: Date; firstAttemptAt: Date | null; sentAt: Date | null; lastError: string | null;
  leaseToken: string | null; leaseUntil: Date | null; lastAttemptAt: Date | null; lastStatus: number | null;
};
export type Notifications = ModelStatic<NotificationRow>;

export function defineNotification(sequelize: Sequelize): Notifications {
  return sequelize.define('Notification', {
    uid: { type: DataTypes.CHAR(32), primaryKey: true },
    tenantUid: { type: DataTypes.CHAR(32), allowNull: false },
    event: { type: DataTypes.STRING(64), allowNull: false },
    channel: { type: DataTypes.STRING(16), allowNull: false },
    recipient: { type: DataTypes.STRING(320), allowNull: false },
    payload: { type: DataTypes.TEXT('long'), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: { type: DataTypes.DATE(3), allowNull: false },
    dueAt: { type: DataTypes.DATE(3), allowNull: false },
    firstAttemptAt: { type: DataTypes.DATE(3), allowNull: true },
    sentAt: { type: DataTypes.DATE(3), allowNull: true },
    lastError: { type: DataTypes.STRING(1000), allowNull: true },
    leaseToken: { type: DataTypes.STRING(32), allowNull: true },
    leaseUntil: { type: DataTypes.DATE(3), allowNull: true },
    lastAttemptAt: { type: DataTypes.DATE(3), allowNull: true },
    lastStatus: { type: DataTypes.INTEGER, allowNull: true },
  }, { tableName: 'notifications', timestamps: false, underscored: true }) as Notifications;
}

export interface Outgoing { tenantUid: string; event: string; channel: 'email' | 'webhook'; recipient: string; payload: string }

/** Writes messages to deliver, due at once, in the caller's transaction (the change's own). */
export async function enqueue(model: Notifications, messages: Outgoing[], transaction: Transaction, now = new Date()): Promise<void> {
  if (messages.length === 0) return;
  await model.bulkCreate(messages.map((m) => ({ ...m, uid: newUid(), status: 'pending', attempts: 0, createdAt: now, dueAt: now })), { transaction });
}

/** Free to claim: pending, due, and no live lease. */
const claimable = (now: Date) => ({
  status: 'pending',
  dueAt: { [Op.lte]: now },
  [Op.or]: [{ leaseUntil: null }, { leaseUntil: { [Op.lt]: now } }],
});

/**
 * Leases up to `limit` due messages for `leaseMs` and answers them (oldest due first). What another claimer leased
 * in between is not among them; nothing is answered twice while its lease lives.
 */
export async function claim(model: Notifications, limit: number, leaseMs: number, now = new Date()): Promise<NotificationRow[]> {
  const candidates = await model.findAll({ attributes: ['uid'], where: claimable(now), order: [['dueAt', 'ASC'], ['uid', 'ASC']], limit });
  if (candidates.length === 0) return [];
  const token = randomBytes(16).toString('hex');
  await model.update(
    { leaseToken: token, leaseUntil: new Date(now.getTime() + leaseMs) },
    { where: { uid: candidates.map((c) => c.uid), ...claimable(now) } },
  );
  return model.findAll({ where: { leaseToken: token }, order: [['dueAt', 'ASC'], ['uid', 'ASC']] });
}

/** Delivered: kept as sent (the lease's holder only: a claimer whose lease ran out and was taken over changes nothing). */
export async function markSent(model: Notifications, row: NotificationRow, now = new Date(), status: number | null = null): Promise<boolean> {
  const [changed] = await model.update(
    { status: 'sent', sentAt: now, attempts: row.attempts + 1, firstAttemptAt: row.firstAttemptAt ?? now, lastAttemptAt: now, lastStatus: status, lastError: null, leaseToken: null, leaseUntil: null },
    { where: { uid: row.uid, leaseToken: row.leaseToken } },
  );
  return changed === 1;
}

/** Not delivered: tried again when `next` says, or dead; the error kept (bounded), the lease given up. */
export async function markFailed(model: Notifications, row: NotificationRow, error: string, next: NextAttempt, now = new Date(), status: number | null = null): Promise<boolean> {
  const [changed] = await model.update(
    {
      attempts: row.attempts + 1, firstAttemptAt: row.firstAttemptAt ?? now, lastAttemptAt: now, lastStatus: status, lastError: error.slice(0, 1000), leaseToken: null, leaseUntil: null,
      ...('dead' in next ? { status: 'dead' as const } : { dueAt: next.retryAt }),
    },
    { where: { uid: row.uid, leaseToken: row.leaseToken } },
  );
  return changed === 1;
}

/** How many messages are in each state (the metric and `npm run admin -- notifications`). */
export async function countByStatus(model: Notifications): Promise<Record<NotificationStatus, number>> {
  const rows = await model.findAll({ attributes: ['status', [model.sequelize!.fn('COUNT', model.sequelize!.col('uid')), 'n']], group: ['status'], raw: true }) as unknown as { status: NotificationStatus; n: string | number }[];
  const counts: Record<NotificationStatus, number> = { pending: 0, sent: 0, dead: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}
