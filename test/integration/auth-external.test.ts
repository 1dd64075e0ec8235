/**
 * External IdP mode (AUTH_URL, docs/contract.md §1.3), users: the embedded issuer is off, and a token of a second,
 * independent issuer (its own keys, its own loopback port) names a user found by subject, linked by email or
 * created just in time from the claims; checks use the roles stored in the database. Key handling and refused
 * tokens: auth-external-tokens.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SignOptions } from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../models/define';
import { createUser, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditActions, auditOf } from '../support/audit';
import { expectError, expectUnauthorized } from '../support/errors';
import { call, type CallResult } from '../support/http';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';

let issuer: ExternalIssuer;
let app: TestApp;
let t: TestTenant;
/** A tenant admin of the IdP, created just in time by its first call. */
let adminToken: string;

const hex = () => randomBytes(4).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

/** Claims of one IdP user as Keycloak puts them into an access token. */
function person(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const name = `p${hex()}`;
  return {
    iss: `${issuer.url}/realms/${t.shortName}`, sub: randomUUID(), typ: 'Bearer', azp: 'self-service', exp: now() + 300,
    email: `${name}@${t.shortName}.example`, email_verified: true, given_name: 'Ada', family_name: name,
    preferred_username: `${name}@${t.shortName}.example`, realm_access: { roles: ['offline_access', 'uma_authorization'] }, ...extra,
  };
}

/** Signs with the IdP's current key; claims set to undefined are left out. */
const sign = (claims: Record<string, unknown>, options?: SignOptions) =>
  issuer.sign(Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)), options);
const get = (path: string, token: string) => call(app, 'GET', path, { token });
const usersWith = (email: string) => app.models.User.findAll({ where: { tenantUid: t.tenant.uid, emailKey: email.toLowerCase() } });
const plain = (row: Row) => row.get({ plain: true }) as Record<string, unknown>;
const roleNames = (res: CallResult) => (res.body.roles as { name: string }[]).map((r) => r.name);
const newCluster = (token: string) => call(app, 'POST', '/clusters', { token, body: { name: `c-${hex()}`, bootstrapServers: ['k:9092'] } });
const setRoles = (uid: string, roles: string[]) => call(app, 'PUT', `/users/${uid}/roles`, { token: adminToken, body: roles });

beforeAll(async () => {
  issuer = await startExternalIssuer();
  ({ app, t } = await startWithTenant('ext', { externalAuthUrl: issuer.url }));
  adminToken = sign(person({ given_name: 'Tenant', family_name: 'Admin', realm_access: { roles: ['TENANT_ADMIN'] } }));
  if ((await get('/user', adminToken)).status !== 200) throw new Error('setup failed');
});
afterAll(async () => {
  await app?.stop();
  await issuer?.close();
});

describe('the embedded issuer is off', () => {
  it.each([
    ['GET', '/.well-known/openid-configuration'],
    ['GET', '/protocol/openid-connect/certs'],
    ['POST', '/protocol/openid-connect/token'],
  ])('%s /auth/realms/{realm}%s → 404 error body', async (method, suffix) => {
    const post = method === 'POST';
    const res = await call(app, method, `${app.url}/auth/realms/${t.shortName}${suffix}`, {
      raw: post ? 'grant_type=password&client_id=self-service&username=a&password=b' : undefined,
      headers: post ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {},
    });
    expectError(res, 404, { message: 'Not found', subErrors: null });
  });

  it('the tenant\'s issuerUrl points at AUTH_URL, and the external token opens /tenant', async () => {
    const res = await get('/tenant', adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: t.tenant.uid, issuerUrl: `${issuer.url}/realms/${t.shortName}` });
  });
});

