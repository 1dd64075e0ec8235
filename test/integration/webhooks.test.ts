/**
 * The `/webhooks` resource (issue 44) through the API: a tenant admin's alone, the signing secret answered once and
 * kept sealed (never in a GET, the audit or the row as plain text), URLs refused by the address rules at their
 * field, the secret rotated with an overlap, and an endpoint's deliveries listed with their last attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf } from '../support/audit';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call, expectStatus, lastSegment } from '../support/http';

let app: TestApp;
let t: TestTenant;
let member: TestUser;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('hooks'));
  member = await createUser(app, t, ['STREAM_AUTHOR'], 'member');
});
afterAll(async () => app?.stop());

const URL_OK = 'https://hooks.example.com/platform';
const register = (body: unknown, token = t.admin.token) => call(app, 'POST', '/webhooks', { token, body });

async function registered(events = ['access.requested']): Promise<{ uid: string; secret: string; body: any }> {
  const res = expectStatus(await register({ url: URL_OK, events }), 201);
  return { uid: lastSegment(res.headers.get('location')), secret: res.body.secret, body: res.body };
}

describe('webhook endpoints', () => {
  it('are registered by a tenant admin, the secret answered once in the Standard Webhooks form and stored sealed', async () => {
    const { uid, secret, body } = await registered(['access.requested', 'access.approved']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(body).toMatchObject({ url: URL_OK, events: ['access.requested', 'access.approved'], active: true, previousSecretValidUntil: null });
    const read = expectStatus(await call(app, 'GET', `/webhooks/${uid}`, { token: t.admin.token }), 200);
    expect(read.text).not.toContain(secret);
    expect(read.body).not.toHaveProperty('secret');
    expect(read.body._links).toMatchObject({ deliveries: { href: expect.stringMatching(/\/webhooks\/\w+\/deliveries$/) }, rotateSecret: expect.any(Object) });
    const list = expectStatus(await call(app, 'GET', '/webhooks', { token: t.admin.token }), 200);
    expect(list.body._embedded.webhooks.map((h: any) => h.uid)).toContain(uid);
    expect(list.text).not.toContain(secret);

    const row = await app.models.Webhook.findByPk(uid);
    expect(String(row!.secret)).not.toContain(secret.slice('whsec_'.length));
    const [entry] = await auditOf(app, { tenantUid: t.tenant.uid, action: 'CREATED', resourceType: 'Tenant' });
    expect(entry.details).toMatchObject({ webhook: { uid, url: URL_OK } });
    expect(JSON.stringify(entry)).not.toContain(secret.slice('whsec_'.length));
  });

  it('are nobody else\'s: a member sees an empty list and 404, and may not register one', async () => {
    const { uid } = await registered();
    const list = expectStatus(await call(app, 'GET', '/webhooks', { token: member.token }), 200);
    expect(list.body._embedded.webhooks).toEqual([]);
    expectStatus(await call(app, 'GET', `/webhooks/${uid}`, { token: member.token }), 404);
    expectStatus(await call(app, 'GET', `/webhooks/${uid}/deliveries`, { token: member.token }), 404);
    expectStatus(await call(app, 'POST', `/webhooks/${uid}/secret`, { token: member.token }), 404);
    expectStatus(await register({ url: URL_OK, events: ['access.requested'] }, member.token), 403);
  });

  it.each([
    ['http://hooks.example.com/x', 'url: must use https'],
    ['https://127.0.0.1/x', 'url: points to a loopback address'],
    ['https://10.1.2.3/x', 'url: points to a private address'],
    ['https://169.254.169.254/latest/meta-data', 'url: points to a cloud metadata address'],
    ['https://[::ffff:127.0.0.1]/x', 'url: points to a loopback address'],
    ['https://localhost/x', 'url: names the local host'],
    ['https://user:pw@hooks.example.com/x', 'url: must not contain a user name or password'],
    ['hooks.example.com/x', 'url: must be an absolute URL'],
  ])('refuse the URL %s at its field (400)', async (url, message) => {
    const res = expectStatus(await register({ url, events: ['access.requested'] }), 400);
    expect(res.body.errors).toContain(message);
    expect(res.body.subErrors).toEqual([expect.objectContaining({ field: 'url' })]);
  });

  it.each([
    [{ url: URL_OK, events: [] }, 'events'],
    [{ url: URL_OK, events: ['access.bogus'] }, 'events'],
    [{ url: URL_OK, events: ['access.denied', 'access.denied'] }, 'events'],
    [{ url: URL_OK }, 'events'],
    [{ events: ['access.requested'] }, 'url'],
  ])('refuse %j naming the field', async (body, field) => {
    const res = expectStatus(await register(body), 400);
    expect(JSON.stringify(res.body.subErrors ?? res.body.errors)).toContain(field);
  });

  it('pause with a PATCH and keep the secret through a PUT', async () => {
    const { uid } = await registered();
    const paused = expectStatus(await call(app, 'PATCH', `/webhooks/${uid}`, { token: t.admin.token, body: { active: false } }), 200);
    expect(paused.body.active).toBe(false);
    const before = (await app.models.Webhook.findByPk(uid))!.secret;
    const replaced = expectStatus(await call(app, 'PUT', `/webhooks/${uid}`, { token: t.admin.token, body: { url: `${URL_OK}/v2`, events: ['access.denied'] } }), 200);
    expect(replaced.body).toMatchObject({ url: `${URL_OK}/v2`, events: ['access.denied'], active: true });
    expect((await app.models.Webhook.findByPk(uid))!.secret).toBe(before);
    expectStatus(await call(app, 'PATCH', `/webhooks/${uid}`, { token: t.admin.token, body: { url: 'https://192.168.1.1/' } }), 400);
  });

  it('rotate the secret: the new one answered once, the previous one signing until the overlap ends, audited without it', async () => {
    const { uid, secret } = await registered();
    const rotated = expectStatus(await call(app, 'POST', `/webhooks/${uid}/secret`, { token: t.admin.token, body: { overlap: 'PT2H' } }), 200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    const until = Date.parse(rotated.body.previousSecretValidUntil);
    expect(until - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(2 * 3600_000);
    const read = expectStatus(await call(app, 'GET', `/webhooks/${uid}`, { token: t.admin.token }), 200);
    expect(read.body.previousSecretValidUntil).toBe(rotated.body.previousSecretValidUntil);
    const row = await app.models.Webhook.findByPk(uid);
    // The previous secret is kept for the overlap, sealed like the current one.
    expect(row!.previousSecret).toBeTruthy();
    expect(String(row!.previousSecret)).not.toContain(secret.slice('whsec_'.length));
    const entries = await auditOf(app, { tenantUid: t.tenant.uid, action: 'UPDATED', resourceType: 'Tenant' });
    const entry = entries.find((e) => e.details?.webhook?.uid === uid)!;
    expect(entry.details.secret).toBe('***');
    expect(JSON.stringify(entries)).not.toContain(rotated.body.secret.slice('whsec_'.length));

    const now = expectStatus(await call(app, 'POST', `/webhooks/${uid}/secret`, { token: t.admin.token, body: { overlap: 'PT0S' } }), 200);
    expect(now.body.previousSecretValidUntil).toBeNull();
    expect((await app.models.Webhook.findByPk(uid))!.previousSecret).toBeNull();
    const tooLong = expectStatus(await call(app, 'POST', `/webhooks/${uid}/secret`, { token: t.admin.token, body: { overlap: 'P8D' } }), 400);
    expect(tooLong.body.errors).toEqual(['overlap: must be at most P7D']);
    expectStatus(await call(app, 'POST', `/webhooks/${uid}/secret`, { token: t.admin.token, body: { overlap: 'soon' } }), 400);
  });

  it('list an endpoint\'s deliveries newest first, with the last attempt', async () => {
    const { uid } = await registered();
    const empty = expectStatus(await call(app, 'GET', `/webhooks/${uid}/deliveries`, { token: t.admin.token }), 200);
    expect(empty.body).toMatchObject({ _embedded: { deliveries: [] }, page: { totalElements: 0 } });
    const base = Date.now();
    await app.models.Notification.bulkCreate([0, 1, 2].map((i) => ({
      uid: `${uid.slice(0, 30)}0${i}`, tenantUid: t.tenant.uid, event: 'access.requested', channel: 'webhook', recipient: uid, payload: '{}',
      status: i === 2 ? 'pending' : 'sent', attempts: 1, createdAt: new Date(base + i * 1000), dueAt: new Date(base + 60_000),
      lastAttemptAt: new Date(base + i * 1000 + 10), lastStatus: i === 2 ? 503 : 204, lastError: i === 2 ? 'HTTP 503' : null,
      sentAt: i === 2 ? null : new Date(base + i * 1000 + 10),
    })));
    const page = expectStatus(await call(app, 'GET', `/webhooks/${uid}/deliveries?size=2`, { token: t.admin.token }), 200);
    expect(page.body._embedded.deliveries.map((d: any) => [d.id.slice(-2), d.status, d.lastStatus])).toEqual([['02', 'pending', 503], ['01', 'sent', 204]]);
    expect(page.body._embedded.deliveries[0]).toMatchObject({ lastError: 'HTTP 503', nextAttemptAt: new Date(base + 60_000).toISOString(), sentAt: null, attempts: 1 });
    expect(page.body.page).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page.body._links.next.href).toContain('page=1');
  });

  it('are removed by a tenant admin, audited as DELETED', async () => {
    const { uid } = await registered();
    expectStatus(await call(app, 'DELETE', `/webhooks/${uid}`, { token: t.admin.token }), 204);
    expectStatus(await call(app, 'GET', `/webhooks/${uid}`, { token: t.admin.token }), 404);
    const deleted = await auditOf(app, { tenantUid: t.tenant.uid, action: 'DELETED', resourceType: 'Tenant' });
    expect(deleted.some((e) => e.details?.webhook?.uid === uid)).toBe(true);
  });
});
