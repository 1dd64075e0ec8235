/**
 * Access that ends by itself, over HTTP (issue 33): `expiresAt` / `validFor` on a request, an environment's
 * `maxAccessDuration` and `defaultAccessDuration`, `expiresAt` on every form of the grant, the `expiringBefore`
 * search, no approval after the end, and no access in effect past it even before the sweep ran. Time is controlled by
 * writing `expires_at` into the past straight in the database; nothing here waits for a clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { authAnswer, call, created, expectStatus, lastSegment } from '../support/http';
import { newApplication } from '../support/fixtures';
import { expectError, expectFieldErrors } from '../support/errors';
import { grantAuditOf } from '../support/audit';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let n = 0;

const DAY = 86_400_000;
const G = '/application_access_grants';

beforeAll(async () => {
  ({ app, t } = await startWithTenant('expiring'));
  w = await accessWorld(app, t, 'ex');
});
afterAll(async () => app?.stop());

/** A stream of its own per test: no two tests' requests are the same grant. */
const freshStream = () => worldStream(app, w, `ex-stream-${++n}`);

const ask = (stream: any, environment: any, extra: Record<string, unknown> = {}) => call(app, 'POST', G, {
  token: w.appOwner.token,
  body: { applicationId: w.application.uid, streamId: stream.uid, environmentId: environment.uid, accessType: 'CONSUMER', ...extra },
});

const setBounds = async (environment: any, bounds: Record<string, unknown>) =>
  expectStatus(await call(app, 'PATCH', `/environments/${environment.uid}`, { token: t.admin.token, body: bounds }), 200);

/** Moves a grant's end into the past, as time passing would. */
const endedAgo = (uid: string, ms = 1000) => app.models.ApplicationAccessGrant.update({ expiresAt: new Date(Date.now() - ms) }, { where: { uid } });

const within = (iso: string, from: number, to: number) => {
  const at = Date.parse(iso);
  expect(at).toBeGreaterThanOrEqual(from);
  expect(at).toBeLessThanOrEqual(to);
};

describe('a request names its end', () => {
  it('expiresAt is kept exactly and shown on the plain reply, the HAL item, the search and the access', async () => {
    const stream = await freshStream();
    const res = await ask(stream, w.managed, { expiresAt: '2099-06-30T18:00:00.250+02:00' });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBe('2099-06-30T16:00:00.250Z');
    const item = expectStatus(await call(app, 'GET', `${G}/${res.body.uid}`, { token: w.appOwner.token }), 200).body;
    expect(item.expiresAt).toBe('2099-06-30T16:00:00.250Z');
    const found = expectStatus(await call(app, 'GET', `${G}/search/findByAttributes?streamId=${stream.uid}`, { token: w.appOwner.token }), 200).body;
    expect(found._embedded.applicationAccessGrantResponses.map((g: any) => g.expiresAt)).toEqual(['2099-06-30T16:00:00.250Z']);
    const access = expectStatus(await call(app, 'GET', item._links.applicationAccess.href, { token: w.appOwner.token }), 200).body;
    expect(access._embedded.grants.map((g: any) => g.expiresAt)).toEqual(['2099-06-30T16:00:00.250Z']);
  });

  it('validFor counts from the request', async () => {
    const before = Date.now();
    const res = await ask(await freshStream(), w.managed, { validFor: 'PT12H' });
    expect(res.status).toBe(201);
    within(res.body.expiresAt, before + 12 * 3_600_000, Date.now() + 12 * 3_600_000);
  });

  it('no end asked and no default: no end (null), approved as before', async () => {
    const res = await ask(await freshStream(), w.auto);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'Approved', approved: true, expiresAt: null });
  });

  it('POST {access}/grants takes expiresAt or validFor beside the environment', async () => {
    const stream = await freshStream();
    const access = await created(app, '/application_access', { application: w.application.uid, stream: stream.uid, accessType: 'PRODUCER' }, w.appOwner.token);
    const before = Date.now();
    const res = await call(app, 'POST', `/application_access/${access.uid}/grants`, { token: w.appOwner.token, body: { environment: w.managed.uid, validFor: 'P2W' } });
    expect(res.status).toBe(201);
    within(res.body.expiresAt, before + 14 * DAY, Date.now() + 14 * DAY);
    const bad = await call(app, 'POST', `/application_access/${access.uid}/grants`, { token: w.appOwner.token, body: { environment: w.auto.uid, validFor: 'two weeks' } });
    expectFieldErrors(bad, ['validFor']);
  });

  it.each([
    [{ expiresAt: '2099-01-01T00:00:00Z', validFor: 'P1D' }, ['expiresAt', 'validFor'], 'give expiresAt or validFor, not both'],
    [{ expiresAt: '2020-01-01T00:00:00Z' }, ['expiresAt'], 'must be in the future'],
    [{ expiresAt: '2099-01-01T00:00:00' }, ['expiresAt'], 'time zone'],
    [{ expiresAt: '2099-02-30T00:00:00Z' }, ['expiresAt'], 'not a date and time of the calendar'],
    [{ expiresAt: 4102444800000 }, ['expiresAt'], 'must be string'],
    [{ validFor: '30 days' }, ['validFor'], 'ISO-8601 duration'],
    [{ validFor: 'P1.5D' }, ['validFor'], 'fractions are not taken'],
    [{ validFor: 'P0D' }, ['validFor'], 'longer than zero'],
    [{ validFor: '-P1D' }, ['validFor'], 'negative'],
  ])('%j → 400 naming %j', async (extra, fields, fragment) => {
    const stream = await freshStream();
    const body = expectFieldErrors(await ask(stream, w.managed, extra), fields);
    expect(body.errors[0]).toContain(fragment);
    // Nothing was made: the same request without the bad field goes through.
    expect((await ask(stream, w.managed)).status).toBe(201);
  });
});

