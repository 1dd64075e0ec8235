/**
 * A tenant's webhook endpoints (issue 44, migrations/0024). The signing secret is kept sealed by the secret box and
 * never rendered; during a rotation's overlap the previous secret signs too, until `previousSecretUntil`.
 */
import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Row, RowModel } from './define';
import { defineModel, jsonText } from './define';
import type { NotificationRow, Notifications } from './notification';
import { boundedTotal, type Order } from './select-sql';

export function defineWebhook(sequelize: Sequelize): RowModel {
  return defineModel(sequelize, 'Webhook', 'webhooks', {
    url: { type: DataTypes.STRING(2000), allowNull: false },
    events: jsonText('events', []),
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    secret: { type: DataTypes.TEXT, allowNull: false },
    previousSecret: { type: DataTypes.TEXT, allowNull: true },
    previousSecretUntil: { type: DataTypes.DATE(3), allowNull: true },
  });
}

/** The tenant's active endpoints subscribed to `event` (their uids), read in the change's transaction. */
export async function endpointsFor(model: RowModel, tenantUid: string, event: string, transaction: Transaction): Promise<string[]> {
  const rows = await model.findAll({ where: { tenantUid, active: true }, attributes: ['uid', 'events'], transaction });
  return rows.filter((r) => (r.events as string[]).includes(event)).map((r) => r.uid as string);
}

/** The sealed secrets that sign a delivery at `now`: the current one, then the previous one while its overlap lasts. */
export function signingSecrets(row: Row, now: Date): string[] {
  const until = row.previousSecretUntil as Date | null;
  return [row.secret as string, ...(row.previousSecret && until && until.getTime() > now.getTime() ? [row.previousSecret as string] : [])];
}

/** A delivery of an endpoint: the outbox row that carries it, as its last attempt left it. */
export type Delivery = Pick<NotificationRow, 'uid' | 'event' | 'status' | 'attempts' | 'createdAt' | 'dueAt' | 'lastAttemptAt' | 'lastStatus' | 'lastError' | 'sentAt'>;

const DELIVERY_ORDER: Order = [['createdAt', 'DESC'], ['uid', 'DESC']];

/**
 * One page of an endpoint's deliveries, newest first, off the `(recipient, created_at)` index, with its total
 * bounded as every listing's (`window` rows past the page's end).
 */
export async function deliveriesOf(model: Notifications, webhookUid: string, page: { page: number; size: number }, window: number): Promise<{ rows: Delivery[]; total: number; capped: boolean }> {
  const where = { recipient: webhookUid, channel: 'webhook' };
  const rows = await model.findAll({ where, order: DELIVERY_ORDER, limit: page.size, offset: page.page * page.size });
  return { rows, ...(await boundedTotal(model as never, [where], page, DELIVERY_ORDER, window, rows.length)) };
}
