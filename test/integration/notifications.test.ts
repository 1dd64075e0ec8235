/**
 * Notifications end to end (issue 44), through the API and a real SMTP server on loopback: with the tenant's
 * `notificationsEnabled` "true", an access request mails the stream's owners and a decision mails the requester and
 * the application's owners, each with the portal's page linked; with it "false" (the default) nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpTransport } from '../../providers/mail';
import { startNotificationDispatcher, type Dispatcher } from '../../server/notification-dispatch';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call, created, expectStatus } from '../support/http';
import { bodyOf, headerOf, startSmtp, type TestSmtp } from '../support/smtp';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let smtp: TestSmtp;
let dispatcher: Dispatcher;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'notify');
  w = await accessWorld(app, t, 'nt');
  smtp = await startSmtp();
  dispatcher = startNotificationDispatcher(app.models, { email: smtpTransport(smtp.url, 'Streaming platform <platform@example.com>') }, { intervalMs: 0, messageDomain: 'example.com', only: { tenantUid: t.tenant.uid as string } });
});

afterAll(async () => {
  await dispatcher?.stop();
  await smtp?.close();
  await app?.stop();
});

const setting = async (value: 'true' | 'false') =>
  expectStatus(await call(app, 'PATCH', `/tenants/${t.tenant.uid}`, { token: t.admin.token, body: { settings: { notificationsEnabled: value } } }), 200);
const ask = (accessType: string, stream = w.stream) => created(app, '/application_access_grants', {
  applicationId: w.application.uid, streamId: stream.uid, environmentId: w.managed.uid, accessType,
}, w.appOwner.token);
const outbox = () => app.models.Notification.findAll({ where: { tenantUid: t.tenant.uid }, order: [['createdAt', 'ASC'], ['recipient', 'ASC']] });
const deliver = async () => { while ((await dispatcher.runOnce()) > 0); };

describe('notifications', () => {
  it('writes nothing while the tenant has them off (the default)', async () => {
    await ask('PRODUCER', w.other);
    expect(await outbox()).toEqual([]);
  });

  it("mails a request to the stream's owners, and a decision to the requester and the application's owners", async () => {
    await setting('true');
    smtp.received.length = 0;
    const grant = await ask('CONSUMER');
    const queued = await outbox();
    expect(queued.map((n) => [n.event, n.recipient, n.status])).toEqual([['access.requested', w.streamOwner.email, 'pending']]);
    await deliver();
    expect(smtp.received.map((m) => m.to)).toEqual([[w.streamOwner.email]]);
    const request = bodyOf(smtp.received[0].raw);
    expect(headerOf(request, 'Subject')).toBe(`${w.application.shortName} asks to consume from ${w.stream.name} in ${w.managed.shortName}`);
    expect(request).toContain(`${app.url}/streams/${w.stream.uid}?tab=environments`);

    smtp.received.length = 0;
    expectStatus(await call(app, 'POST', `/application_access_grants/${grant.uid}/deny`, { token: w.streamOwner.token, body: { reason: 'Use the refunds stream' } }), 200);
    await deliver();
    // The requester is the application's owner too: one mail.
    expect(smtp.received.map((m) => m.to)).toEqual([[w.appOwner.email]]);
    const decision = bodyOf(smtp.received[0].raw);
    expect(headerOf(decision, 'Subject')).toBe(`Access denied: ${w.application.shortName} consuming from ${w.stream.name} in ${w.managed.shortName}`);
    expect(decision).toContain('Use the refunds stream');
    expect(decision).toContain(`${app.url}/applications/${w.application.uid}`);
    expect((await outbox()).every((n) => n.status === 'sent')).toBe(true);
  });

  it('writes nothing for a refused change', async () => {
    const before = (await outbox()).length;
    const refused = await call(app, 'POST', '/application_access_grants', {
      token: w.appOwner.token, body: { applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'NOT_A_TYPE' },
    });
    expect(refused.status).toBe(400);
    expect((await outbox()).length).toBe(before);
    await setting('false');
  });
});
