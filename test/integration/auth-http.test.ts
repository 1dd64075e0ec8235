/**
 * Bearer authentication and tenant isolation over HTTP against the real app (docs/contract.md §1.2, §1.3): 401 causes
 * and their WWW-Authenticate header, the realm header, tenant separation (404 not 403), the password grant's
 * failure body, and the TENANT_ADMIN gate on writing clusters.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../auth/keys';
import { issuerOf } from '../../auth/tokens';
import { createSecretBox } from '../../core/secret-box';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError, expectUnauthorized } from '../support/errors';
import { call } from '../support/http';

let app: TestApp;
let a: TestTenant;
let b: TestTenant;
let author: TestUser;
let clusterA: string;
let clusterB: string;

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenant(app, 'auth-a');
  b = await createTenant(app, 'auth-b');
  author = await createUser(app, a, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR'], 'author');
  const ca = await call(app, 'POST', '/clusters', { token: a.admin.token, body: { name: 'a-cluster', bootstrapServers: ['a:9092'] } });
  const cb = await call(app, 'POST', '/clusters', { token: b.admin.token, body: { name: 'b-cluster', bootstrapServers: ['b:9092'] } });
  if (ca.status !== 201 || cb.status !== 201) throw new Error('setup failed');
  clusterA = ca.body.uid;
  clusterB = cb.body.uid;
});
afterAll(async () => app?.stop());

/** An access token for `user` of realm `realm`, signed with the app's own active key, with claims overridden. */
async function craftToken(realm: string, user: TestUser, claims: Record<string, unknown> = {}, signWith?: { pem: string; kid: string }) {
  const keys = createKeyStore(app.models, createSecretBox(app.config));
  const { kid, privateKeyPem } = await keys.activeKey();
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: issuerOf(app.authUrl, realm), sub: user.user.uid, azp: 'self-service', iat: now, exp: now + 300, jti: randomUUID(),
    typ: 'Bearer', preferred_username: user.email, email: user.email, realm_access: { roles: user.user.roles }, ...claims,
  };
  return jwt.sign(payload, signWith?.pem ?? privateKeyPem, { algorithm: 'RS256', keyid: signWith?.kid ?? kid });
}


