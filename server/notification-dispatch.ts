/**
 * Delivering the notification outbox (issue 44): every process claims due messages (models/notification: a lease,
 * so each goes out once across hosts and workers), sends each through its channel, and marks it sent, or failed
 * with its next attempt (core/rules/notification-schedule) or dead. A full batch is followed at once by the next;
 * otherwise the next look is `intervalMs` later. A failing database or channel never stops the loop; `stop` waits
 * for the batch under way.
 */
import type { Models } from '../models';
import { claim, markFailed, markSent, release, type NotificationRow } from '../models/notification';
import { nextAttempt } from '../core/rules/notification-schedule';
import { logger } from '../core/logger';
import type { Mail, MailTransport } from '../providers/mail';
import { WebhookError } from '../providers/webhook';
import { Undeliverable, type WebhookChannel } from './webhook-channel';

/** The longest one send can take: a webhook's connect and answer bounds, a mail server's socket timeout, with room. */
const SEND_BOUND_MS = 20_000;

export interface Channels { email: MailTransport; webhook?: WebhookChannel }

export interface DispatchOptions {
  intervalMs: number;
  /** Messages claimed at once (20), and how long a claim holds them (60 s: longer than any send's bounds). */
  batch?: number;
  leaseMs?: number;
  /** The domain of each mail's stable Message-ID (the public URL's host). */
  messageDomain: string;
  random?: () => number;
  /** Only this tenant's messages (the tests, whose files share one database); every tenant's otherwise. */
  only?: { tenantUid: string };
}

export interface Dispatcher { stop: () => Promise<void>; runOnce: () => Promise<number> }

/** An email row's payload: the recipient and the words (core/rules/notification-events made them when it was written). */
type EmailPayload = Omit<Mail, 'messageId'>;

/** Sends one row through its channel; answers the endpoint's HTTP status for a webhook, null for a mail. */
async function send(row: NotificationRow, channels: Channels, messageDomain: string): Promise<number | null> {
  if (row.channel === 'webhook' && channels.webhook) return channels.webhook.send(row);
  if (row.channel !== 'email') throw new Undeliverable(`no channel ${row.channel} in this process`);
  const mail = JSON.parse(row.payload) as EmailPayload;
  await channels.email.send({ ...mail, messageId: `<${row.uid}@${messageDomain}>` });
  return null;
}

export function startNotificationDispatcher(models: Models, channels: Channels, o: DispatchOptions): Dispatcher {
  const batch = o.batch ?? 20;
  const leaseMs = o.leaseMs ?? 60_000;
  const random = o.random ?? Math.random;
  let stopped = false;
  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** Sends one claimed row and records the outcome; a database failure recording it ends the batch (see below). */
  const deliver = async (row: NotificationRow): Promise<void> => {
    const now = new Date();
    let status: number | null;
    try {
      status = await send(row, channels, o.messageDomain);
    } catch (err) {
      const next = err instanceof Undeliverable ? { dead: true as const } : nextAttempt(row.attempts + 1, row.firstAttemptAt ?? now, now, random());
      const message = (err as Error).message ?? String(err);
      await markFailed(models.Notification, row, message, next, now, err instanceof WebhookError ? err.status : null);
      logger.warn({ notification: row.uid, event: row.event, channel: row.channel, attempts: row.attempts + 1, error: message, dead: 'dead' in next }, 'notification not delivered');
      return;
    }
    // Sent: a database that fails now leaves the row leased, so it goes out again only once the lease has run out,
    // with the same Message-ID / webhook-id — never at once as if the send had failed.
    await markSent(models.Notification, row, new Date(), status);
  };

  /**
   * One batch: how many messages it claimed. The sends are one after another, so after the first the batch sends
   * only while each send it starts still ends (SEND_BOUND_MS) within the lease; what it did not send is released
   * at once for any claimer rather than sent by two hosts together.
   */
  const runOnce = async (): Promise<number> => {
    const claimedAt = performance.now();
    const rows = await claim(models.Notification, batch, leaseMs, new Date(), o.only);
    for (const [i, row] of rows.entries()) {
      if (i > 0 && performance.now() - claimedAt > leaseMs - SEND_BOUND_MS) {
        await release(models.Notification, rows.slice(i));
        break;
      }
      await deliver(row);
    }
    return rows.length;
  };

  const loop = async (): Promise<void> => {
    let claimed = 0;
    try {
      claimed = await (running = runOnce());
    } catch (err) {
      // The database is away: the messages stay due, the next look finds them.
      logger.warn({ err: (err as Error).message }, 'notification dispatch failed; retrying at the next interval');
    } finally {
      running = undefined;
    }
    if (stopped) return;
    timer = setTimeout(() => void loop(), claimed === batch ? 0 : o.intervalMs);
    timer.unref();
  };

  if (o.intervalMs > 0) {
    timer = setTimeout(() => void loop(), o.intervalMs);
    timer.unref();
  }
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
      channels.email.close();
    },
  };
}
