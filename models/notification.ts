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
 * `claimable` again, for the UPDATE of rows named by uid, written so that only the primary key can serve it: with
 * `status = 'pending'` PostgreSQL may choose the `(status, due_at)` index when its statistics lag behind a backlog
 * that grew fast, and then read every pending row to lease twenty.
 */
const stillClaimable = (now: Date) => ({
  status: { [Op.notIn]: ['sent', 'dead'] },
  dueAt: { [Op.lte]: now },
  [Op.or]: [{ leaseUntil: null }, { leaseUntil: { [Op.lt]: now } }],
});

/**
 * Leases up to `limit` due messages for `leaseMs` and answers them (oldest due first). What another claimer leased
 * in between is not among them; nothing is answered twice while its lease lives. `only` narrows the claim to one
 * tenant's messages (the tests, whose files share one database, each deliver their own).
 */
export async function claim(model: Notifications, limit: number, leaseMs: number, now = new Date(), only: { tenantUid?: string } = {}): Promise<NotificationRow[]> {
  // Oldest due first, ties in any order: the `(status, due_at)` index then yields the first rows without a sort.
  const candidates = await model.findAll({ attributes: ['uid'], where: { ...claimable(now), ...only }, order: [['dueAt', 'ASC']], limit });
  if (candidates.length === 0) return [];
  const token = randomBytes(16).toString('hex');
  await model.update(
    { leaseToken: token, leaseUntil: new Date(now.getTime() + leaseMs) },
    { where: { uid: candidates.map((c) => c.uid), ...stillClaimable(now) } },
  );
  // By primary key: the token alone has no index, and the table keeps every sent row.
  return model.findAll({ where: { uid: candidates.map((c) => c.uid), leaseToken: token }, order: [['dueAt', 'ASC'], ['uid', 'ASC']] });
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

/**
 * The states an operator reads (the outbox metric, `npm run admin -- notifications`): a pending row is `pending`
 * until its first attempt and `failed` while it waits for a retry after one; then `sent` or `dead`. Disjoint, so
 * they add up to every row.
 */
export type DeliveryState = 'pending' | 'failed' | 'sent' | 'dead';
export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'failed', 'sent', 'dead'];

export function deliveryState(row: { status: NotificationStatus; attempts: number }): DeliveryState {
  return row.status === 'pending' && row.attempts > 0 ? 'failed' : row.status;
}

const inState = (state: DeliveryState) => {
  if (state === 'pending') return { status: 'pending', attempts: 0 };
  if (state === 'failed') return { status: 'pending', attempts: { [Op.gt]: 0 } };
  return { status: state };
};

/** How many rows are in each delivery state: one grouped COUNT, read by the metric at scrape time. */
export async function countByState(model: Notifications): Promise<Record<DeliveryState, number>> {
  const s = model.sequelize!;
  const rows = await model.findAll({
    attributes: ['status', [s.fn('COUNT', s.col('uid')), 'n'], [s.fn('SUM', s.literal('CASE WHEN attempts > 0 THEN 1 ELSE 0 END')), 'tried']],
    group: ['status'], raw: true,
  }) as unknown as { status: NotificationStatus; n: string | number; tried: string | number | null }[];
  const counts: Record<DeliveryState, number> = { pending: 0, failed: 0, sent: 0, dead: 0 };
  for (const r of rows) {
    if (r.status !== 'pending') counts[r.status] = Number(r.n);
    else [counts.pending, counts.failed] = [Number(r.n) - Number(r.tried ?? 0), Number(r.tried ?? 0)];
  }
  return counts;
}

/** The newest rows first, of one state or all. */
export function listNotifications(model: Notifications, o: { state?: DeliveryState; limit: number }): Promise<NotificationRow[]> {
  return model.findAll({ where: o.state ? inState(o.state) : {}, order: [['createdAt', 'DESC'], ['uid', 'DESC']], limit: o.limit });
}

export async function findNotification(model: Notifications, uid: string): Promise<NotificationRow | null> {
  return model.findByPk(uid);
}

/**
 * Due at once again, as if just written: attempts 0 and no first attempt, so a retried message gets the schedule's
 * whole day of retries rather than dying on its next failure; the last attempt's error and status stay for the
 * reader. A compare-and-set: a sent row is never sent again, and a row a host holds under a live lease is left to
 * it (that host is sending it now). The lease of a host whose lease ran out is taken away, so its late answer
 * changes nothing.
 */
export async function retryNotification(model: Notifications, uid: string, now = new Date()): Promise<{ outcome: 'retried' | 'missing' | 'sent' | 'leased'; row: NotificationRow | null }> {
  const [changed] = await model.update(
    { status: 'pending', dueAt: now, attempts: 0, firstAttemptAt: null, leaseToken: null, leaseUntil: null },
    { where: { uid, status: ['pending', 'dead'], [Op.or]: [{ leaseUntil: null }, { leaseUntil: { [Op.lt]: now } }] } },
  );
  const row = await model.findByPk(uid);
  if (changed === 1) return { outcome: 'retried', row };
  return { outcome: row === null ? 'missing' : row.status === 'sent' ? 'sent' : 'leased', row };
}

/** Every dead row due at once again, as retryNotification makes one: how many. */
export async function retryDead(model: Notifications, now = new Date()): Promise<number> {
  const [changed] = await model.update(
    { status: 'pending', dueAt: now, attempts: 0, firstAttemptAt: null, leaseToken: null, leaseUntil: null },
    { where: { status: 'dead' } },
  );
  return changed;
}

/**
 * Gives up the lease of rows a claimer will not send after all (its batch ran out of time), so another claimer may
 * take them at once rather than when the lease ends; only while the lease is still the claimer's.
 */
export async function release(model: Notifications, rows: NotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await model.update({ leaseToken: null, leaseUntil: null }, { where: { uid: rows.map((r) => r.uid), leaseToken: rows[0].leaseToken } });
}
