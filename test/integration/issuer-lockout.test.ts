/**
 * Issue 32 §5: brute-force detection at the embedded issuer (Keycloak's model, docs/operations.md). Small settings
 * keep it fast: 2 failures lock for 1 s, 4 for 2 s. A locked account answers exactly as a wrong secret does, an
 * unknown one too and after a hash of its own; success clears the count; every host on the database counts into
 * one count; a tenant admin reads and clears it (audited), nobody else does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivationCount } from '../../core/passwords';
import type { LockoutSettings } from '../../core/config';
import { createTenant, createUser, startTestApp, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';
import { basic, createServiceAccount, passwordForm, secretForm, tokenRequest } from '../support/token-endpoint';

const LOCKOUT: LockoutSettings = { failureFactor: 2, waitIncrementSeconds: 1, maxFailureWaitSeconds: 2, maxDeltaTimeSeconds: 3600 };
const WRONG_PASSWORD = { error: 'invalid_grant', error_description: 'Invalid user credentials' };
const WRONG_SECRET = { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' };

let app: TestApp;
/** A second host on the same database; its own setting locks only at 100 failures, the count it adds to is shared. */
let other: TestApp;
let t: TestTenant;
let stranger: TestTenant;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('lockout', { lockout: LOCKOUT }));
  other = await startTestApp({ lockout: { ...LOCKOUT, failureFactor: 100 } });
  stranger = await createTenant(app, 'lockout-b');
}, 60_000);
afterAll(async () => {
  await other?.stop();
  await app?.stop();
});