describe('just-in-time users', () => {
  it('a first call creates the user from the claims, with a CREATED entry by the user', async () => {
    const claims = person({ given_name: 'Grace', family_name: 'Hopper', realm_access: { roles: ['STREAM_ADMIN', 'offline_access'] } });
    const me = await get('/user', sign(claims));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      firstName: 'Grace', middleName: null, lastName: 'Hopper', fullName: 'Grace Hopper', emailAddress: { email: claims.email },
      phoneNumber: null, roles: [{ name: 'STREAM_ADMIN' }], serviceAccount: false, created_by: claims.email,
    });

    const [user, ...more] = await usersWith(claims.email as string);
    expect(more).toHaveLength(0);
    expect(plain(user)).toMatchObject({ uid: me.body.uid, externalSubject: claims.sub, passwordHash: null });
    const audit = await auditOf(app, user.uid);
    expect(audit.map(plain)).toMatchObject([{
      action: 'CREATED', resourceType: 'User', resourceId: user.uid, resourceName: claims.email, tenant: t.shortName,
      actor: claims.email, actorName: 'Grace Hopper',
    }]);
    expect(audit[0].details).toMatchObject({
      firstName: 'Grace', lastName: 'Hopper', emailAddress: { email: claims.email }, roles: [{ name: 'STREAM_ADMIN' }], externalSubject: claims.sub,
    });
  });

  it('later calls reuse the user; changed claims do not overwrite it', async () => {
    const claims = person();
    const first = await get('/user', sign(claims));
    const renamed = { ...claims, given_name: 'Other', family_name: 'Name', realm_access: { roles: ['TENANT_ADMIN'] } };
    for (let i = 0; i < 3; i += 1) {
      const again = await get('/user', sign(renamed));
      expect(again.body).toMatchObject({ uid: first.body.uid, firstName: 'Ada', lastName: claims.family_name, roles: first.body.roles });
    }
    expect(await usersWith(claims.email as string)).toHaveLength(1);
    expect(await auditActions(app, first.body.uid)).toEqual(['CREATED']);
  });

  it.each([
    ['known names only, any case', ['TENANT_ADMIN', 'offline_access', 'schema_author'], ['TENANT_ADMIN', 'SCHEMA_AUTHOR']],
    ['none known → the default authors', ['offline_access'], ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR']],
    ['no realm roles at all → the default authors', undefined, ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR']],
  ])('roles from realm_access.roles: %s', async (_case, roles, expected) => {
    const me = await get('/user', sign(person({ realm_access: roles === undefined ? undefined : { roles } })));
    expect(roleNames(me).sort()).toEqual([...expected].sort());
  });

  it.each([
    ['only `name`', { given_name: undefined, family_name: undefined, name: 'Grace Brewster Hopper' }, 'Grace', 'Brewster Hopper'],
    ['no names at all: the email\'s local part', { given_name: undefined, family_name: undefined, email: `jane.doe@${hex()}.example` }, 'jane', 'doe'],
    ['a 300-character given name is cut to 100', { given_name: 'G'.repeat(300), family_name: 'Long' }, 'G'.repeat(100), 'Long'],
  ])('names: %s', async (_case, extra, firstName, lastName) => {
    const me = await get('/user', sign(person(extra)));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ firstName, lastName });
  });

  it('an existing user is linked by email (any case), keeping the stored roles, with an UPDATED entry', async () => {
    const known = await createUser(app, t, ['STREAM_ADMIN'], 'known');
    const claims = person({ email: known.email.toUpperCase(), realm_access: { roles: ['TENANT_ADMIN'] } });
    const me = await get('/user', sign(claims));
    expect(me.body).toMatchObject({ uid: known.user.uid, emailAddress: { email: known.email }, roles: [{ name: 'STREAM_ADMIN' }] });
    expect((await get('/tenant', sign(claims))).body._links.edit).toBeUndefined(); // the TENANT_ADMIN claim is ignored

    expect((await usersWith(known.email)).map((u) => plain(u).externalSubject)).toEqual([claims.sub]);
    const audit = await auditOf(app, known.user.uid);
    expect(audit.map((e) => [e.action, e.actor])).toEqual([['UPDATED', known.email]]);
    expect(audit[0].details).toEqual({ externalSubject: { old: null, new: claims.sub } });
    // Found by subject from now on, even without the email claim.
    expect((await get('/user', sign({ ...claims, email: undefined }))).body.uid).toBe(known.user.uid);
  });

  it('checks use the stored roles: a role change through the API wins over the token\'s claim', async () => {
    const admin = person({ realm_access: { roles: ['TENANT_ADMIN'] } });
    const adminUid = (await get('/user', sign(admin))).body.uid;
    expect((await newCluster(sign(admin))).status).toBe(201);
    expect((await setRoles(adminUid, ['STREAM_AUTHOR'])).status).toBe(200);
    expect((await newCluster(sign(admin))).status).toBe(403);

    const author = person();
    const authorUid = (await get('/user', sign(author))).body.uid;
    expect((await newCluster(sign(author))).status).toBe(403);
    expect((await setRoles(authorUid, ['TENANT_ADMIN'])).status).toBe(200);
    expect((await newCluster(sign(author))).status).toBe(201);
  });

  it('concurrent first requests of one new user all succeed and create it once', async () => {
    const claims = person();
    const token = sign(claims);
    const results = await Promise.all(Array.from({ length: 6 }, () => get('/user', token)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.body.uid)).size).toBe(1);
    expect(await usersWith(claims.email as string)).toHaveLength(1);
    expect(await auditActions(app, results[0].body.uid)).toEqual(['CREATED']);
  });

  it('concurrent first requests of an existing user link it once', async () => {
    const known = await createUser(app, t, ['SCHEMA_ADMIN'], 'racer');
    const token = sign(person({ email: known.email }));
    const results = await Promise.all(Array.from({ length: 6 }, () => get('/user', token)));
    expect(results.map((r) => [r.status, r.body.uid])).toEqual(Array(6).fill([200, known.user.uid]));
    expect(await auditActions(app, known.user.uid)).toEqual(['UPDATED']);
  });

  it.each([
    ['no email claim', { email: undefined }],
    ['an empty email', { email: '' }],
    ['an email that is no address', { email: 'not-an-address' }],
    ['an email the IdP marks unverified', { email_verified: false }],
  ])('a new subject with %s → 401, nobody created', async (_case, extra) => {
    const claims = person(extra);
    expectUnauthorized(await get('/user', sign(claims)));
    expect(await app.models.User.count({ where: { externalSubject: claims.sub } })).toBe(0);
  });

  it('an unverified email does not take over the existing user of that address', async () => {
    const known = await createUser(app, t, ['TENANT_ADMIN'], 'victim');
    expectUnauthorized(await get('/user', sign(person({ email: known.email, email_verified: false }))));
    await known.user.reload();
    expect(known.user.externalSubject).toBeNull();
  });
});

