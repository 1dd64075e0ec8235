/**
 * Delivering a webhook row of the outbox (issue 44): the endpoint is read as it is now (its URL, whether it is
 * active, its secrets, opened from the secret box only for the call), then one signed POST (providers/webhook, which
 * checks the address it connects to). A removed or paused endpoint is not called: such a row is undeliverable and
 * dead at once rather than retried for a day.
 */
import type { SecretBox } from '../core/secret-box';
import type { Models } from '../models';
import type { NotificationRow } from '../models/notification';
import { signingSecrets } from '../models/webhook';
import { postWebhook, type WebhookPolicy } from '../providers/webhook';

/** A message that no retry can deliver. */
export class Undeliverable extends Error {}

export interface WebhookChannel { send: (row: NotificationRow) => Promise<number> }

export function webhookChannel(models: Models, secrets: SecretBox, policy: WebhookPolicy): WebhookChannel {
  return {
    async send(row) {
      const hook = await models.Webhook.findOne({ where: { uid: row.recipient, tenantUid: row.tenantUid } });
      if (!hook) throw new Undeliverable('the endpoint was removed');
      if (!hook.active) throw new Undeliverable('the endpoint is inactive');
      const now = new Date();
      const outcome = await postWebhook({
        url: hook.url as string, id: row.uid, timestamp: now, body: row.payload, secrets: signingSecrets(hook, now).map((s) => secrets.open(s)),
      }, policy);
      return outcome.status;
    },
  };
}