const signIn = (host: TestApp, user: TestUser, password = user.password) => tokenRequest(host.authUrl, t.shortName, { ...passwordForm(user), password });
const wrong = (host: TestApp, user: TestUser) => signIn(host, user, `${user.password}-wrong`);
const lockout = (user: TestUser, token = t.admin.token) => call(app, 'GET', `/users/${user.user.uid}/lockout`, { token });
/** The hashes one request cost. */
async function hashesOf<T>(request: () => Promise<T>): Promise<[T, number]> {
  const before = derivationCount();
  const result = await request();
  return [result, derivationCount() - before];
}
/** Waits until the account's stored lock has run out (the stored time, to the millisecond). */
async function outlast(user: TestUser): Promise<void> {
  const row = await app.models.LoginFailure.findByPk(user.user.uid);
  const wait = row?.lockedUntil ? row.lockedUntil.getTime() - Date.now() + 50 : 0;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
/** The user's UPDATED entries as the audit history answers them to a tenant admin. */
async function updatesOf(user: TestUser): Promise<any[]> {
  const res = await call(app, 'GET', `/audit-history?action=UPDATED&resourceId=${user.user.uid}`, { token: t.admin.token });
  expect(res.status, res.text).toBe(200);
  return res.body._embedded.events;
}
const seconds = (from: string, to: string) => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 1000;

describe('password sign-ins', () => {
  it('lock after N failures; then the right password gets the wrong-password answer, after the same hash', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'locked');
    for (let i = 0; i < LOCKOUT.failureFactor; i++) expect(await wrong(app, user)).toMatchObject({ status: 401, body: WRONG_PASSWORD });

    const [right, hashes] = await hashesOf(() => signIn(app, user));
    expect(right).toMatchObject({ status: 401, body: WRONG_PASSWORD });
    expect(hashes).toBe(1);
    expect(right.headers.get('retry-after')).toBeNull();
    expect((await lockout(user)).body).toMatchObject({ locked: true, failures: 2 });
    // Attempts while locked are not counted: the lock already holds.
    expect(await wrong(app, user)).toMatchObject({ status: 401, body: WRONG_PASSWORD });
    expect((await lockout(user)).body).toMatchObject({ locked: true, failures: 2 });
  });

  it('an unknown user, a service account by password and a locked user answer alike, each after one hash', async () => {
    const locked = await createUser(app, t, ['STREAM_AUTHOR'], 'alike');
    for (let i = 0; i < LOCKOUT.failureFactor; i++) await wrong(app, locked);
    await createServiceAccount(app, t, 'alike-bot', { secret: 'alike-bot-secret-1' });
    const attempts = {
      locked: () => signIn(app, locked),
      unknown: () => tokenRequest(app.authUrl, t.shortName, { grant_type: 'password', client_id: 'self-service', username: `nobody-${locked.email}`, password: locked.password }),
      'service account': () => tokenRequest(app.authUrl, t.shortName, { grant_type: 'password', client_id: 'self-service', username: `service-account-alike-bot@${t.shortName}.local`, password: 'alike-bot-secret-1' }),
      'another realm': () => tokenRequest(app.authUrl, stranger.shortName, { grant_type: 'password', client_id: 'self-service', username: locked.email, password: locked.password }),
    };
    for (const [label, attempt] of Object.entries(attempts)) {
      const [res, hashes] = await hashesOf(attempt);
      expect({ label, status: res.status, body: res.body, hashes }).toEqual({ label, status: 401, body: WRONG_PASSWORD, hashes: 1 });
    }
  });

  it('the wait grows with the failures, up to its maximum', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'grows');
    const waits: number[] = [];
    for (let failures = 1; failures <= 4; failures++) {
      await outlast(user);
      await wrong(app, user);
      const state = (await lockout(user)).body;
      expect(state.failures).toBe(failures);
      waits.push(state.locked ? seconds(state.lastFailureAt, state.lockedUntil) : 0);
    }
    // waitIncrement × ⌊failures / failureFactor⌋, at most maxFailureWait.
    expect(waits).toEqual([0, 1, 1, 2]);
  });

  it('a successful sign-in resets the count', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'resets');
    for (let round = 0; round < 3; round++) {
      for (let i = 1; i < LOCKOUT.failureFactor; i++) await wrong(app, user);
      expect((await lockout(user)).body).toMatchObject({ locked: false, failures: LOCKOUT.failureFactor - 1 });
      expect((await signIn(app, user)).status).toBe(200);
      expect((await lockout(user)).body).toMatchObject({ locked: false, failures: 0 });
    }
  });

  it('hosts on one database share one count and one lock; once it runs out the right password opens the account', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'hosts');
    // The failure counted by the other host is the first of the two that lock at this one.
    await wrong(other, user);
    await wrong(app, user);
    expect((await lockout(user)).body).toMatchObject({ locked: true, failures: 2 });
    for (const host of [app, other]) expect(await signIn(host, user)).toMatchObject({ status: 401, body: WRONG_PASSWORD });
    await outlast(user);
    expect((await signIn(other, user)).status).toBe(200);
    expect((await lockout(user)).body).toMatchObject({ locked: false, failures: 0, lastFailureAt: null, lockedUntil: null });
  });

  it('concurrent failures are each counted once, on whichever host they arrive', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'concurrent');
    // The second host locks only at 100: none of these 16 meets a lock, so every one must be counted.
    await Promise.all(Array.from({ length: 16 }, () => wrong(other, user)));
    const row = await app.models.LoginFailure.findByPk(user.user.uid);
    expect(row?.failures).toBe(16);
  });
});

