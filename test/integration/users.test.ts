/**
 * Users over HTTP (docs/contract.md §5.2, §7): CRUD, validation, who may change what (tenant admin, self, others),
 * roles assignment with its SUPER_ADMIN and last-TENANT_ADMIN rules, service accounts and their one-time secret,
 * `/user`, the e-mail search, tenant isolation and the audit history without secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, passwordToken, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { auditOf } from '../support/audit';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let plain: TestUser;
let superAdmin: TestUser;
let seq = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('users'));
  other = await createTenant(app, 'users-other');
  plain = await createUser(app, t, ['STREAM_AUTHOR'], 'plain');
  superAdmin = await createUser(app, t, ['SUPER_ADMIN'], 'super');
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const email = (name = 'person') => `${name}-${++seq}@example.com`;
const names = (res: { body: any }) => res.body.roles.map((r: { name: string }) => r.name).sort();

async function newUser(body: Record<string, unknown> = {}, token = admin()) {
  const res = await call(app, 'POST', '/users', { token, body: { firstName: 'Jane', lastName: 'Doe', emailAddress: email(), ...body } });
  if (res.status !== 201) throw new Error(`user setup failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Status of a password-grant login (200 or the issuer's refusal). */
async function loginStatus(realm: string, username: string, password: string) {
  const res = await fetch(`${app.authUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password }),
  });
  return res.status;
}

async function clientToken(realm: string, clientId: string, clientSecret: string) {
  const res = await fetch(`${app.authUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string } };
}

const auditEntries = async (uid: string) => (await auditOf(app, uid))
  .map((e: any) => ({ action: e.action, resourceType: e.resourceType, resourceName: e.resourceName, details: e.details }));

