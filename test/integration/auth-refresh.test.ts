/**
 * The embedded issuer's refresh_token grant over HTTP against the real app and database (docs/contract.md §1.2: same client,
 * no rotation, the user re-read), and its signing keys across instances: kept in the database, so a token of one
 * instance verifies on another started later, and still verifying after rotation until the grace period ends.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore, ROTATION_GRACE_MS } from '../../auth/keys';
import { issuerOf } from '../../auth/tokens';
import { createSecretBox } from '../../core/secret-box';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';
import {
  basic, claimsOf, createServiceAccount, foreignPem, kidOf, now, passwordForm, secretForm, tokenRequest, type Rec,
} from '../support/token-endpoint';

const SECRET = 'ci-bot-secret';
let app: TestApp;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenant(app, 'refresh-a');
  b = await createTenant(app, 'refresh-b');
  await createServiceAccount(app, a, 'ci-bot', { secret: SECRET });
});
afterAll(async () => app?.stop());

const token = (realm: string, form: Record<string, string>, headers: Record<string, string> = {}) => tokenRequest(app.authUrl, realm, form, headers);

describe('refresh_token', () => {
  const refresh = (realm: string, refreshToken: string, client: Record<string, string> = { client_id: 'self-service' }, headers: Record<string, string> = {}) =>
    token(realm, { grant_type: 'refresh_token', refresh_token: refreshToken, ...client }, headers);
  const login = async (t: TestTenant, user = t.admin) => (await token(t.shortName, passwordForm(user))).body;

  it.each([
    ['form', { client_id: 'self-service' }, {}],
    ['HTTP Basic', {}, basic('self-service', '')],
  ])('client by %s: a new access token and a refresh token expiring with the original; the original stays valid', async (_how, client, headers) => {
    const first = await login(a);
    const originalExp = claimsOf(first.refresh_token).exp;
    for (let i = 0; i < 2; i += 1) { // the original twice: no rotation
      const res = await refresh(a.shortName, first.refresh_token, client, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ expires_in: 300, token_type: 'Bearer', scope: first.scope });
      const next = claimsOf(res.body.refresh_token);
      expect(next).toMatchObject({ typ: 'Refresh', sub: a.admin.user.uid, azp: 'self-service', exp: originalExp });
      expect(res.body.refresh_expires_in).toBe(originalExp - next.iat);
      expect(res.body.refresh_expires_in).toBeGreaterThan(1700);
      expect((await call(app, 'GET', '/tenant', { token: res.body.access_token })).status).toBe(200);
      expect((await refresh(a.shortName, res.body.refresh_token)).status).toBe(200);
    }
  });

  it('re-reads the user: changed roles show in the refreshed access token', async () => {
    const user = await createUser(app, a, ['STREAM_AUTHOR'], 'promoted');
    const { refresh_token } = await login(a, user);
    await user.user.update({ roles: ['STREAM_AUTHOR', 'SCHEMA_ADMIN'] });
    const res = await refresh(a.shortName, refresh_token);
    expect(claimsOf(res.body.access_token).realm_access.roles).toEqual(['STREAM_AUTHOR', 'SCHEMA_ADMIN']);
  });

  /** A refresh token signed with the app's real active key, with claims chosen by the test. */
  async function forgeRefresh(t: TestTenant, claims: Rec, key?: { pem: string; kid: string }) {
    const active = await createKeyStore(app.models, createSecretBox(app.config)).activeKey();
    const payload = { iss: issuerOf(app.authUrl, t.shortName), sub: t.admin.user.uid, azp: 'self-service', typ: 'Refresh', iat: now(), exp: now() + 600, ...claims };
    return jwt.sign(payload, key?.pem ?? active.privateKeyPem, { algorithm: 'RS256', keyid: key?.kid ?? active.kid });
  }

  it.each<[string, string, () => Promise<string>, Record<string, string>?]>([
    ['garbage', 'Invalid refresh token', async () => 'not-a-jwt'],
    ['an access token', 'not a refresh token', async () => (await login(a)).access_token],
    ['an expired refresh token', 'Refresh token expired', () => forgeRefresh(a, { iat: now() - 1900, exp: now() - 1 })],
    ['a refresh token of realm B', 'another realm', async () => (await login(b)).refresh_token],
    ['a refresh token of another issuer host', 'another realm', () => forgeRefresh(a, { iss: `http://evil.example/auth/realms/${a.shortName}` })],
    ['a foreign key under the app\'s kid', 'Invalid refresh token', async () => forgeRefresh(a, {}, { pem: foreignPem(), kid: (await createKeyStore(app.models, createSecretBox(app.config)).activeKey()).kid })],
    ['an unknown kid', 'unknown or retired signing key', () => forgeRefresh(a, {}, { pem: foreignPem(), kid: 'no-such-kid' })],
    ['a token issued to another client', 'issued to another client', () => forgeRefresh(a, { azp: 'ci-bot' })],
    ['a self-service token presented by a service account', 'issued to another client', async () => (await login(a)).refresh_token, secretForm('ci-bot', SECRET)],
    ['the token of a deleted user', 'user no longer exists', async () => {
      const gone = await createUser(app, a, ['STREAM_AUTHOR'], 'gone');
      const { refresh_token } = await login(a, gone);
      await gone.user.destroy();
      return refresh_token;
    }],
  ])('%s → 400 invalid_grant (%s)', async (_case, description, make, client) => {
    const res = await refresh(a.shortName, await make(), client ? { client_id: client.client_id, client_secret: client.client_secret } : undefined);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toContain(description);
  });

  it.each<[string, Record<string, string>, number, string]>([
    ['no refresh_token', { grant_type: 'refresh_token', client_id: 'self-service' }, 400, 'invalid_request'],
    ['no client', { grant_type: 'refresh_token', refresh_token: 'x' }, 400, 'invalid_request'],
    ['an unknown client', { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'ghost', client_secret: 'x' }, 401, 'invalid_client'],
  ])('%s → %i %s', async (_case, form, status, error) => {
    expect(await token(a.shortName, form)).toMatchObject({ status, body: { error } });
  });
});

