/**
 * Every notification event end to end (issue 44): through the API (and the expiry sweep for the ends of access), a
 * real SMTP server (smtp-server) and a loopback webhook receiver that verifies each delivery with the
 * `standardwebhooks` library. Each event reaches the right people with the portal's page linked, and each endpoint
 * subscribed to it as a signed CloudEvent; a rotated secret signs beside the new one; no secret reaches the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { createSecretBox } from '../../core/secret-box';
import { expireGrant, warnExpiringGrants } from '../../models/grant-expiry';
import { smtpTransport } from '../../providers/mail';
import { startNotificationDispatcher, type Dispatcher } from '../../server/notification-dispatch';
import { webhookChannel } from '../../server/webhook-channel';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { newApplication } from '../support/fixtures';
import { call, created, expectStatus, lastSegment } from '../support/http';
import { startLogCapture } from '../support/log-capture';
import { bodyOf, headerOf, startSmtp, type TestSmtp } from '../support/smtp';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver';

const EVENTS = ['access.requested', 'access.approved', 'access.denied', 'access.revoked', 'access.cancelled', 'access.expiring', 'access.expired', 'deployment.started', 'deployment.stopped', 'deployment.failed'];
const policy = { allowHttp: true, allowPrivate: true };

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let smtp: TestSmtp;
let hooks: TestReceiver;
let dispatcher: Dispatcher;
let hook: { uid: string; secret: string };

beforeAll(async () => {
  ({ app, t } = await startWithTenant('nevents', { notifications: { ...loadConfig({}).notifications, intervalMs: 0, webhookAllowHttp: true, webhookAllowPrivate: true } }));
  w = await accessWorld(app, t, 'ne');
  [smtp, hooks] = await Promise.all([startSmtp(), startReceiver()]);
  dispatcher = startNotificationDispatcher(app.models, {
    email: smtpTransport(smtp.url, 'Streaming platform <platform@example.com>'),
    webhook: webhookChannel(app.models, createSecretBox(app.config), policy),
  }, { intervalMs: 0, messageDomain: 'example.com', random: () => 0, only: { tenantUid: t.tenant.uid as string } });
  expectStatus(await call(app, 'PATCH', `/tenants/${t.tenant.uid}`, { token: t.admin.token, body: { settings: { notificationsEnabled: 'true' } } }), 200);
  const res = expectStatus(await call(app, 'POST', '/webhooks', { token: t.admin.token, body: { url: hooks.url, events: EVENTS } }), 201);
  hook = { uid: lastSegment(res.headers.get('location')), secret: res.body.secret };
});

afterAll(async () => {
  await dispatcher?.stop();
  await Promise.all([smtp?.close(), hooks?.close()]);
  await app?.stop();
});

/** Delivers everything due; answers the mails (recipients, subject, text) and the webhook events that arrived. */
async function delivered() {
  smtp.received.length = 0;
  hooks.received.length = 0;
  while ((await dispatcher.runOnce()) > 0);
  const mails = smtp.received.map((m) => ({ to: m.to, subject: headerOf(bodyOf(m.raw), 'Subject'), text: bodyOf(m.raw) }));
  return { mails, events: [...hooks.received] };
}

const grantOf = (accessType: string, environment = w.managed, extra: Record<string, unknown> = {}) => created(app, '/application_access_grants', {
  applicationId: w.application.uid, streamId: w.stream.uid, environmentId: environment.uid, accessType, ...extra,
}, w.appOwner.token);
const appPage = () => `${app.url}/applications/${w.application.uid}`;