describe('users: create, read, update, delete', () => {
  it('creates a person with defaults, who can then log in', async () => {
    const address = email('jane');
    const res = await call(app, 'POST', '/users', { token: admin(), body: { firstName: 'Jane', middleName: 'Q.', lastName: 'Doe', emailAddress: address, password: 'first-password' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.body).toMatchObject({
      firstName: 'Jane', middleName: 'Q.', lastName: 'Doe', fullName: 'Jane Q. Doe', emailAddress: { email: address },
      phoneNumber: null, settings: {}, serviceAccount: false, clientId: null, created_by: t.admin.email,
    });
    expect(names(res)).toEqual(['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR']);
    expect(res.body).not.toHaveProperty('password');
    expect(res.body).not.toHaveProperty('clientSecret');
    expect(res.text).not.toContain('first-password');
    expect(res.body._links.tenant.href).toBe(`${app.api}/tenants/${t.tenant.uid}`);
    expect(await loginStatus(t.shortName, address.toUpperCase(), 'first-password')).toBe(200);
  });

  it('accepts emailAddress as {email} and roles as names in any spelling', async () => {
    const address = email();
    const res = await call(app, 'POST', '/users', { token: admin(), body: { firstName: 'A', lastName: 'B', emailAddress: { email: address }, roles: ['stream author', { name: 'schema-admin' }, 'STREAM_AUTHOR'] } });
    expect(res.status).toBe(201);
    expect(res.body.emailAddress).toEqual({ email: address });
    expect(res.body.roles).toEqual([{ name: 'STREAM_AUTHOR' }, { name: 'SCHEMA_ADMIN' }]);
  });

  it('patches (settings merge), replaces (roles and password kept) and deletes', async () => {
    const u = await newUser({ phoneNumber: '+31 20 123', settings: { theme: 'dark', lang: 'nl' }, roles: [{ name: 'SCHEMA_ADMIN' }], password: 'kept-password' });
    const self = u._links.self.href;
    const patched = await call(app, 'PATCH', self, { token: admin(), body: { settings: { lang: null, tz: 'UTC' }, middleName: 'van' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ settings: { theme: 'dark', tz: 'UTC' }, middleName: 'van', fullName: 'Jane van Doe', phoneNumber: '+31 20 123' });
    expect(patched.body.settings).not.toHaveProperty('lang');

    const replaced = await call(app, 'PUT', self, { token: admin(), body: { firstName: 'Janet', lastName: 'Doe', emailAddress: u.emailAddress } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ firstName: 'Janet', middleName: null, phoneNumber: null, settings: {}, roles: [{ name: 'SCHEMA_ADMIN' }] });
    expect(await loginStatus(t.shortName, u.emailAddress.email, 'kept-password')).toBe(200);

    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
    expect((await call(app, 'GET', self, { token: admin() })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(404);
    const audit = await auditEntries(u.uid);
    expect(audit.map((e) => e.action)).toEqual(['CREATED', 'UPDATED', 'UPDATED', 'DELETED']);
    expect(audit.every((e) => e.resourceType === 'User' && e.resourceName === u.emailAddress.email)).toBe(true);
    expect(audit[1].details).toMatchObject({ middleName: { old: null, new: 'van' } });
    expect(JSON.stringify(audit)).not.toMatch(/kept-password|scrypt\$/);
  });

  it('lists users paged and sorted, with a create link for tenant admins only', async () => {
    const page = await call(app, 'GET', '/users?size=2&sort=lastName,desc', { token: admin() });
    expect(page.status).toBe(200);
    expect(page.body._embedded.users).toHaveLength(2);
    expect(page.body.page).toMatchObject({ size: 2, number: 0 });
    const lastNames = page.body._embedded.users.map((u: any) => u.lastName);
    expect([...lastNames].sort().reverse()).toEqual(lastNames);
    expect(page.body._links.create.href).toBe(`${app.api}/users`);
    expect(page.body._links.search.href).toBe(`${app.api}/users/search`);
    const asPlain = await call(app, 'GET', '/users', { token: plain.token });
    expect(asPlain.status).toBe(200);
    expect(asPlain.body._links.create).toBeUndefined();
    expect((await call(app, 'GET', '/users?sort=password', { token: admin() })).status).toBe(400);
  });

  it('answers GET /user with the caller and finds users by e-mail address', async () => {
    const me = await call(app, 'GET', '/user', { token: plain.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ uid: plain.user.uid, emailAddress: { email: plain.email }, roles: [{ name: 'STREAM_AUTHOR' }], fullName: 'Test plain' });
    expect(me.headers.get('etag')).toMatch(/^"\d+"$/);

    const found = await call(app, 'GET', `/users/search/findByEmailAddress?email=${encodeURIComponent(plain.email.toUpperCase())}`, { token: admin() });
    expect(found.status).toBe(200);
    expect(found.body._embedded.users.map((u: any) => u.uid)).toEqual([plain.user.uid]);
    const nobody = await call(app, 'GET', '/users/search/findByEmailAddress?email=nobody%40example.com', { token: admin() });
    expect([nobody.status, nobody.body._embedded.users, nobody.body.page.totalElements]).toEqual([200, [], 0]);
    expect((await call(app, 'GET', '/users/search/findByEmailAddress', { token: admin() })).status).toBe(400);
    const index = await call(app, 'GET', '/users/search', { token: plain.token });
    expect(index.body._links.findByEmailAddress).toEqual({ href: `${app.api}/users/search/findByEmailAddress{?email,page,size,sort}`, templated: true });
  });
});

describe('users: validation', () => {
  const longSettings = { blob: 'x'.repeat(8200) };
  it.each([
    ['firstName missing', { firstName: undefined }, 'firstName'],
    ['lastName missing', { lastName: undefined }, 'lastName'],
    ['emailAddress missing', { emailAddress: undefined }, 'emailAddress'],
    ['emailAddress blank', { emailAddress: '' }, 'emailAddress'],
    ['emailAddress not an address', { emailAddress: 'not-an-address' }, 'emailAddress'],
    ['emailAddress object without email', { emailAddress: { mail: 'x@example.com' } }, 'emailAddress.email'],
    ['firstName empty', { firstName: '' }, 'firstName'],
    ['lastName longer than 100', { lastName: 'x'.repeat(101) }, 'lastName'],
    ['phoneNumber with letters', { phoneNumber: 'call me' }, 'phoneNumber'],
    ['phoneNumber longer than 16', { phoneNumber: '+31 20 123 456 789' }, 'phoneNumber'],
    ['password shorter than 8', { password: 'short' }, 'password'],
    ['password longer than 128', { password: 'p'.repeat(129) }, 'password'],
    ['unknown role name', { roles: ['NOPE'] }, 'roles[0]'],
    ['unknown role object', { roles: [{ name: 'STREAM_AUTHOR' }, { name: 'NOPE' }] }, 'roles[1].name'],
    ['roles not a list', { roles: 'STREAM_AUTHOR' }, 'roles'],
    ['settings value not a string', { settings: { a: 1 } }, 'settings.a'],
    ['settings over 8 KiB', { settings: longSettings }, 'settings'],
    ['clientId with capitals', { clientId: 'Bad-Client' }, 'clientId'],
    ['clientSecret for a person', { clientSecret: 'secret-secret' }, 'clientSecret'],
    ['federated identity for a person', { federatedIssuer: 'https://idp.example.com', federatedSubject: 'x' }, 'federatedIssuer'],
  ])('POST with %s → 400 naming %s', async (_case, override, field) => {
    const body: Record<string, unknown> = { firstName: 'Val', lastName: 'Idation', emailAddress: email('val'), ...override };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const res = await call(app, 'POST', '/users', { token: admin(), body });
    expectError(res, 400);
    expect(res.body.errors).toContainEqual(expect.stringMatching(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `)));
    expect(res.body.subErrors.map((s: any) => s.field)).toContain(field);
    expect(JSON.stringify(res.body)).not.toContain('secret-secret');
  });

  it.each([
    ['password for a service account', { clientId: 'sa-with-password', password: 'some-password' }, 'password'],
    ['federatedIssuer without federatedSubject', { clientId: 'sa-half-federated', federatedIssuer: 'https://idp.example.com' }, 'federatedSubject'],
    ['reserved client id', { clientId: 'self-service' }, 'clientId'],
  ])('POST of a service account with %s → 400 naming %s', async (_case, body, field) => {
    const res = await call(app, 'POST', '/users', { token: admin(), body });
    expect(res.status).toBe(400);
    expect(res.body.subErrors.map((s: any) => s.field)).toContain(field);
  });

  it('keeps e-mail addresses and client ids unique per tenant, ignoring case (409 naming the field)', async () => {
    const address = email('Unique');
    await newUser({ emailAddress: address });
    const clash = await call(app, 'POST', '/users', { token: admin(), body: { firstName: 'X', lastName: 'Y', emailAddress: address.toLowerCase() } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatch(/^emailAddress: /);
    const u = await newUser();
    const patch = await call(app, 'PATCH', u._links.self.href, { token: admin(), body: { emailAddress: address.toUpperCase() } });
    expect(patch.status).toBe(409);
    // the same address in another tenant is fine
    expect((await call(app, 'POST', '/users', { token: other.admin.token, body: { firstName: 'X', lastName: 'Y', emailAddress: address } })).status).toBe(201);

    expect((await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'dup-client' } })).status).toBe(201);
    const dup = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'dup-client' } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatch(/^clientId: /);
  });
});

describe('users: permissions', () => {
  it.each([
    ['POST /users', 'POST', () => '/users', { firstName: 'No', lastName: 'Way', emailAddress: 'no@example.com' }],
    ['PATCH another user', 'PATCH', () => `/users/${t.admin.user.uid}`, { phoneNumber: '123' }],
    ['PUT another user', 'PUT', () => `/users/${t.admin.user.uid}`, { firstName: 'X', lastName: 'Y', emailAddress: 'x@example.com' }],
    ['DELETE another user', 'DELETE', () => `/users/${t.admin.user.uid}`, undefined],
    ['PUT roles of oneself', 'PUT', () => `/users/${plain.user.uid}/roles`, ['TENANT_ADMIN']],
    ['PATCH roles of another', 'PATCH', () => `/users/${t.admin.user.uid}/roles`, ['STREAM_AUTHOR']],
    ['PATCH roles with an invalid body', 'PATCH', () => `/users/${t.admin.user.uid}/roles`, { not: 'a list' }],
  ])('a plain user: %s → 403', async (_case, method, path, body) => {
    const res = await call(app, method, path(), { token: plain.token, body });
    expectError(res, 403);
  });

  it.each([
    ['emailAddress', { emailAddress: 'changed@example.com' }],
    ['roles', { roles: ['TENANT_ADMIN'] }],
    ['emailAddress (as {email}) together with allowed fields', { firstName: 'Me', emailAddress: { email: 'changed@example.com' } }],
  ])('a user may not change its own %s (403)', async (_field, body) => {
    const me = await createUser(app, t, ['STREAM_AUTHOR'], 'self');
    const res = await call(app, 'PATCH', `/users/${me.user.uid}`, { token: me.token, body });
    expect(res.status).toBe(403);
  });

  it('a user edits its own names, phone, settings and password; an unchanged address is fine', async () => {
    const me = await createUser(app, t, ['STREAM_AUTHOR'], 'selfedit');
    const self = `/users/${me.user.uid}`;
    const patched = await call(app, 'PATCH', self, { token: me.token, body: { firstName: 'Me', phoneNumber: '(020) 555', settings: { theme: 'light' }, emailAddress: { email: me.email }, roles: [{ name: 'STREAM_AUTHOR' }] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ firstName: 'Me', phoneNumber: '(020) 555', settings: { theme: 'light' } });
    const put = await call(app, 'PUT', self, { token: me.token, body: { firstName: 'Me', lastName: 'Myself', emailAddress: me.email } });
    expect(put.status).toBe(200);
    expect(put.body.roles).toEqual([{ name: 'STREAM_AUTHOR' }]);

    const pw = await call(app, 'PATCH', self, { token: me.token, body: { password: 'brand-new-password' } });
    expect(pw.status).toBe(200);
    expect(await loginStatus(t.shortName, me.email, me.password)).toBe(401);
    expect(await loginStatus(t.shortName, me.email, 'brand-new-password')).toBe(200);
    const audit = await auditEntries(me.user.uid);
    expect(audit.at(-1)).toMatchObject({ action: 'UPDATED', details: { password: '***' } });
    expect(JSON.stringify(audit)).not.toMatch(/brand-new-password|scrypt\$/);
  });

  it('shows edit, delete, assign_roles and lockout links only to whom they apply', async () => {
    const links = async (token: string, uid: string) => Object.keys((await call(app, 'GET', `/users/${uid}`, { token })).body._links).sort();
    expect(await links(plain.token, t.admin.user.uid)).toEqual(['self', 'tenant', 'user']);
    expect(await links(plain.token, plain.user.uid)).toEqual(['edit', 'self', 'tenant', 'user']);
    expect(await links(admin(), plain.user.uid)).toEqual(['assign_roles', 'delete', 'edit', 'lockout', 'self', 'tenant', 'user']);
    expect(await links(admin(), t.admin.user.uid)).toEqual(['assign_roles', 'edit', 'lockout', 'self', 'tenant', 'user']);
    // a SUPER_ADMIN's account is deleted only by a SUPER_ADMIN
    expect(await links(admin(), superAdmin.user.uid)).toEqual(['assign_roles', 'edit', 'lockout', 'self', 'tenant', 'user']);
    expect((await call(app, 'DELETE', `/users/${superAdmin.user.uid}`, { token: admin() })).status).toBe(403);
  });
});

describe('users: roles', () => {
  it('PUT and PATCH …/roles replace the set and audit the difference', async () => {
    const u = await newUser();
    const href = u._links.assign_roles.href;
    expect(href).toBe(`${u._links.self.href}/roles`);
    const put = await call(app, 'PUT', href, { token: admin(), body: [{ name: 'STREAM_ADMIN' }, { name: 'SCHEMA_AUTHOR' }] });
    expect(put.status).toBe(200);
    expect(put.body.roles).toEqual([{ name: 'STREAM_ADMIN' }, { name: 'SCHEMA_AUTHOR' }]);
    expect(put.body._links.self.href).toBe(u._links.self.href);
    const patch = await call(app, 'PATCH', href, { token: admin(), body: ['application_admin'] });
    expect(patch.status).toBe(200);
    expect(patch.body.roles).toEqual([{ name: 'APPLICATION_ADMIN' }]);
    const audit = await auditEntries(u.uid);
    expect(audit.at(-1)).toEqual({
      action: 'UPDATED', resourceType: 'User', resourceName: u.emailAddress.email,
      details: { roles: { old: [{ name: 'STREAM_ADMIN' }, { name: 'SCHEMA_AUTHOR' }], new: [{ name: 'APPLICATION_ADMIN' }] } },
    });
    expect((await call(app, 'PUT', href, { token: admin(), body: [] })).body.roles).toEqual([]);
    expect((await call(app, 'GET', href, { token: admin() })).status).toBe(405);
  });

  it.each([
    ['an unknown name', ['STREAM_AUTHOR', 'KING'], 400],
    ['an unknown {name}', [{ name: 'KING' }], 400],
    ['an object instead of a list', { name: 'STREAM_AUTHOR' }, 400],
    ['no body', undefined, 400],
  ])('…/roles with %s → %s', async (_case, body, status) => {
    const u = await newUser();
    const res = await call(app, 'PUT', `/users/${u.uid}/roles`, { token: admin(), body });
    expect(res.status).toBe(status);
  });

  it('honours If-Match on …/roles', async () => {
    const u = await newUser();
    const res = await call(app, 'PUT', `/users/${u.uid}/roles`, { token: admin(), body: ['STREAM_AUTHOR'], headers: { 'If-Match': '"99"' } });
    expect(res.status).toBe(412);
  });

  it('SUPER_ADMIN is granted and removed only by a SUPER_ADMIN', async () => {
    const u = await newUser();
    expect((await call(app, 'PUT', `/users/${u.uid}/roles`, { token: admin(), body: ['SUPER_ADMIN'] })).status).toBe(403);
    expect((await call(app, 'PATCH', `/users/${u.uid}`, { token: admin(), body: { roles: ['SUPER_ADMIN'] } })).status).toBe(403);
    expect((await call(app, 'POST', '/users', { token: admin(), body: { firstName: 'S', lastName: 'A', emailAddress: email(), roles: ['SUPER_ADMIN'] } })).status).toBe(403);
    const granted = await call(app, 'PUT', `/users/${u.uid}/roles`, { token: superAdmin.token, body: ['SUPER_ADMIN', 'STREAM_AUTHOR'] });
    expect(granted.status).toBe(200);
    expect((await call(app, 'PUT', `/users/${u.uid}/roles`, { token: admin(), body: ['STREAM_AUTHOR'] })).status).toBe(403);
    // other roles of a SUPER_ADMIN may change by a tenant admin as long as SUPER_ADMIN stays
    expect((await call(app, 'PUT', `/users/${u.uid}/roles`, { token: admin(), body: ['SUPER_ADMIN', 'SCHEMA_ADMIN'] })).status).toBe(200);
    expect((await call(app, 'PUT', `/users/${u.uid}/roles`, { token: superAdmin.token, body: ['STREAM_AUTHOR'] })).status).toBe(200);
  });
});

describe('users: the tenant keeps a TENANT_ADMIN', () => {
  let lone: TestTenant;
  let loneSuper: TestUser;
  beforeAll(async () => {
    lone = await createTenant(app, 'users-lone');
    loneSuper = await createUser(app, lone, ['SUPER_ADMIN'], 'lonesuper');
  });

  it.each([
    ['the last TENANT_ADMIN removes its own role', () => lone.admin.token, 'PUT', () => `/users/${lone.admin.user.uid}/roles`, ['STREAM_AUTHOR']],
    ['a SUPER_ADMIN removes the role from the last TENANT_ADMIN', () => loneSuper.token, 'PATCH', () => `/users/${lone.admin.user.uid}/roles`, [{ name: 'STREAM_AUTHOR' }]],
    ['a SUPER_ADMIN PATCHes the roles of the last TENANT_ADMIN', () => loneSuper.token, 'PATCH', () => `/users/${lone.admin.user.uid}`, { roles: [] }],
    ['a SUPER_ADMIN deletes the last TENANT_ADMIN', () => loneSuper.token, 'DELETE', () => `/users/${lone.admin.user.uid}`, undefined],
    ['a tenant admin deletes itself', () => lone.admin.token, 'DELETE', () => `/users/${lone.admin.user.uid}`, undefined],
  ])('%s → 422', async (_case, token, method, path, body) => {
    const res = await call(app, method, path(), { token: token(), body });
    expectError(res, 422);
  });

  it('with a second TENANT_ADMIN one may step down', async () => {
    const second = await createUser(app, lone, ['TENANT_ADMIN'], 'second');
    const res = await call(app, 'PUT', `/users/${second.user.uid}/roles`, { token: second.token, body: ['STREAM_AUTHOR'] });
    expect(res.status).toBe(200);
    expect((await call(app, 'PUT', `/users/${lone.admin.user.uid}/roles`, { token: lone.admin.token, body: ['STREAM_AUTHOR'] })).status).toBe(422);
  });
});

describe('users: deletion ends access', () => {
  it("a deleted user's token stops working at once", async () => {
    const victim = await createUser(app, t, ['STREAM_AUTHOR'], 'victim');
    expect((await call(app, 'GET', '/user', { token: victim.token })).status).toBe(200);
    expect((await call(app, 'DELETE', `/users/${victim.user.uid}`, { token: admin() })).status).toBe(204);
    const after = await call(app, 'GET', '/user', { token: victim.token });
    expect(after.status).toBe(401);
    expect(await loginStatus(t.shortName, victim.email, victim.password)).toBe(401);
  });

  it('removes the deleted user from its groups', async () => {
    const member = await newUser();
    const group = await call(app, 'POST', '/groups', { token: admin(), body: { name: `Members ${seq}`, members: [member.uid] } });
    expect((await call(app, 'DELETE', `/users/${member.uid}`, { token: admin() })).status).toBe(204);
    const read = await call(app, 'GET', group.body._links.self.href, { token: admin() });
    expect(read.body._embedded.members).toEqual([]);
  });
});

describe('users: service accounts', () => {
  it('creates one with a generated secret shown once, which logs in with client_credentials', async () => {
    const res = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'billing-exporter', roles: ['APPLICATION_AUTHOR'] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      serviceAccount: true, clientId: 'billing-exporter', firstName: 'billing-exporter', lastName: 'Service Account',
      fullName: 'billing-exporter Service Account', emailAddress: { email: `service-account-billing-exporter@${t.shortName}.local` },
      roles: [{ name: 'APPLICATION_AUTHOR' }],
    });
    const secret = res.body.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const read = await call(app, 'GET', res.body._links.self.href, { token: admin() });
    expect(read.body).not.toHaveProperty('clientSecret');
    const listed = await call(app, 'GET', '/users?size=1000', { token: admin() });
    expect(listed.text).not.toContain(secret);
    const audit = await auditEntries(res.body.uid);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(secret);

    expect((await clientToken(t.shortName, 'billing-exporter', 'wrong-secret')).status).toBe(401);
    const token = await clientToken(t.shortName, 'billing-exporter', secret);
    expect(token.status).toBe(200);
    const me = await call(app, 'GET', '/user', { token: token.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      uid: res.body.uid, serviceAccount: true, firstName: 'billing-exporter', lastName: 'Service Account',
      emailAddress: { email: `service-account-billing-exporter@${t.shortName}.local` }, roles: [{ name: 'APPLICATION_AUTHOR' }],
    });
    // a service account has no password login
    expect(await loginStatus(t.shortName, `service-account-billing-exporter@${t.shortName}.local`, secret)).toBe(401);
  });

  it('keeps a given secret (never echoed) and lets a tenant admin rotate it', async () => {
    const res = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'given-secret', clientSecret: 'given-secret-1', firstName: 'Given', lastName: 'Secret', emailAddress: 'ignored@example.com' } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('clientSecret');
    expect(res.body).toMatchObject({ firstName: 'Given', lastName: 'Secret', emailAddress: { email: `service-account-given-secret@${t.shortName}.local` } });
    expect((await clientToken(t.shortName, 'given-secret', 'given-secret-1')).status).toBe(200);
    const rotated = await call(app, 'PATCH', res.body._links.self.href, { token: admin(), body: { clientSecret: 'given-secret-2' } });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain('given-secret-2');
    expect((await clientToken(t.shortName, 'given-secret', 'given-secret-1')).status).toBe(401);
    expect((await clientToken(t.shortName, 'given-secret', 'given-secret-2')).status).toBe(200);
    const audit = await auditEntries(res.body.uid);
    expect(audit.at(-1)).toMatchObject({ action: 'UPDATED', details: { clientSecret: '***' } });
    expect(JSON.stringify(audit)).not.toMatch(/given-secret-[12]|scrypt\$/);
  });

  it('binds a federated identity instead of a secret, once per tenant', async () => {
    const fed = { federatedIssuer: 'https://idp.example.com', federatedSubject: 'workload-1' };
    const res = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'federated-one', ...fed } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('clientSecret');
    expect(res.body).not.toHaveProperty('federatedIssuer');
    const stored = await app.models.User.findByPk(res.body.uid);
    expect(stored).toMatchObject({ clientSecretHash: null, federatedIssuer: fed.federatedIssuer, federatedSubject: fed.federatedSubject });
    const dup = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'federated-two', ...fed } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0]).toMatch(/^federatedSubject: /);
    const cleared = await call(app, 'PATCH', res.body._links.self.href, { token: admin(), body: { federatedIssuer: null, federatedSubject: null } });
    expect(cleared.status).toBe(400);
  });

  it('keeps its client id and derived address', async () => {
    const sa = await call(app, 'POST', '/users', { token: admin(), body: { clientId: 'fixed-client' } });
    const self = sa.body._links.self.href;
    expect((await call(app, 'PATCH', self, { token: admin(), body: { clientId: 'other-client' } })).status).toBe(422);
    expect((await call(app, 'PATCH', self, { token: admin(), body: { clientId: 'fixed-client', firstName: 'Fixed' } })).status).toBe(200);
    expect((await call(app, 'PATCH', self, { token: admin(), body: { emailAddress: 'elsewhere@example.com' } })).status).toBe(400);
    const put = await call(app, 'PUT', self, { token: admin(), body: { roles: ['STREAM_AUTHOR'] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ firstName: 'fixed-client', clientId: 'fixed-client', serviceAccount: true, roles: [{ name: 'STREAM_AUTHOR' }] });
    const person = await newUser();
    expect((await call(app, 'PATCH', person._links.self.href, { token: admin(), body: { clientId: 'late-client' } })).status).toBe(422);
  });
});

describe('users: tenant isolation', () => {
  let foreign: any;
  beforeAll(async () => { foreign = await newUser({}, other.admin.token); });

  it.each([
    ['GET', '', undefined],
    ['PATCH', '', { phoneNumber: '1' }],
    ['PUT', '', { firstName: 'X', lastName: 'Y', emailAddress: 'x@example.com' }],
    ['DELETE', '', undefined],
    ['PUT', '/roles', ['STREAM_AUTHOR']],
    ['PATCH', '/roles', ['STREAM_AUTHOR']],
  ])("%s another tenant's user%s → 404", async (method, suffix, body) => {
    const res = await call(app, method, `/users/${foreign.uid}${suffix}`, { token: admin(), body });
    expectError(res, 404);
  });

  it('never lists or finds another tenant\'s users', async () => {
    const list = await call(app, 'GET', '/users?size=10000', { token: superAdmin.token });
    expect(list.body._embedded.users.map((u: any) => u.uid)).not.toContain(foreign.uid);
    expect(list.body._embedded.users.every((u: any) => u._links.tenant.href.endsWith(t.tenant.uid))).toBe(true);
    const found = await call(app, 'GET', `/users/search/findByEmailAddress?email=${encodeURIComponent(foreign.emailAddress.email)}`, { token: superAdmin.token });
    expect(found.body._embedded.users).toEqual([]);
    expect(found.text).not.toContain(foreign.uid);
  });
});

describe('users: password grant helper', () => {
  it('a user created over HTTP gets a token with its password', async () => {
    const u = await newUser({ password: 'helper-password' });
    const token = await passwordToken(app, t.shortName, u.emailAddress.email, 'helper-password');
    expect((await call(app, 'GET', '/user', { token })).body.uid).toBe(u.uid);
  });
});