describe('client secrets of service accounts', () => {
  const SECRET = 'locked-bot-secret-0123456789';

  it('lock the client after N failures; then the right secret answers invalid_client like a wrong one', async () => {
    await createServiceAccount(app, t, 'locked-bot', { secret: SECRET });
    expect((await tokenRequest(app.authUrl, t.shortName, secretForm('locked-bot', SECRET))).status).toBe(200);
    for (let i = 0; i < LOCKOUT.failureFactor; i++) {
      expect(await tokenRequest(app.authUrl, t.shortName, secretForm('locked-bot', 'not-the-secret'))).toMatchObject({ status: 401, body: WRONG_SECRET });
    }
    const attempts = {
      'the right secret in the form': () => tokenRequest(app.authUrl, t.shortName, secretForm('locked-bot', SECRET)),
      'the right secret by Basic': () => tokenRequest(app.authUrl, t.shortName, { grant_type: 'client_credentials' }, basic('locked-bot', SECRET)),
      'an unknown client': () => tokenRequest(app.authUrl, t.shortName, secretForm('ghost-bot', SECRET)),
    };
    for (const [label, attempt] of Object.entries(attempts)) {
      const [res, hashes] = await hashesOf(attempt);
      expect({ label, status: res.status, body: res.body, hashes }).toEqual({ label, status: 401, body: WRONG_SECRET, hashes: 1 });
    }
    const bot = (await app.models.User.findOne({ where: { tenantUid: t.tenant.uid, clientId: 'locked-bot' } }))!;
    const state = await call(app, 'GET', `/users/${bot.uid}/lockout`, { token: t.admin.token });
    expect(state.body).toMatchObject({ locked: true, failures: 2 });
  });
});

describe('GET and DELETE /users/{id}/lockout', () => {
  it('a tenant admin sees the lockout, clears it (audited, no secret), and the account signs in again', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'cleared');
    expect((await lockout(user)).body).toEqual({
      locked: false, failures: 0, lastFailureAt: null, lockedUntil: null,
      _links: { self: { href: `${app.api}/users/${user.user.uid}/lockout` }, user: { href: `${app.api}/users/${user.user.uid}` } },
    });
    const item = await call(app, 'GET', `/users/${user.user.uid}`, { token: t.admin.token });
    expect(item.body._links.lockout).toEqual({ href: `${app.api}/users/${user.user.uid}/lockout` });

    for (let i = 0; i < LOCKOUT.failureFactor; i++) await wrong(app, user);
    const locked = (await lockout(user)).body;
    expect(locked).toMatchObject({ locked: true, failures: 2 });
    expect(seconds(locked.lastFailureAt, locked.lockedUntil)).toBe(1);

    const cleared = await call(app, 'DELETE', `/users/${user.user.uid}/lockout`, { token: t.admin.token });
    expect(cleared.status).toBe(204);
    expect((await lockout(user)).body).toMatchObject({ locked: false, failures: 0 });
    expect((await signIn(app, user)).status).toBe(200);

    // An UPDATED of the User, as the specification's actions have it, the change shaped as any field's change.
    const entries = await updatesOf(user);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'UPDATED', actor: t.admin.email, resourceType: 'User', resourceName: user.email, resourceId: user.user.uid });
    expect(entries[0].details).toEqual({ lockout: { old: { failures: 2, lockedUntil: locked.lockedUntil }, new: { failures: 0, lockedUntil: null } } });
    expect(JSON.stringify(entries[0])).not.toContain(user.password);
    // Nothing left to clear: 204 again, and no second entry.
    expect((await call(app, 'DELETE', `/users/${user.user.uid}/lockout`, { token: t.admin.token })).status).toBe(204);
    expect(await updatesOf(user)).toHaveLength(1);
  });

  it('is for tenant admins only (403, no link); another tenant\'s user is 404 to its admin', async () => {
    const user = await createUser(app, t, ['STREAM_AUTHOR'], 'guarded');
    const peer = await createUser(app, t, ['STREAM_ADMIN', 'APPLICATION_ADMIN', 'ENVIRONMENT_ADMIN', 'SCHEMA_ADMIN'], 'peer');
    for (const token of [peer.token, user.token]) {
      expectError(await lockout(user, token), 403);
      expectError(await call(app, 'DELETE', `/users/${user.user.uid}/lockout`, { token }), 403);
      expect((await call(app, 'GET', `/users/${user.user.uid}`, { token })).body._links.lockout).toBeUndefined();
    }
    expectError(await lockout(user, stranger.admin.token), 404);
    expectError(await call(app, 'DELETE', `/users/${user.user.uid}/lockout`, { token: stranger.admin.token }), 404);
    expect(await updatesOf(user)).toEqual([]);
  });
});
