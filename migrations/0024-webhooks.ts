/**
 * Webhooks and the rest of issue 44's notifications:
 * - `webhooks`: a tenant's endpoints (`url`, the subscribed `events` as JSON text, `active`), each with its signing
 *   secret sealed by the secret box (core/secret-box) and, during a rotation's overlap, the previous one with the
 *   instant it stops signing;
 * - on the outbox, what the last attempt of a message was (`last_attempt_at`, `last_status`: the endpoint's HTTP
 *   status, null when it never answered), so an endpoint's deliveries are readable; `(recipient, created_at)` lists
 *   them newest first;
 * - on grants, `expiry_warned_at`: set by the compare-and-set that writes the "access expiring" notice, so each
 *   grant is warned once however many sweepers run.
 */
import type { QueryInterface } from 'sequelize';
import { bool, common, createTable, int, str, text, timestamp } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'webhooks', {
    ...common(),
    url: str(2000, false),
    events: text(false),
    active: bool(true),
    secret: text(false),
    previous_secret: text(true),
    previous_secret_until: timestamp(true),
  });
  await qi.addIndex('webhooks', ['tenant_uid', 'active'], { name: 'webhooks_tenant_active_ix' });
  await qi.addColumn('notifications', 'last_attempt_at', timestamp(true));
  await qi.addColumn('notifications', 'last_status', int(true));
  await qi.addIndex('notifications', ['recipient', 'created_at'], { name: 'notifications_recipient_created_ix' });
  await qi.addColumn('application_access_grants', 'expiry_warned_at', timestamp(true));
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeColumn('application_access_grants', 'expiry_warned_at');
  await qi.removeIndex('notifications', 'notifications_recipient_created_ix');
  await qi.removeColumn('notifications', 'last_status');
  await qi.removeColumn('notifications', 'last_attempt_at');
  await qi.dropTable('webhooks');
}
