/**
 * The notification outbox's data layer (issue 44, models/notification.ts) on the test's database: messages written
 * with their change's transaction, claimed by concurrent claimers each exactly once, a lease that runs out claimable
 * again, and a stale holder unable to change what another now holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, enqueue, markFailed, markSent, type Outgoing } from '../../models/notification';
import { nextAttempt } from '../../core/rules/notification-schedule';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';

let app: TestApp;
let t: TestTenant;
const FUTURE = () => new Date(Date.now() + 3_600_000);

beforeAll(async () => { ({ app, t } = await startWithTenant('outbox')); });
afterAll(async () => app?.stop());

const messages = (n: number, tag: string): Outgoing[] => Array.from({ length: n }, (_, i) => ({
  tenantUid: t.tenant.uid as string, event: 'access.requested', channel: 'email', recipient: `${tag}-${i}@example.com`, payload: JSON.stringify({ i }),
}));
/** This file's tenant only: other files share the database and its outbox. */
const mine = () => ({ tenantUid: t.tenant.uid as string });
const clear = () => app.models.Notification.destroy({ where: mine() });

describe('the notification outbox', () => {
  it('keeps what a committed change wrote and nothing of a rolled-back one', async () => {
    await clear();
    await app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, messages(2, 'kept'), transaction));
    await expect(app.models.sequelize.transaction(async (transaction) => {
      await enqueue(app.models.Notification, messages(3, 'lost'), transaction);
      throw new Error('the change failed');
    })).rejects.toThrow('the change failed');
    const rows = await app.models.Notification.findAll({ where: mine(), order: [['recipient', 'ASC']] });
    expect(rows.map((r) => [r.recipient, r.status, r.attempts])).toEqual([['kept-0@example.com', 'pending', 0], ['kept-1@example.com', 'pending', 0]]);
  });

  it('gives each message to exactly one of many concurrent claimers', async () => {
    await clear();
    await app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, messages(120, 'race'), transaction));
    const got: string[][] = [[], [], [], []];
    await Promise.all(got.map(async (mine) => {
      for (;;) {
        const batch = await claim(app.models.Notification, 7, 60_000, new Date(), { tenantUid: t.tenant.uid as string });
        if (batch.length === 0) return;
        mine.push(...batch.map((r) => r.uid));
      }
    }));
    const all = got.flat();
    expect(all).toHaveLength(120);
    expect(new Set(all).size).toBe(120);
    expect(await claim(app.models.Notification, 10, 60_000, new Date(), mine())).toEqual([]);
  });

  it('claims a message again once its lease has run out, and a stale holder then changes nothing', async () => {
    await clear();
    await app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, messages(1, 'lease'), transaction));
    const [first] = await claim(app.models.Notification, 1, 60_000, new Date(), mine());
    expect(await claim(app.models.Notification, 1, 60_000, new Date(), mine())).toEqual([]);
    const later = new Date(Date.now() + 61_000);
    const [again] = await claim(app.models.Notification, 1, 60_000, later, mine());
    expect(again.uid).toBe(first.uid);
    expect(await markSent(app.models.Notification, first)).toBe(false);
    expect(await markSent(app.models.Notification, again)).toBe(true);
    const sent = await app.models.Notification.findByPk(first.uid);
    expect([sent!.status, sent!.attempts, sent!.sentAt !== null, sent!.leaseToken]).toEqual(['sent', 1, true, null]);
  });

  it('tries a failed message again when the schedule says, and dead-letters it after a day', async () => {
    await clear();
    await app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, messages(1, 'fail'), transaction));
    const now = new Date();
    const [row] = await claim(app.models.Notification, 1, 60_000, now, mine());
    const next = nextAttempt(1, now, now, 0);
    expect(await markFailed(app.models.Notification, row, 'connect ECONNREFUSED 127.0.0.1:25', next, now)).toBe(true);
    const failed = (await app.models.Notification.findByPk(row.uid))!;
    expect([failed.status, failed.attempts, failed.lastError, failed.leaseToken]).toEqual(['pending', 1, 'connect ECONNREFUSED 127.0.0.1:25', null]);
    expect(failed.dueAt.getTime()).toBe((next as { retryAt: Date }).retryAt.getTime());
    expect(await claim(app.models.Notification, 1, 60_000, now, mine())).toEqual([]);
    const [retried] = await claim(app.models.Notification, 1, 60_000, FUTURE(), mine());
    expect(retried.uid).toBe(row.uid);
    expect(await markFailed(app.models.Notification, retried, 'x'.repeat(5000), { dead: true })).toBe(true);
    const dead = (await app.models.Notification.findByPk(row.uid))!;
    expect([dead.status, dead.attempts, dead.lastError!.length]).toEqual(['dead', 2, 1000]);
    expect(await claim(app.models.Notification, 1, 60_000, new Date(Date.now() + 86_400_000 * 2), mine())).toEqual([]);
    expect(await app.models.Notification.count({ where: { ...mine(), status: 'dead' } })).toBe(1);
  });
});