describe('401 causes', () => {
  it('no Authorization header → 401 with a bare Bearer challenge', async () => {
    expectUnauthorized(await call(app, 'GET', '/clusters'), 'bare');
  });

  it.each([
    ['Basic credentials', 'Basic dXNlcjpwdw=='],
    ['an empty Bearer', 'Bearer '],
  ])('%s → 401', async (_label, authorization) => {
    const res = await call(app, 'GET', '/clusters', { headers: { Authorization: authorization } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it.each([
    ['garbage', 'not-a-jwt'],
    ['three garbage segments', 'aaa.bbb.ccc'],
  ])('a %s token → 401 invalid_token', async (_label, token) => {
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('a valid token is accepted (control)', async () => {
    const res = await call(app, 'GET', '/clusters', { token: await craftToken(a.shortName, a.admin) });
    expect(res.status).toBe(200);
  });

  it('an expired token (beyond the 30 s leeway) → 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await craftToken(a.shortName, a.admin, { iat: now - 600, exp: now - 120 });
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('a token expired within the 30 s leeway is still accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await craftToken(a.shortName, a.admin, { iat: now - 300, exp: now - 5 });
    expect((await call(app, 'GET', '/clusters', { token })).status).toBe(200);
  });

  it('a token signed by another key under the app\'s kid → 401 invalid_token', async () => {
    const { kid } = await createKeyStore(app.models, createSecretBox(app.config)).activeKey();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await craftToken(a.shortName, a.admin, {}, { pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), kid });
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('an unsigned (alg none) token → 401 invalid_token', async () => {
    const real = await craftToken(a.shortName, a.admin);
    const [, payload] = real.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: 'x' })).toString('base64url');
    expectUnauthorized(await call(app, 'GET', '/clusters', { token: `${header}.${payload}.` }));
  });

  it.each([
    ['an unknown issuer', { iss: 'https://evil.example.com/realms/x' }],
    ['an unknown realm', { iss: 'REALM:nope-realm' }],
    ['a refresh token', { typ: 'Refresh' }],
    ['an unknown subject', { sub: 'f'.repeat(32) }],
  ])('%s → 401 invalid_token', async (_label, claims) => {
    const fixed = { ...claims } as Record<string, unknown>;
    if (fixed.iss === 'REALM:nope-realm') fixed.iss = issuerOf(app.authUrl, 'nope-realm');
    expectUnauthorized(await call(app, 'GET', '/clusters', { token: await craftToken(a.shortName, a.admin, fixed) }));
  });

  it('a token not yet valid (nbf two minutes ahead) → 401 invalid_token', async () => {
    const token = await craftToken(a.shortName, a.admin, { nbf: Math.floor(Date.now() / 1000) + 120 });
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('an HS256 token keyed with the realm\'s public key → 401 invalid_token', async () => {
    const jwks = (await (await fetch(`${app.authUrl}/realms/${a.shortName}/protocol/openid-connect/certs`)).json()) as { keys: Array<Record<string, string>> };
    const key = jwks.keys[0];
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuerOf(app.authUrl, a.shortName), sub: a.admin.user.uid, typ: 'Bearer', iat: now, exp: now + 300 };
    for (const secret of [JSON.stringify(key), key.n]) {
      const token = jwt.sign(claims, secret, { algorithm: 'HS256', keyid: key.kid });
      expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
    }
  });

  it('a tampered payload (roles raised, signature kept) → 401 invalid_token', async () => {
    const real = await craftToken(a.shortName, author);
    const [header, payload, signature] = real.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    claims.realm_access = { roles: ['SUPER_ADMIN', 'TENANT_ADMIN'] };
    claims.sub = a.admin.user.uid;
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expectUnauthorized(await call(app, 'POST', '/clusters', { token: forged, body: { name: 'forged', bootstrapServers: ['f:9092'] } }));
    expect((await call(app, 'GET', '/clusters/search/findByName?name=forged', { token: a.admin.token })).body.page.totalElements).toBe(0);
  });

  it('a token under an unknown kid → 401 invalid_token', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await craftToken(a.shortName, a.admin, {}, { pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), kid: 'no-such-kid' });
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('a token of a user of tenant B under realm A → 401 (users are looked up within the realm)', async () => {
    const token = await craftToken(a.shortName, b.admin);
    expectUnauthorized(await call(app, 'GET', '/clusters', { token }));
  });

  it('a deleted user\'s token stops working at once', async () => {
    const gone = await createUser(app, a, ['TENANT_ADMIN'], 'gone');
    expect((await call(app, 'GET', '/clusters', { token: gone.token })).status).toBe(200);
    await gone.user.destroy();
    expectUnauthorized(await call(app, 'GET', '/clusters', { token: gone.token }));
  });

  it('a cookie never authenticates', async () => {
    const res = await call(app, 'GET', '/clusters', { headers: { Cookie: `access_token=${a.admin.token}; Authorization=Bearer ${a.admin.token}` } });
    expect(res.status).toBe(401);
  });
});

describe('realm header', () => {
  it.each([
    ['the same realm', (s: string) => s, 200],
    ['the same realm upper-cased', (s: string) => s.toUpperCase(), 200],
    ['the same realm with spaces around', (s: string) => ` ${s} `, 200],
  ])('%s → %i', async (_label, f, status) => {
    const res = await call(app, 'GET', '/clusters', { token: a.admin.token, headers: { realm: f(a.shortName) } });
    expect(res.status).toBe(status);
  });

  it('the realm of another tenant → 401 invalid_token', async () => {
    expectUnauthorized(await call(app, 'GET', '/clusters', { token: a.admin.token, headers: { realm: b.shortName } }));
  });

  it('an unknown realm → 401', async () => {
    expectUnauthorized(await call(app, 'GET', '/clusters', { token: a.admin.token, headers: { realm: 'no-such-realm' } }));
  });
});

describe('tenant isolation', () => {
  it.each([
    ['GET', undefined],
    ['PATCH', { location: 'x' }],
    ['PUT', { name: 'stolen', bootstrapServers: ['x:9092'] }],
    ['DELETE', undefined],
  ])('tenant A %s on tenant B\'s cluster → 404, not 403', async (method, body) => {
    const res = await call(app, method, `/clusters/${clusterB}`, { token: a.admin.token, body });
    expectError(res, 404);
  });

  it('an invalid PATCH of B\'s cluster by A is 404 too, not a 400 that would confirm it exists', async () => {
    const res = await call(app, 'PATCH', `/clusters/${clusterB}`, { token: a.admin.token, body: { name: '' } });
    expect(res.status).toBe(404);
  });

  it('B\'s cluster is untouched after A\'s attempts', async () => {
    const res = await call(app, 'GET', `/clusters/${clusterB}`, { token: b.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'b-cluster', bootstrapServers: ['b:9092'], location: null });
  });

  it.each([
    ['A', () => a, () => clusterA, () => clusterB],
    ['B', () => b, () => clusterB, () => clusterA],
  ])('tenant %s lists only its own clusters', async (_label, tenant, own, foreign) => {
    const res = await call(app, 'GET', '/clusters?size=10000', { token: tenant().admin.token });
    const uids = res.body._embedded.clusters.map((c: { uid: string }) => c.uid);
    expect(uids).toContain(own());
    expect(uids).not.toContain(foreign());
  });

  it('findByName does not cross tenants', async () => {
    const res = await call(app, 'GET', '/clusters/search/findByName?name=b-cluster', { token: a.admin.token });
    expect(res.body._embedded.clusters).toEqual([]);
  });
});

describe('token endpoint', () => {
  const tokenUrl = (realm: string) => `${app.authUrl}/realms/${realm}/protocol/openid-connect/token`;
  const grant = (realm: string, username: string, password: string) => fetch(tokenUrl(realm), {
    method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password }),
  });

  it.each([
    ['a wrong password', () => a.admin.email, 'wrong-password'],
    ['an unknown user', () => 'nobody@nowhere.test', 'whatever'],
    ['a user of another realm', () => b.admin.email, 'irrelevant'],
  ])('%s → 401 invalid_grant "Invalid user credentials"', async (_label, username, password) => {
    const res = await grant(a.shortName, username(), password);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });
  });

  it('the right password of tenant B\'s admin in realm A is refused too', async () => {
    const res = await grant(a.shortName, b.admin.email, b.admin.password);
    expect(res.status).toBe(401);
  });

  it('a good password yields a token that opens the API', async () => {
    const res = await grant(a.shortName, a.admin.email, a.admin.password);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect((await call(app, 'GET', '/clusters', { token: body.access_token })).status).toBe(200);
  });
});

describe('TENANT_ADMIN gate on clusters', () => {
  it('a user without TENANT_ADMIN gets 403 on create', async () => {
    const res = await call(app, 'POST', '/clusters', { token: author.token, body: { name: 'not-allowed', bootstrapServers: ['b:9092'] } });
    expectError(res, 403, { subErrors: null });
  });

  it.each([
    ['PATCH', { location: 'x' }],
    ['PUT', { name: 'a-cluster', bootstrapServers: ['a:9092'] }],
    ['DELETE', undefined],
  ])('a user without TENANT_ADMIN gets 403 on %s of a visible cluster', async (method, body) => {
    const res = await call(app, method, `/clusters/${clusterA}`, { token: author.token, body });
    expect(res.status).toBe(403);
  });

  it('403 comes before validation: an invalid body from a non-admin is still 403', async () => {
    const res = await call(app, 'PATCH', `/clusters/${clusterA}`, { token: author.token, body: { name: '' } });
    expect(res.status).toBe(403);
  });

  it('the non-admin reads clusters without edit/delete/create links', async () => {
    const list = await call(app, 'GET', '/clusters', { token: author.token });
    expect(list.status).toBe(200);
    expect(list.body._links.create).toBeUndefined();
    expect(list.body._embedded.clusters.length).toBeGreaterThan(0);
    for (const c of list.body._embedded.clusters) {
      expect(c._links.edit).toBeUndefined();
      expect(c._links.delete).toBeUndefined();
    }
    const one = await call(app, 'GET', `/clusters/${clusterA}`, { token: author.token });
    expect(one.status).toBe(200);
    expect(Object.keys(one.body._links).sort()).toEqual(['cluster', 'self']);
  });

  it('the admin sees edit, delete and create links (control)', async () => {
    const list = await call(app, 'GET', '/clusters', { token: a.admin.token });
    expect(list.body._links.create.href).toBe(`${app.api}/clusters`);
    const one = await call(app, 'GET', `/clusters/${clusterA}`, { token: a.admin.token });
    expect(one.body._links.edit.href).toBe(one.body._links.self.href);
    expect(one.body._links.delete.href).toBe(one.body._links.self.href);
  });
});

describe('XSRF', () => {
  it('a mutating call with an XSRF-TOKEN cookie but no matching header → 403', async () => {
    const res = await call(app, 'PATCH', `/clusters/${clusterA}`, { token: a.admin.token, body: { description: 'x' }, headers: { Cookie: 'XSRF-TOKEN=abc' } });
    expectError(res, 403);
  });

  it('with the matching X-XSRF-TOKEN header it passes', async () => {
    const res = await call(app, 'PATCH', `/clusters/${clusterA}`, {
      token: a.admin.token, body: { description: 'xsrf ok' }, headers: { Cookie: 'XSRF-TOKEN=abc', 'X-XSRF-TOKEN': 'abc' },
    });
    expect(res.status).toBe(200);
  });

  it('a GET with the cookie alone is not checked', async () => {
    const res = await call(app, 'GET', `/clusters/${clusterA}`, { token: a.admin.token, headers: { Cookie: 'XSRF-TOKEN=abc' } });
    expect(res.status).toBe(200);
  });
});
