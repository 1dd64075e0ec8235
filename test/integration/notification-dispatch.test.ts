/**
 * Delivering the outbox (issue 44, server/notification-dispatch.ts) to a real SMTP server on loopback (smtp-server,
 * from the nodemailer project): each due message sent once with its stable Message-ID, a refused one tried again
 * later with its error kept, and one failing for a day dead-lettered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, type Outgoing } from '../../models/notification';
import { smtpTransport } from '../../providers/mail';
import { startNotificationDispatcher, type Dispatcher } from '../../server/notification-dispatch';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { headerOf as header, startSmtp, type TestSmtp } from '../support/smtp';

let app: TestApp;
let t: TestTenant;
let smtp: TestSmtp;
let dispatcher: Dispatcher;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('dispatch'));
  smtp = await startSmtp();
  dispatcher = startNotificationDispatcher(app.models, { email: smtpTransport(smtp.url, 'Streaming platform <platform@example.com>') }, {
    intervalMs: 0, messageDomain: 'platform.example.com', random: () => 0, only: { tenantUid: t.tenant.uid as string },
  });
});

afterAll(async () => {
  await dispatcher?.stop();
  await smtp?.close();
  await app?.stop();
});

const mail = (to: string, subject: string): Outgoing => ({
  tenantUid: t.tenant.uid as string, event: 'access.requested', channel: 'email', recipient: to,
  payload: JSON.stringify({ to: { name: 'Sam Stream', email: to }, subject, text: `Open it in the portal: https://portal.example.com/streams/s1`, html: '<p>x</p>' }),
});
const write = (...messages: Outgoing[]) => app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, messages, transaction));

describe('delivering notification mails over SMTP', () => {
  it('sends each due message once, with its stable Message-ID, and marks it sent', async () => {
    await app.models.Notification.destroy({ where: { tenantUid: t.tenant.uid } });
    smtp.received.length = 0;
    await write(mail('sam@example.com', 'billing asks to consume from payments in dev'), mail('pat@example.com', 'billing asks to produce to payments in dev'));
    expect(await dispatcher.runOnce()).toBe(2);
    expect(await dispatcher.runOnce()).toBe(0);
    expect(smtp.received.map((r) => r.to).sort()).toEqual([['pat@example.com'], ['sam@example.com']]);
    const rows = await app.models.Notification.findAll({ where: { tenantUid: t.tenant.uid }, order: [['recipient', 'ASC']] });
    expect(rows.map((r) => [r.recipient, r.status, r.attempts])).toEqual([['pat@example.com', 'sent', 1], ['sam@example.com', 'sent', 1]]);
    const sam = smtp.received.find((r) => r.to[0] === 'sam@example.com')!.raw;
    const samRow = rows.find((r) => r.recipient === 'sam@example.com')!;
    expect(header(sam, 'Message-ID')).toBe(`<${samRow.uid}@platform.example.com>`);
    expect(header(sam, 'Subject')).toBe('billing asks to consume from payments in dev');
    expect(header(sam, 'From')).toBe('Streaming platform <platform@example.com>');
    expect(sam).toContain('https://portal.example.com/streams/s1');
  });

  it('tries a refused message again later, its error kept; after a day of failures it is dead', async () => {
    await app.models.Notification.destroy({ where: { tenantUid: t.tenant.uid } });
    smtp.refused.add('gone@example.com');
    await write(mail('gone@example.com', 'nobody reads this'));
    expect(await dispatcher.runOnce()).toBe(1);
    const failed = (await app.models.Notification.findOne({ where: { recipient: 'gone@example.com' } }))!;
    expect([failed.status, failed.attempts]).toEqual(['pending', 1]);
    expect(failed.lastError).toMatch(/550/);
    expect(failed.dueAt.getTime()).toBeGreaterThan(Date.now());
    expect(await dispatcher.runOnce()).toBe(0);
    // A day after its first attempt, due again and refused again: dead.
    await failed.update({ dueAt: new Date(Date.now() - 1000), firstAttemptAt: new Date(Date.now() - 25 * 3_600_000) });
    expect(await dispatcher.runOnce()).toBe(1);
    const dead = (await app.models.Notification.findByPk(failed.uid))!;
    expect([dead.status, dead.attempts]).toEqual(['dead', 2]);
  });
});
