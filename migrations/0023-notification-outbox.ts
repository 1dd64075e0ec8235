/**
 * The notification outbox (issue 44): one row per message to deliver (a mail to one recipient, a call of one webhook
 * endpoint), written in the transaction of the change it tells about, so a rolled-back change sends nothing and a
 * committed one is never lost. Every host delivers: a row is claimed by a compare-and-set lease (`lease_token`,
 * `lease_until`), which works alike on PostgreSQL, MySQL, MariaDB 10.3 and Galera (no SKIP LOCKED needed).
 *
 * `status`: pending → sent, or dead after its retries (core/rules/notification-schedule). `due_at` is when it may
 * be tried next; `(status, due_at)` is the index a claim reads.
 */
import type { QueryInterface } from 'sequelize';
import { createTable, int, ref, str, text, timestamp, uid } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'notifications', {
    uid: { ...uid(), primaryKey: true },
    tenant_uid: ref('tenants', false, 'CASCADE'),
    event: str(64, false),
    channel: str(16, false),
    recipient: str(320, false),
    payload: text(false),
    status: str(16, false),
    attempts: { ...int(false), defaultValue: 0 },
    created_at: timestamp(),
    due_at: timestamp(),
    first_attempt_at: timestamp(true),
    sent_at: timestamp(true),
    last_error: str(1000),
    lease_token: str(32),
    lease_until: timestamp(true),
  });
  await qi.addIndex('notifications', ['status', 'due_at'], { name: 'notifications_status_due_ix' });
  await qi.addIndex('notifications', ['tenant_uid', 'created_at'], { name: 'notifications_tenant_created_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('notifications');
}