describe("an environment's bounds", () => {
  let bounded: any;
  beforeAll(async () => {
    bounded = await created(app, '/environments', {
      name: 'ex-bounded', shortName: 'exbounded', instance: w.instance.uid, owners: w.streamTeam.uid, maxAccessDuration: 'p90d', defaultAccessDuration: 'P30D',
    }, t.admin.token);
    expect(bounded).toMatchObject({ maxAccessDuration: 'P90D', defaultAccessDuration: 'P30D' });
    await created(app, '/application_principals', [{ principal: 'ex-bounded-client', custom: true, application: w.application.uid, environment: bounded.uid }], w.appOwner.token);
  });

  const configuredThere = async () => {
    const stream = await freshStream();
    await created(app, '/stream_configs', { stream: stream.uid, environment: bounded.uid }, w.streamOwner.token);
    return stream;
  };

  it('the default applies when a request names no end', async () => {
    const before = Date.now();
    const res = await ask(await configuredThere(), bounded);
    expect(res.status).toBe(201);
    within(res.body.expiresAt, before + 30 * DAY, Date.now() + 30 * DAY);
  });

  it('up to the maximum is taken; beyond it is 400 naming the field', async () => {
    expect((await ask(await configuredThere(), bounded, { validFor: 'P90D' })).status).toBe(201);
    expect((await ask(await configuredThere(), bounded, { expiresAt: new Date(Date.now() + 89 * DAY).toISOString() })).status).toBe(201);
    const stream = await configuredThere();
    const longer = expectFieldErrors(await ask(stream, bounded, { validFor: 'P91D' }), ['validFor']);
    expect(longer.errors[0]).toContain("maxAccessDuration P90D");
    expectFieldErrors(await ask(stream, bounded, { validFor: 'P1Y' }), ['validFor']);
    expectFieldErrors(await ask(stream, bounded, { expiresAt: new Date(Date.now() + 91 * DAY).toISOString() }), ['expiresAt']);
  });

  it('a PUT that leaves the bounds out keeps them; null lifts them', async () => {
    const { uid, name, shortName } = bounded;
    const put = expectStatus(await call(app, 'PUT', `/environments/${uid}`, { token: t.admin.token, body: { name, shortName, instance: w.instance.uid, owners: w.streamTeam.uid } }), 200);
    expect(put.body).toMatchObject({ maxAccessDuration: 'P90D', defaultAccessDuration: 'P30D' });
    const env = await created(app, '/environments', { name: 'ex-lifted', shortName: 'exlifted', instance: w.instance.uid, owners: w.streamTeam.uid, maxAccessDuration: 'P1D' }, t.admin.token);
    expect((await setBounds(env, { maxAccessDuration: null })).body).toMatchObject({ maxAccessDuration: null, defaultAccessDuration: null });
  });

  it.each([
    [{ maxAccessDuration: 'ninety days' }, 'maxAccessDuration', 'ISO-8601 duration'],
    [{ defaultAccessDuration: 'P1.5D' }, 'defaultAccessDuration', 'fractions'],
    [{ defaultAccessDuration: 'P91D' }, 'defaultAccessDuration', 'exceed maxAccessDuration P90D'],
    [{ maxAccessDuration: 'P29D' }, 'defaultAccessDuration', 'exceed maxAccessDuration P29D'],
    [{ maxAccessDuration: 'P1M' }, 'defaultAccessDuration', 'a month counts 28 to 31 days'],
  ])('PATCH %j → 400 naming %s', async (patch, field, fragment) => {
    const res = await call(app, 'PATCH', `/environments/${bounded.uid}`, { token: t.admin.token, body: patch });
    const body = expectFieldErrors(res, [field]);
    expect(body.errors[0]).toContain(fragment);
  });
});

