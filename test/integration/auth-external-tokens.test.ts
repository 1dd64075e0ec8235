/**
 * External IdP mode (AUTH_URL, docs/contract.md §1.3), tokens: verified against the realm's JWKS of a second, independent
 * issuer on a loopback port (cached, refetched once on an unknown kid, rate-limited against floods of random
 * kids, 502 while the IdP is unreachable), and every kind of foreign or broken token refused with 401.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import jwt, { type SignOptions } from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectUnauthorized } from '../support/errors';
import { call } from '../support/http';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';

let issuer: ExternalIssuer;
let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  issuer = await startExternalIssuer();
  ({ app, t } = await startWithTenant('ext-tok', { externalAuthUrl: issuer.url }));
});
afterAll(async () => {
  await app?.stop();
  await issuer?.close();
});

const hex = () => randomBytes(4).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

/** Claims of one IdP user of `realm` as Keycloak puts them into an access token. */
function person(realm = t.shortName, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const name = `p${hex()}`;
  return {
    iss: `${issuer.url}/realms/${realm}`, sub: randomUUID(), typ: 'Bearer', azp: 'self-service', exp: now() + 300,
    email: `${name}@${realm}.example`, given_name: 'Ada', family_name: name, realm_access: { roles: [] }, ...extra,
  };
}

/** Signs with the IdP's current key; claims set to undefined are left out. */
const sign = (claims: Record<string, unknown>, options?: SignOptions) =>
  issuer.sign(Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)), options);
const get = (path: string, token: string, headers: Record<string, string> = {}) => call(app, 'GET', path, { token, headers });
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string };

describe('signing keys', () => {
  /** A tenant of its own, so its realm's key set starts uncached. */
  const freshRealm = async () => (await createTenant(app, 'ext-keys')).shortName;

  it('the JWKS is fetched once and cached: further calls, other users and tokens do not ask again', async () => {
    const realm = await freshRealm();
    const start = issuer.jwksRequests();
    expect((await get('/tenant', sign(person(realm)))).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(start + 1);
    for (let i = 0; i < 5; i += 1) expect((await get('/tenant', sign(person(realm)))).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(start + 1);
  });

  it('a token signed with a rotated key triggers exactly one refetch, then verifies from the cache', async () => {
    const realm = await freshRealm();
    const claims = person(realm);
    expect((await get('/tenant', sign(claims))).status).toBe(200);
    const before = issuer.jwksRequests();
    issuer.rotate();
    expect((await get('/tenant', sign(claims))).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(before + 1);
    expect((await get('/tenant', sign(claims))).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(before + 1);
  });

  it('a flood of random kids → 401 each, with at most a couple of refetches; good tokens keep working', async () => {
    const realm = await freshRealm();
    const claims = person(realm);
    expect((await get('/tenant', sign(claims))).status).toBe(200);
    const before = issuer.jwksRequests();
    for (let i = 0; i < 25; i += 1) expectUnauthorized(await get('/tenant', sign(claims, { keyid: randomUUID() })));
    expect(issuer.jwksRequests() - before).toBeLessThanOrEqual(2);
    const settled = issuer.jwksRequests();
    expect((await get('/tenant', sign(claims))).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(settled);
  });

  it('IdP unreachable → 502 error body; a realm with cached keys keeps working meanwhile', async () => {
    const realm = await freshRealm();
    expect((await get('/tenant', sign(person()))).status).toBe(200); // t's realm: keys cached
    issuer.setDown(true);
    try {
      const res = await get('/tenant', sign(person(realm)));
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ status: 'BAD_GATEWAY', message: 'Bad gateway', errors: ['The identity provider is not reachable'], subErrors: null });
      expect((await get('/tenant', sign(person()))).status).toBe(200);
    } finally {
      issuer.setDown(false);
    }
  });
});

describe('refused tokens', () => {
  let embedded: TestApp;
  let embeddedTenant: TestTenant;
  beforeAll(async () => {
    embedded = await startTestApp();
    embeddedTenant = await createTenant(embedded, 'ext-emb');
  });
  afterAll(async () => embedded?.stop());

  it('a token of the embedded issuer → 401 (its issuer is not AUTH_URL)', async () => {
    expect((await call(embedded, 'GET', '/tenant', { token: embeddedTenant.admin.token })).status).toBe(200); // control
    expectUnauthorized(await get('/tenant', embeddedTenant.admin.token));
  });

  it('the embedded issuer\'s token re-labelled with the external issuer → 401', async () => {
    const claims = JSON.parse(Buffer.from(embeddedTenant.admin.token.split('.')[1], 'base64url').toString());
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const relabelled = jwt.sign({ ...claims, iss: `${issuer.url}/realms/${embeddedTenant.shortName}` }, privateKey, { algorithm: 'RS256', keyid: headerOf(embeddedTenant.admin.token).kid });
    expectUnauthorized(await get('/tenant', relabelled));
  });

  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const currentKid = () => headerOf(sign(person())).kid;

  it.each<[string, () => string | Promise<string>]>([
    ['signed by another key under the IdP\'s current kid', () => jwt.sign(person(), otherKey, { algorithm: 'RS256', keyid: currentKid() })],
    ['HS256 with the kid of the IdP', () => jwt.sign(person(), 'secret', { algorithm: 'HS256', keyid: currentKid() })],
    ['expired beyond the 30 s leeway', () => sign(person(t.shortName, { exp: now() - 31 }))],
    ['no expiry', () => sign(person(t.shortName, { exp: undefined }))],
    ['no subject', () => sign(person(t.shortName, { sub: undefined }))],
    ['a refresh token', () => sign(person(t.shortName, { typ: 'Refresh' }))],
    ['an ID token', () => sign(person(t.shortName, { typ: 'ID' }))],
    ['an issuer on another host', () => sign(person(t.shortName, { iss: `http://localhost:1/realms/${t.shortName}` }))],
    ['the realm of no tenant', () => sign(person(`nope-${hex()}`))],
    ['a nested issuer path', () => sign(person(t.shortName, { iss: `${issuer.url}/realms/${t.shortName}/x` }))],
  ])('%s → 401', async (_case, token) => {
    expectUnauthorized(await get('/tenant', await token()));
  });

  it('a token expired within the 30 s leeway is still accepted (control)', async () => {
    expect((await get('/tenant', sign(person(t.shortName, { exp: now() - 10 })))).status).toBe(200);
  });

  it('the realm of no tenant does not make the service fetch anything', async () => {
    const before = issuer.jwksRequests();
    expectUnauthorized(await get('/tenant', sign(person(`nope-${hex()}`))));
    expect(issuer.jwksRequests()).toBe(before);
  });

  it('a realm header naming another tenant → 401; the same realm in any case passes', async () => {
    const token = sign(person());
    expectUnauthorized(await get('/tenant', token, { realm: embeddedTenant.shortName }));
    expect((await get('/tenant', token, { realm: t.shortName.toUpperCase() })).status).toBe(200);
  });

  it('no token → 401 with a bare Bearer challenge', async () => {
    const res = await call(app, 'GET', '/tenant');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });
});