describe('signing keys across instances', () => {
  const origin = (t: TestApp) => `http://127.0.0.1:${t.port}`;

  it('a token and refresh token of one instance work on another one started later on the same database', async () => {
    const first = await startTestApp();
    let second: TestApp | undefined;
    try {
      const tokens = (await tokenRequest(first.authUrl, a.shortName, passwordForm(a.admin))).body;
      // Behind one PUBLIC_URL, as a restarted or second replica is; the first instance is gone before the second is asked.
      second = await startTestApp({ publicUrl: first.url });
      await first.stop();
      expect((await call(second, 'GET', `${origin(second)}/api/tenant`, { token: tokens.access_token })).status).toBe(200);
      const refreshed = await tokenRequest(`${origin(second)}/auth`, a.shortName, { grant_type: 'refresh_token', client_id: 'self-service', refresh_token: tokens.refresh_token });
      expect(refreshed.status).toBe(200);
    } finally {
      await second?.stop();
    }
  });

  it('after rotation new tokens use the new key and tokens of the old one verify until the grace period ends', async () => {
    const box = createSecretBox(app.config);
    const before = (await token(a.shortName, passwordForm(a.admin))).body;
    const oldKid = kidOf(before.access_token)!;
    const rotatedAt = Date.now();
    await createKeyStore(app.models, box).rotate();
    const retired = await app.models.SigningKey.findOne({ where: { kid: oldKid } });
    expect(retired!.retiredAt!.getTime()).toBeGreaterThanOrEqual(rotatedAt + ROTATION_GRACE_MS - 1000);

    // A new process behind the same PUBLIC_URL reads the rotated key set.
    const fresh = await startTestApp({ publicUrl: app.url });
    try {
      const freshAuth = `${origin(fresh)}/auth`;
      const after = (await tokenRequest(freshAuth, a.shortName, passwordForm(a.admin))).body;
      const newKid = kidOf(after.access_token);
      expect(newKid).not.toBe(oldKid);
      const jwks = await (await fetch(`${freshAuth}/realms/${a.shortName}/protocol/openid-connect/certs`)).json() as Rec;
      expect(jwks.keys.map((k: Rec) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
      expect((await call(fresh, 'GET', `${origin(fresh)}/api/tenant`, { token: before.access_token })).status).toBe(200);
      const refreshed = await tokenRequest(freshAuth, a.shortName, { grant_type: 'refresh_token', client_id: 'self-service', refresh_token: before.refresh_token });
      expect(refreshed.status).toBe(200);
      expect(kidOf(refreshed.body.refresh_token)).toBe(newKid);
    } finally {
      await fresh.stop();
    }
  });

  it('a key past its grace period no longer verifies access or refresh tokens', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const kid = `expired-${randomBytes(6).toString('hex')}`;
    const { n, e } = publicKey.export({ format: 'jwk' });
    await app.models.SigningKey.create({
      kid, privateKey: createSecretBox(app.config).seal(pem), publicJwk: JSON.stringify({ kty: 'RSA', kid, use: 'sig', alg: 'RS256', n, e }),
      createdAt: new Date(Date.now() - 3 * ROTATION_GRACE_MS), retiredAt: new Date(Date.now() - 1000),
    });
    const claims = { iss: issuerOf(app.authUrl, a.shortName), sub: a.admin.user.uid, azp: 'self-service', iat: now(), exp: now() + 300 };
    const access = jwt.sign({ ...claims, typ: 'Bearer' }, pem, { algorithm: 'RS256', keyid: kid });
    const refreshToken = jwt.sign({ ...claims, typ: 'Refresh' }, pem, { algorithm: 'RS256', keyid: kid });
    expect((await call(app, 'GET', '/tenant', { token: access })).status).toBe(401);
    expect(await token(a.shortName, { grant_type: 'refresh_token', client_id: 'self-service', refresh_token: refreshToken }))
      .toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