describe('the end of a grant', () => {
  it('a pending grant past its end cannot be approved: 422, no approve link, GET /auth GRANT_APPROVE 403', async () => {
    const grant = expectStatus(await ask(await freshStream(), w.managed, { validFor: 'P1D' }), 201).body;
    expect((await authAnswer(app, w.streamOwner.token, 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', grant.uid)).status).toBe(200);
    await endedAgo(grant.uid);
    expect((await authAnswer(app, w.streamOwner.token, 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', grant.uid)).status).toBe(403);
    const item = expectStatus(await call(app, 'GET', `${G}/${grant.uid}`, { token: w.streamOwner.token }), 200).body;
    expect(Object.keys(item._links)).not.toContain('approve');
    expect(Object.keys(item._links)).toContain('deny');
    const res = await call(app, 'PUT', `${G}/${grant.uid}`, { token: w.streamOwner.token });
    const body = expectError(res, 422);
    expect(body.errors[0]).toMatch(/^Application Access Grant cannot be approved after its expiresAt \(.+Z\); request access again\.$/);
    // Rights still come first.
    expectError(await call(app, 'PUT', `${G}/${grant.uid}`, { token: w.appOwner.token }), 403);
    expect((await call(app, 'GET', `${G}/${grant.uid}`, { token: w.streamOwner.token })).body.status).toBe('Pending');
  });

  it('an Approved grant past its end gives no access before any sweep: approved false, GET /auth refuses approving it again', async () => {
    const grant = expectStatus(await ask(await freshStream(), w.auto, { validFor: 'P1D' }), 201).body;
    expect(grant).toMatchObject({ status: 'Approved', approved: true });
    await endedAgo(grant.uid);
    const item = expectStatus(await call(app, 'GET', `${G}/${grant.uid}`, { token: w.appOwner.token }), 200).body;
    expect(item).toMatchObject({ status: 'Approved', approved: false });
    expect((await authAnswer(app, w.streamOwner.token, 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', grant.uid)).status).toBe(403);
    // Revoking it by hand stays possible.
    expect((await authAnswer(app, w.appOwner.token, 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', grant.uid)).status).toBe(200);
  });

  it('a Pending request past its end still blocks a new one; the 409 says so, and once cancelled the new one is taken', async () => {
    const stream = await freshStream();
    const first = expectStatus(await ask(stream, w.managed, { validFor: 'P1D' }), 201).body;
    expect(expectError(await ask(stream, w.managed, { validFor: 'P1D' }), 409).errors[0]).not.toMatch(/ended unapproved/);
    await endedAgo(first.uid);
    const blocked = expectError(await ask(stream, w.managed, { validFor: 'P1D' }), 409);
    expect(blocked.errors[0]).toMatch(new RegExp(`; its request ${first.uid} ended unapproved at .+Z: cancel it and request again$`));
    expect((await call(app, 'GET', `${G}/${first.uid}`, { token: w.appOwner.token })).body.status).toBe('Pending');
    expectStatus(await call(app, 'DELETE', `${G}/${first.uid}`, { token: w.appOwner.token }), 204);
    expectStatus(await ask(stream, w.managed, { validFor: 'P1D' }), 201);
  });

  it('renewal is a new request: an Approved grant past its end no longer blocks it (revoked first, by system)', async () => {
    const stream = await freshStream();
    const first = expectStatus(await ask(stream, w.auto, { validFor: 'P1D' }), 201).body;
    expectError(await ask(stream, w.auto, { validFor: 'P1D' }), 409);
    await endedAgo(first.uid);
    const renewed = expectStatus(await ask(stream, w.auto, { validFor: 'P7D' }), 201).body;
    expect(renewed.uid).not.toBe(first.uid);
    const old = (await call(app, 'GET', `${G}/${first.uid}`, { token: w.appOwner.token })).body;
    expect(old).toMatchObject({ status: 'Revoked', processedBy: 'system', comment: 'expired' });
    const revoked = (await grantAuditOf(app, w.application.uid, first.uid)).filter((r) => r.action === 'APPLICATION_ACCESS_REVOKED');
    expect(revoked.map((r) => [r.actor, r.details.reason])).toEqual([['system', 'expired']]);
  });
});

describe('deployments need access in effect', () => {
  it('a Connector whose approved grant is past its end cannot be deployed, before any sweep', async () => {
    const application = await newApplication(app, w.appOwner.token, { tag: 'exd', owners: w.appTeam.uid, kind: 'Connector' });
    const principal = lastSegment(expectStatus(await call(app, 'POST', '/application_principals', {
      token: w.appOwner.token, body: [{ principal: 'exd-client', custom: true, application: application.uid, environment: w.managed.uid }],
    }), 201).body);
    expectStatus(await call(app, 'POST', `/application_authentications/${principal}/activate`, { token: w.appOwner.token }), 200);
    const grant = expectStatus(await call(app, 'POST', G, { token: w.appOwner.token, body: {
      applicationId: application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER', validFor: 'P1D',
    } }), 201).body;
    expectStatus(await call(app, 'PUT', `${G}/${grant.uid}`, { token: w.streamOwner.token }), 200);
    await endedAgo(grant.uid);
    const deploy = await call(app, 'POST', '/application_deployments', {
      token: w.appOwner.token, body: { application: application.uid, environment: w.managed.uid, configs: { topics: 'ex-payments', 'tasks.max': '1' } },
    });
    expectError(deploy, 400, { errors: ['No approved Application Access Grant for this application in this environment'] });
  });
});

describe('search: expiringBefore', () => {
  it('keeps the grants ending before the instant; grants without an end never match', async () => {
    const stream = await freshStream();
    const soon = expectStatus(await ask(stream, w.managed, { expiresAt: '2098-01-01T00:00:00Z' }), 201).body;
    const later = expectStatus(await ask(stream, w.auto, { expiresAt: '2099-01-01T00:00:00Z' }), 201).body;
    const never = expectStatus(await call(app, 'POST', G, { token: w.appOwner.token, body: { applicationId: w.application.uid, streamId: stream.uid, environmentId: w.auto.uid, accessType: 'PRODUCER' } }), 201).body;
    const found = async (query: string) => {
      const res = expectStatus(await call(app, 'GET', `${G}/search/findByAttributes?streamId=${stream.uid}&${query}`, { token: w.appOwner.token }), 200);
      return res.body._embedded.applicationAccessGrantResponses.map((g: any) => g.uid).sort();
    };
    expect(await found('expiringBefore=2098-06-01T00:00:00Z')).toEqual([soon.uid]);
    expect(await found(`expiringBefore=${encodeURIComponent('2099-01-01T00:00:00.001+00:00')}`)).toEqual([soon.uid, later.uid].sort());
    expect(await found('expiringBefore=2099-01-01T00:00:00Z')).toEqual([soon.uid]);
    expect(await found('expiringBefore=2099-06-01T00:00:00Z&statuses=Approved')).toEqual([later.uid]);
    expect(await found('expiringBefore=2000-01-01T00:00:00Z')).toEqual([]);
    expect(never.expiresAt).toBeNull();
  });

  it.each(['tomorrow', '2099-01-01', '2099-01-01T00:00:00'])('expiringBefore=%s → 400 naming it', async (value) => {
    const res = await call(app, 'GET', `${G}/search/findByAttributes?expiringBefore=${value}`, { token: w.appOwner.token });
    expectError(res, 400, { field: 'expiringBefore' });
  });
});