describe('a deleted user', () => {
  it('loses access with the tokens it holds; signing in at the IdP again re-creates it just in time', async () => {
    const claims = person({ auth_time: now() - 60, realm_access: { roles: ['SCHEMA_ADMIN'] } });
    const before = (await get('/user', sign(claims))).body.uid;
    expect((await call(app, 'DELETE', `/users/${before}`, { token: adminToken })).status).toBe(204);

    expectUnauthorized(await get('/user', sign(claims)));
    expectUnauthorized(await get('/user', sign({ ...claims, iat: now() + 1 }))); // a refreshed token: same sign-in (auth_time)
    expect(await usersWith(claims.email as string)).toHaveLength(0);

    const again = await get('/user', sign({ ...claims, auth_time: now() + 1 })); // a new sign-in after the deletion
    expect(again.status).toBe(200);
    expect(again.body.uid).not.toBe(before);
    expect(again.body.roles).toEqual([{ name: 'SCHEMA_ADMIN' }]);
  });

  it('without auth_time the token\'s iat decides', async () => {
    const claims = person({ iat: now() - 5 });
    const uid = (await get('/user', sign(claims))).body.uid;
    expect((await call(app, 'DELETE', `/users/${uid}`, { token: adminToken })).status).toBe(204);
    expectUnauthorized(await get('/user', sign(claims)));
    expect((await get('/user', sign({ ...claims, iat: now() + 1 }))).status).toBe(200);
  });

  it('an admin re-creating the user by email re-admits the old sign-in (linked by email)', async () => {
    const claims = person({ auth_time: now() - 60 });
    const uid = (await get('/user', sign(claims))).body.uid;
    expect((await call(app, 'DELETE', `/users/${uid}`, { token: adminToken })).status).toBe(204);
    const created = await call(app, 'POST', '/users', { token: adminToken, body: { firstName: 'Back', lastName: 'Again', emailAddress: claims.email } });
    expect(created.status).toBe(201);
    expect((await get('/user', sign(claims))).body.uid).toBe(created.body.uid);
  });

  it('a row removed outside the API (no audit trail) is re-created on the next call', async () => {
    const claims = person();
    const token = sign(claims);
    const before = (await get('/user', token)).body.uid;
    await app.models.User.destroy({ where: { uid: before } });
    const after = await get('/user', token);
    expect(after.status).toBe(200);
    expect(after.body.uid).not.toBe(before);
  });
});