describe('notification events, by mail and signed webhook', () => {
  it("a request reaches the stream's owners, then approval and revocation the requester and the application's owners", async () => {
    const grant = await grantOf('CONSUMER');
    let got = await delivered();
    expect(got.mails.map((m) => m.to)).toEqual([[w.streamOwner.email]]);
    expect(got.mails[0].text).toContain(`${app.url}/streams/${w.stream.uid}?tab=environments`);
    expect(got.events).toHaveLength(1);
    const [requested] = got.events;
    expect(hooks.verifies(requested, hook.secret)).toBe(true);
    expect(requested.event).toMatchObject({
      specversion: '1.0', type: 'platform.access.requested', subject: grant.uid, source: `${app.url}/api`, datacontenttype: 'application/json',
      data: { event: 'access.requested', tenant: t.shortName, stream: { uid: w.stream.uid }, application: { uid: w.application.uid }, environment: { uid: w.managed.uid }, accessType: 'CONSUMER', actor: { email: w.appOwner.email }, link: `${app.url}/streams/${w.stream.uid}?tab=environments` },
    });
    const row = await app.models.Notification.findOne({ where: { channel: 'webhook', recipient: hook.uid, event: 'access.requested' } });
    expect(requested.headers['webhook-id']).toBe(row!.uid);
    expect(row).toMatchObject({ status: 'sent', lastStatus: 204 });

    expectStatus(await call(app, 'PUT', `/application_access_grants/${grant.uid}`, { token: w.streamOwner.token }), 200);
    got = await delivered();
    expect(got.mails.map((m) => [m.to, m.subject])).toEqual([[[w.appOwner.email], `Access approved: ${w.application.shortName} consuming from ${w.stream.name} in ${w.managed.shortName}`]]);
    expect(got.mails[0].text).toContain(appPage());
    expect(got.events.map((e) => [e.event.type, e.event.data.actor?.email])).toEqual([['platform.access.approved', w.streamOwner.email]]);

    expectStatus(await call(app, 'POST', `/application_access_grants/${grant.uid}/revoke`, { token: w.streamOwner.token, body: { reason: 'moved to refunds' } }), 200);
    got = await delivered();
    expect(got.mails.map((m) => m.subject)).toEqual([`Access revoked: ${w.application.shortName} consuming from ${w.stream.name} in ${w.managed.shortName}`]);
    expect(got.events.map((e) => [e.event.type, e.event.data.reason])).toEqual([['platform.access.revoked', 'moved to refunds']]);
  });

  it('a denial and a cancellation reach the requester and the application\'s owners', async () => {
    const denied = await grantOf('PRODUCER');
    expectStatus(await call(app, 'POST', `/application_access_grants/${denied.uid}/deny`, { token: w.streamOwner.token, body: { reason: 'not yours' } }), 200);
    const cancelled = await grantOf('PRODUCER');
    expect((await call(app, 'DELETE', `/application_access_grants/${cancelled.uid}`, { token: w.appOwner.token })).status).toBeLessThan(300);
    const got = await delivered();
    expect(got.mails.filter((m) => m.to[0] === w.appOwner.email).map((m) => m.subject?.split(':')[0]).sort()).toEqual(['Access denied', 'Request cancelled']);
    expect(got.events.map((e) => e.event.type).sort()).toEqual(['platform.access.cancelled', 'platform.access.denied', 'platform.access.requested', 'platform.access.requested']);
    expect(got.events.every((e) => hooks.verifies(e, hook.secret))).toBe(true);
  });

  it("access ending within a week warns the application's owners once, and its end tells them", async () => {
    const grant = await grantOf('CONSUMER', w.auto, { validFor: 'P3D' });
    await delivered();
    expect(await warnExpiringGrants(app.models, new Date(), app.url)).toContain(grant.uid);
    let got = await delivered();
    expect(got.mails.map((m) => m.to)).toEqual([[w.appOwner.email]]);
    expect(got.mails[0].subject).toMatch(new RegExp(`^Access ends .* UTC: ${w.application.shortName} consuming from ${w.stream.name}$`));
    expect(got.events.map((e) => [e.event.type, e.event.data.actor, e.event.data.expiresAt])).toEqual([['platform.access.expiring', null, grant.expiresAt]]);
    expect(await warnExpiringGrants(app.models, new Date(), app.url)).not.toContain(grant.uid);
    expect((await delivered()).mails).toEqual([]);

    const row = await app.models.ApplicationAccessGrant.findByPk(grant.uid);
    const later = new Date(Date.parse(grant.expiresAt) + 1000);
    expect(await app.models.sequelize.transaction((tx) => expireGrant(app.models, row!, later, tx, app.url))).toBe(true);
    got = await delivered();
    expect(got.mails.map((m) => [m.to, m.subject])).toEqual([[[w.appOwner.email], `Access ended: ${w.application.shortName} consuming from ${w.stream.name} in ${w.auto.shortName}`]]);
    expect(got.mails[0].text).toContain(appPage());
    expect(got.events.map((e) => e.event.type)).toEqual(['platform.access.expired']);
  });

  it("a deployment started, stopped, and a start that failed reach the application's owners", async () => {
    const ksml = await newApplication(app, w.appOwner.token, { tag: 'ne', owners: w.appTeam.uid, kind: 'Ksml' });
    expectStatus(await call(app, 'POST', '/application_authentications', { token: w.appOwner.token, body: { applicationId: ksml.uid, environmentId: w.auto.uid } }), 201);
    const grant = await created(app, '/application_access_grants', { applicationId: ksml.uid, streamId: w.stream.uid, environmentId: w.auto.uid, accessType: 'CONSUMER' }, w.appOwner.token);
    const posted = expectStatus(await call(app, 'POST', '/application_deployments', {
      token: w.appOwner.token, body: { application: ksml.uid, environment: w.auto.uid, configs: { ksml_definition: 'pipelines:\n  main:\n    from: ne-payments\n    forEach:\n      code: log.info("x")\n' } },
    }), 201);
    const deployment = { uid: lastSegment(posted.headers.get('location')) };
    await delivered();
    const operate = (action: string) => call(app, 'PUT', `/application_deployments/${deployment.uid}/operation?action=${action}`, { token: w.appOwner.token });
    expectStatus(await operate('START'), 200);
    expectStatus(await operate('STOP'), 200);
    let got = await delivered();
    expect(got.mails.map((m) => [m.to, m.subject])).toEqual([
      [[w.appOwner.email], `Deployment of ${ksml.shortName} in ${w.auto.shortName} started`],
      [[w.appOwner.email], `Deployment of ${ksml.shortName} in ${w.auto.shortName} stopped`],
    ]);
    expect(got.mails[0].text).toContain(`${app.url}/applications/${ksml.uid}`);
    expect(got.events.map((e) => [e.event.type, e.event.subject])).toEqual([['platform.deployment.started', deployment.uid], ['platform.deployment.stopped', deployment.uid]]);

    expectStatus(await call(app, 'POST', `/application_access_grants/${grant.uid}/revoke`, { token: w.appOwner.token, body: { reason: 'done' } }), 200);
    await delivered();
    expectStatus(await operate('START'), 400);
    got = await delivered();
    expect(got.mails.map((m) => m.subject)).toEqual([`Deployment of ${ksml.shortName} in ${w.auto.shortName} failed`]);
    expect(got.mails[0].text).toContain('No approved Application Access Grant');
    expect(got.events.map((e) => [e.event.type, e.event.data.error])).toEqual([['platform.deployment.failed', 'No approved Application Access Grant for this application in this environment']]);
  });

  it('signs with both secrets during a rotation overlap, and logs neither', async () => {
    const logs = startLogCapture();
    try {
      const rotated = expectStatus(await call(app, 'POST', `/webhooks/${hook.uid}/secret`, { token: t.admin.token, body: { overlap: 'PT1H' } }), 200);
      await grantOf('PRODUCER', w.managed, { streamId: w.other.uid });
      hooks.answer(503);
      let got = await delivered();
      const [first] = got.events;
      expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(hooks.verifies(first, rotated.body.secret)).toBe(true);
      expect(hooks.verifies(first, hook.secret)).toBe(true);
      const row = await app.models.Notification.findOne({ where: { uid: String(first.headers['webhook-id']) } });
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 503, lastError: 'HTTP 503' });
      hooks.answer(204);
      await row!.update({ dueAt: new Date() });
      got = await delivered();
      expect(got.events.map((e) => e.headers['webhook-id'])).toEqual([row!.uid]);
      const text = logs.lines.join('\n');
      for (const secret of [hook.secret, rotated.body.secret]) expect(text).not.toContain(secret.slice('whsec_'.length));
      hook.secret = rotated.body.secret;
    } finally {
      logs.stop();
    }
  });

  it('lets no name add a mail header: a CR/LF in a person\'s name reaches the server as part of the encoded name', async () => {
    await app.models.User.update({ lastName: 'Owner\r\nBcc: intruder@example.com' }, { where: { uid: w.streamOwner.user.uid } });
    await app.models.Application.update({ name: 'Billing\r\nX-Injected: 1' }, { where: { uid: w.application.uid } });
    try {
      const grant = await grantOf('CONSUMER', w.managed, { streamId: w.other.uid });
      const received = [...(await delivered()).mails];
      expect(received.map((m) => m.to)).toEqual([[w.streamOwner.email]]);
      const raw = smtp.received[0].raw;
      expect(raw).not.toMatch(/^Bcc:/mi);
      expect(raw).not.toMatch(/^X-Injected:/mi);
      expect(received[0].text).toContain('Billing X-Injected: 1');
      expect((await call(app, 'DELETE', `/application_access_grants/${grant.uid}`, { token: w.appOwner.token })).status).toBeLessThan(300);
      await delivered();
    } finally {
      await app.models.User.update({ lastName: 'ne-streamowner' }, { where: { uid: w.streamOwner.user.uid } });
      await app.models.Application.update({ name: w.application.name }, { where: { uid: w.application.uid } });
    }
  });

  it('makes no call to a paused endpoint: its deliveries are dead at once, with the reason', async () => {
    expectStatus(await call(app, 'PATCH', `/webhooks/${hook.uid}`, { token: t.admin.token, body: { active: false } }), 200);
    await app.models.Notification.create({
      uid: 'f'.repeat(32), tenantUid: t.tenant.uid, event: 'access.requested', channel: 'webhook', recipient: hook.uid, payload: '{}', status: 'pending', attempts: 0, createdAt: new Date(), dueAt: new Date(),
    });
    expect((await delivered()).events).toEqual([]);
    expect(await app.models.Notification.findByPk('f'.repeat(32))).toMatchObject({ status: 'dead', lastError: 'the endpoint is inactive' });
    await grantOf('CONSUMER', w.managed, { streamId: w.other.uid });
    expect(await app.models.Notification.count({ where: { recipient: hook.uid, status: 'pending' } })).toBe(0);
  });
});
