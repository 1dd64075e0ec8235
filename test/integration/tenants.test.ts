import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, passwordToken, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { auditActions, auditOf } from '../support/audit';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let sa: TestUser;
let plain: TestUser;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('tenants'));
  other = await createTenant(app, 'tenants-other');
  sa = await createUser(app, t, ['SUPER_ADMIN'], 'root');
  plain = await createUser(app, t, ['ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'APPLICATION_AUTHOR'], 'plain');
});
afterAll(async () => app?.stop());

const short = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;
const adminBody = (email: string, password = 'first-admin-pw-1') => ({ firstName: 'First', lastName: 'Admin', emailAddress: email, password });
const discovery = (realm: string) => fetch(`${app.authUrl}/realms/${realm}/.well-known/openid-configuration`);

describe('tenants: reading', () => {
  it('serves the caller\'s tenant at /tenant with the contact link', async () => {
    const own = await call(app, 'GET', '/tenant', { token: t.admin.token });
    expect(own.status).toBe(200);
    expect(own.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(own.body).toMatchObject({
      uid: t.tenant.uid, shortName: t.shortName, issuerUrl: `${app.authUrl}/realms/${t.shortName}`, properties: null,
      uniqueConsumerGroup: false, dataClassificationEnabled: false, wizardCompleted: false, logo: null, customerId: null,
      settings: { notificationsEnabled: 'false', schemaRolesEnforced: 'false', onlyResourceManagerCanUpdateAndDeploy: 'false' },
    });
    const self = `${app.api}/tenants/${t.tenant.uid}`;
    expect(own.body._links).toMatchObject({
      self: { href: self }, tenant: { href: self }, edit: { href: self },
      contact: { href: `${self}/contact{?type}`, templated: true },
    });
    expect(own.body._links.delete).toBeUndefined();
    const mine = await call(app, 'GET', '/tenant', { token: plain.token });
    expect(mine.body.uid).toBe(t.tenant.uid);
    expect(mine.body._links.edit).toBeUndefined();
  });

  it('lists only the own tenant for anyone but a SUPER_ADMIN, who sees all', async () => {
    for (const who of [t.admin, plain]) {
      const list = await call(app, 'GET', '/tenants?size=1000', { token: who.token });
      expect(list.body._embedded.tenants.map((x: any) => x.uid)).toEqual([t.tenant.uid]);
      expect(list.body._links.create).toBeUndefined();
    }
    const all = await call(app, 'GET', '/tenants?size=1000', { token: sa.token });
    expect(all.body._embedded.tenants.map((x: any) => x.uid)).toEqual(expect.arrayContaining([t.tenant.uid, other.tenant.uid]));
    expect(all.body._links.create).toEqual({ href: `${app.api}/tenants` });
    const foreign = await call(app, 'GET', `/tenants/${other.tenant.uid}`, { token: sa.token });
    expect(foreign.status).toBe(200);
    expect(foreign.body._links.delete).toEqual({ href: `${app.api}/tenants/${other.tenant.uid}` });
  });

  it('finds one tenant by short name (single), within what the caller may see', async () => {
    const hit = await call(app, 'GET', `/tenants/search/findByShortName?shortName=${t.shortName}`, { token: plain.token });
    expect([hit.status, hit.body.uid]).toEqual([200, t.tenant.uid]);
    expect((await call(app, 'GET', `/tenants/search/findByShortName?shortName=${other.shortName}`, { token: t.admin.token })).status).toBe(404);
    expect((await call(app, 'GET', `/tenants/search/findByShortName?shortName=${other.shortName}`, { token: sa.token })).body.uid).toBe(other.tenant.uid);
    expect((await call(app, 'GET', '/tenants/search/findByShortName?shortName=no-such-tenant', { token: sa.token })).status).toBe(404);
    expect((await call(app, 'GET', '/tenants/search/findByShortName', { token: sa.token })).status).toBe(400);
  });
});

describe('tenants: editing', () => {
  it('lets a tenant admin edit its own tenant, merging maps', async () => {
    const self = `/tenants/${t.tenant.uid}`;
    const patched = await call(app, 'PATCH', self, { token: t.admin.token, body: { logo: 'https://x/logo.png', settings: { schemaRolesEnforced: 'true' }, properties: { 'retention.ms': '1000' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ logo: 'https://x/logo.png', settings: { schemaRolesEnforced: 'true', notificationsEnabled: 'false' }, properties: { 'retention.ms': '1000' } });
    const merged = await call(app, 'PATCH', self, { token: t.admin.token, body: { properties: { 'segment.ms': '5' } } });
    expect(merged.body.properties).toEqual({ 'retention.ms': '1000', 'segment.ms': '5' });
    const same = await call(app, 'PATCH', self, { token: t.admin.token, body: { shortName: t.shortName, issuerUrl: 'https://ignored.example' } });
    expect([same.status, same.body.issuerUrl]).toEqual([200, `${app.authUrl}/realms/${t.shortName}`]);
    const replaced = await call(app, 'PUT', self, { token: t.admin.token, body: { name: 'Replaced Name', supportedAuthenticationMethods: [] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Replaced Name', shortName: t.shortName, logo: null, properties: null, supportedAuthenticationMethods: [] });
    const events = (await auditOf(app, t.tenant.uid)).filter((e) => e.action === 'UPDATED');
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events[0].details).toMatchObject({ logo: { old: null, new: 'https://x/logo.png' } });
  });

  it.each([
    ['shortName changed', { shortName: 'renamed' }, 422, 'shortName: cannot be changed'],
    ['unknown settings key', { settings: { unknownFlag: 'true' } }, 400, 'settings'],
    ['settings value not a boolean string', { settings: { schemaRolesEnforced: 'yes' } }, 400, 'settings.schemaRolesEnforced:'],
    ['empty name', { name: '' }, 400, 'name:'],
    ['name too long', { name: 'n'.repeat(101) }, 400, 'name: size must be at most 100'],
    ['SSL with a SASL mechanism', { supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'SCRAM_SHA_512' }] }, 400, 'supportedAuthenticationMethods[0].mechanism:'],
    ['SASL with MUTUAL_TLS', { supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'MUTUAL_TLS' }] }, 400, 'supportedAuthenticationMethods[1].mechanism:'],
    ['repeated rank', { supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 1, protocol: 'SASL', mechanism: 'OAUTH_BEARER' }] }, 400, 'supportedAuthenticationMethods[1].rank:'],
    ['rank zero', { supportedAuthenticationMethods: [{ rank: 0, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }] }, 400, 'supportedAuthenticationMethods[0].rank:'],
    ['unknown protocol', { supportedAuthenticationMethods: [{ rank: 1, protocol: 'TLS', mechanism: 'MUTUAL_TLS' }] }, 400, 'supportedAuthenticationMethods[0].protocol:'],
  ])('refuses %s', async (_label, body, status, error) => {
    const res = await call(app, 'PATCH', `/tenants/${t.tenant.uid}`, { token: t.admin.token, body });
    expect(res.status).toBe(status);
    expect(res.body.errors[0].startsWith(error)).toBe(true);
  });

  it('accepts every allowed protocol and mechanism pair, in any case', async () => {
    const methods = [
      { rank: 1, protocol: 'ssl', mechanism: 'mutual-tls' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_256' },
      { rank: 3, protocol: 'SASL', mechanism: 'scram sha 512' }, { rank: 4, protocol: 'SASL', mechanism: 'OAUTH_BEARER' },
    ];
    const res = await call(app, 'PATCH', `/tenants/${t.tenant.uid}`, { token: t.admin.token, body: { supportedAuthenticationMethods: methods } });
    expect(res.status).toBe(200);
    expect(res.body.supportedAuthenticationMethods).toEqual([
      { rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_256' },
      { rank: 3, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' }, { rank: 4, protocol: 'SASL', mechanism: 'OAUTH_BEARER' },
    ]);
  });

  type Actor = 'tenantAdmin' | 'plainUser' | 'superAdmin';
  const tokenOf = (a: Actor) => ({ tenantAdmin: t.admin, plainUser: plain, superAdmin: sa }[a]).token;

  it.each<[Actor, 'own' | 'other', number, number]>([
    ['tenantAdmin', 'own', 200, 403],
    ['plainUser', 'own', 403, 403],
    ['superAdmin', 'other', 200, 422],
    ['tenantAdmin', 'other', 404, 404],
    ['plainUser', 'other', 404, 404],
  ])('%s on the %s tenant: edit → %i, delete (blocked by environments) → %i', async (actor, which, edit, remove) => {
    const target = which === 'own' ? t.tenant.uid : other.tenant.uid;
    if (which === 'other') {
      const inst = await app.models.Instance.findOne({ where: { tenantUid: other.tenant.uid } })
        ?? await app.models.Instance.create({ tenantUid: other.tenant.uid, name: 'o-inst', shortName: 'oinst' });
      const g = await app.models.Group.findOne({ where: { tenantUid: other.tenant.uid } })
        ?? await app.models.Group.create({ tenantUid: other.tenant.uid, name: 'o-group' });
      if ((await app.models.Environment.count({ where: { tenantUid: other.tenant.uid } })) === 0) {
        await app.models.Environment.create({ tenantUid: other.tenant.uid, name: 'o-env', shortName: 'oenv', instanceUid: inst.uid, ownersUid: g.uid });
      }
    }
    expect((await call(app, 'PATCH', `/tenants/${target}`, { token: tokenOf(actor), body: { customerId: `C-${actor}` } })).status).toBe(edit);
    expect((await call(app, 'DELETE', `/tenants/${target}`, { token: tokenOf(actor) })).status).toBe(remove);
  });

  it('refuses to let a SUPER_ADMIN delete the tenant it is signed in to', async () => {
    const res = await call(app, 'DELETE', `/tenants/${t.tenant.uid}`, { token: sa.token });
    expectError(res, 422);
  });
});

describe('tenants: creation by a SUPER_ADMIN', () => {
  it.each<[string, () => TestUser]>([
    ['a tenant admin', () => t.admin],
    ['a plain user', () => plain],
  ])('refuses %s (403)', async (_label, who) => {
    const res = await call(app, 'POST', '/tenants', { token: who().token, body: { name: 'Nope', shortName: short('nope') } });
    expectError(res, 403);
  });

  it('creates a tenant whose realm and first admin work at once', async () => {
    const sn = short('acme');
    const email = `Jane.Doe@${sn}.example`;
    const password = 'first-admin-pw-1';
    expect((await discovery(sn)).status).toBe(404);
    const created = await call(app, 'POST', '/tenants', {
      token: sa.token,
      body: { name: 'Acme Corp', shortName: sn, customerId: 'C-1', admin: { firstName: 'Jane', lastName: 'Doe', emailAddress: { email }, password } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${app.api}/tenants/${created.body.uid}`);
    expect(created.body).toMatchObject({
      name: 'Acme Corp', shortName: sn, customerId: 'C-1', issuerUrl: `${app.authUrl}/realms/${sn}`, wizardCompleted: false,
      supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' }],
      created_by: sa.email,
    });
    expect(created.body).not.toHaveProperty('admin');
    expect(created.text).not.toContain(password);

    const disco = await discovery(sn);
    expect(disco.status).toBe(200);
    expect(((await disco.json()) as { issuer: string }).issuer).toBe(`${app.authUrl}/realms/${sn}`);

    const token = await passwordToken(app, sn, email.toLowerCase(), password);
    const own = await call(app, 'GET', '/tenant', { token, headers: { realm: sn } });
    expect([own.status, own.body.uid, own.body._links.edit]).toEqual([200, created.body.uid, { href: `${app.api}/tenants/${created.body.uid}` }]);
    const list = await call(app, 'GET', '/tenants', { token });
    expect(list.body._embedded.tenants.map((x: any) => x.uid)).toEqual([created.body.uid]);
    expect((await call(app, 'GET', `/tenants/${t.tenant.uid}`, { token })).status).toBe(404);
    expect((await call(app, 'PATCH', `/tenants/${created.body.uid}`, { token, body: { logo: 'acme.png' } })).status).toBe(200);
    expect((await call(app, 'POST', '/groups', { token, body: { name: 'Acme Admins' } })).status).toBe(201);

    const user = await app.models.User.findOne({ where: { tenantUid: created.body.uid } });
    expect(user!.get('roles')).toEqual(['TENANT_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR']);
    expect(user!.get('passwordHash')).toMatch(/^scrypt\$/);

    const tenantEvents = await auditOf(app, created.body.uid);
    expect(tenantEvents.map((e) => [e.action, e.resourceType, e.resourceName])).toEqual([['CREATED', 'Tenant', 'Acme Corp'], ['UPDATED', 'Tenant', 'Acme Corp']]);
    expect(tenantEvents[0].details).toMatchObject({ shortName: sn, name: 'Acme Corp' });
    const userEvents = await auditOf(app, user!.uid);
    expect(userEvents.map((e) => [e.action, e.resourceType, e.resourceName, e.actor])).toEqual([['CREATED', 'User', email, sa.email]]);
    expect(userEvents[0].details).toMatchObject({ emailAddress: { email }, roles: expect.arrayContaining([{ name: 'TENANT_ADMIN' }]) });
    const stored = await app.models.AuditEvent.findAll({ where: { timestamp: tenantEvents[0].timestamp } });
    expect(JSON.stringify(stored.map((e) => e.details))).not.toContain(password);
  });

  it('creates a tenant without an admin, taking every default', async () => {
    const sn = short('bare');
    const res = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Bare', shortName: sn } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ uniqueConsumerGroup: false, dataClassificationEnabled: false, logo: null, properties: null });
    expect(await app.models.User.count({ where: { tenantUid: res.body.uid } })).toBe(0);
    expect((await discovery(sn)).status).toBe(200);
  });

  it.each([
    ['name missing', { name: undefined }, 'name: is required'],
    ['shortName missing', { shortName: undefined }, 'shortName: is required'],
    ['shortName with capitals', { name: 'Bad', shortName: 'Bad-Name' }, 'shortName: must match'],
    ['shortName with an underscore', { name: 'Bad', shortName: 'bad_name' }, 'shortName: must match'],
    ['shortName of one letter', { name: 'Bad', shortName: 'b' }, 'shortName: must match'],
    ['admin without password', { admin: { firstName: 'A', lastName: 'B', emailAddress: 'a@b.example' } }, 'admin.password: is required'],
    ['admin with a short password', { admin: adminBody('a@b.example', 'short') }, 'admin.password: size must be at least 8'],
    ['admin without e-mail', { admin: { firstName: 'A', lastName: 'B', password: 'long-enough-pw' } }, 'admin.emailAddress: is required'],
    ['admin with a malformed e-mail', { admin: adminBody('not-an-email') }, 'admin.emailAddress:'],
    ['admin without first name', { admin: { lastName: 'B', emailAddress: 'a@b.example', password: 'long-enough-pw' } }, 'admin.firstName: is required'],
    ['admin with an empty last name', { admin: { firstName: 'A', lastName: '', emailAddress: 'a@b.example', password: 'long-enough-pw' } }, 'admin.lastName:'],
  ])('refuses %s with 400 naming the field', async (_label, body, error) => {
    const res = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Valid', shortName: short('valid'), ...body } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].startsWith(error)).toBe(true);
    expect(res.text).not.toContain('long-enough-pw');
    const pw = res.body.subErrors?.find((s: any) => s.field === 'admin.password');
    if (pw) expect(pw).not.toHaveProperty('rejectedValue');
  });

  it('keeps short names globally unique (409) and creates nothing on a clash', async () => {
    const before = await app.models.User.count();
    const clash = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Clash', shortName: other.shortName, admin: adminBody('clash@x.example') } });
    expect([clash.status, clash.body.errors[0]]).toEqual([409, expect.stringMatching(/^shortName:/)]);
    expect(await app.models.User.count()).toBe(before);
  });
});

describe('tenants: deletion', () => {
  it('deletes a tenant with its data; its realm then answers 404 and its tokens 401', async () => {
    const sn = short('gone');
    const email = `boss@${sn}.example`;
    const created = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Gone', shortName: sn, admin: adminBody(email) } });
    const token = await passwordToken(app, sn, email, 'first-admin-pw-1');
    const me = await app.models.User.findOne({ where: { tenantUid: created.body.uid } });
    expect((await call(app, 'POST', '/groups', { token, body: { name: 'Gone Team', members: [me!.uid], managers: [me!.uid] } })).status).toBe(201);
    expect((await call(app, 'PUT', `/tenants/${created.body.uid}/contact`, { token, body: { name: 'Boss', emailAddress: email } })).status).toBe(200);
    const cluster = await app.models.Cluster.create({ tenantUid: created.body.uid, name: 'gone-cluster', bootstrapServers: ['k:9092'] });
    const inst = await app.models.Instance.create({ tenantUid: created.body.uid, name: 'gone-inst', shortName: 'goneinst' });
    await app.models.InstanceCluster.create({ sourceUid: inst.uid, targetUid: cluster.uid, position: 0 });

    const removed = await call(app, 'DELETE', `/tenants/${created.body.uid}`, { token: sa.token });
    expect(removed.status).toBe(204);
    expect(await app.models.Tenant.findByPk(created.body.uid)).toBeNull();
    expect(await app.models.User.count({ where: { tenantUid: created.body.uid } })).toBe(0);
    expect(await app.models.Group.count({ where: { tenantUid: created.body.uid } })).toBe(0);
    expect(await app.models.TenantContact.count({ where: { tenantUid: created.body.uid } })).toBe(0);
    expect((await discovery(sn)).status).toBe(404);
    const stale = await call(app, 'GET', '/tenant', { token });
    expect([stale.status, stale.body.status]).toEqual([401, 'UNAUTHORIZED']);
    expect((await call(app, 'DELETE', `/tenants/${created.body.uid}`, { token: sa.token })).status).toBe(404);
    expect(await auditActions(app, created.body.uid)).toEqual(['CREATED', 'CREATED', 'DELETED']);
  });

  it('refuses to delete a tenant with environments (422)', async () => {
    const victim = await createTenant(app, 'victim');
    const inst = await app.models.Instance.create({ tenantUid: victim.tenant.uid, name: 'v-inst', shortName: 'vinst' });
    const g = await app.models.Group.create({ tenantUid: victim.tenant.uid, name: 'v-group' });
    await app.models.Environment.create({ tenantUid: victim.tenant.uid, name: 'v-env', shortName: 'venv', instanceUid: inst.uid, ownersUid: g.uid });
    const res = await call(app, 'DELETE', `/tenants/${victim.tenant.uid}`, { token: sa.token });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/has 1 environment\(s\)/);
    expect(await app.models.Tenant.findByPk(victim.tenant.uid)).not.toBeNull();
  });
});

describe('tenant contacts', () => {
  let self: string;
  beforeAll(() => { self = `/tenants/${t.tenant.uid}/contact`; });

  it('answers 404 until set, then the stored contact as plain JSON, per type', async () => {
    const fresh = await createTenant(app, 'contacts');
    const path = `/tenants/${fresh.tenant.uid}/contact`;
    const missing = await call(app, 'GET', path, { token: fresh.admin.token });
    expect([missing.status, missing.body.status]).toEqual([404, 'NOT_FOUND']);

    const put = await call(app, 'PUT', path, { token: fresh.admin.token, body: { type: 'BUSINESS', name: 'Jane Doe', emailAddress: { email: 'jane@example.com' }, phoneNumber: '+31 20 1' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('content-type')).toMatch(/^application\/json/);
    expect(put.body).toEqual({ type: 'BUSINESS', name: 'Jane Doe', emailAddress: { email: 'jane@example.com' }, phoneNumber: '+31 20 1' });

    const read = await call(app, 'GET', path, { token: fresh.admin.token });
    expect([read.status, read.body]).toEqual([200, put.body]);
    expect(read.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await call(app, 'GET', `${path}?type=BUSINESS`, { token: fresh.admin.token })).body).toEqual(put.body);
    expect((await call(app, 'GET', `${path}?type=TECHNICAL`, { token: fresh.admin.token })).status).toBe(404);

    const tech = await call(app, 'PUT', `${path}?type=technical`, { token: fresh.admin.token, body: { name: 'Ops Desk', emailAddress: 'ops@example.com' } });
    expect(tech.body).toEqual({ type: 'TECHNICAL', name: 'Ops Desk', emailAddress: { email: 'ops@example.com' }, phoneNumber: null });
    expect((await call(app, 'GET', `${path}?type=Technical`, { token: fresh.admin.token })).body).toEqual(tech.body);
    expect((await call(app, 'GET', path, { token: fresh.admin.token })).body).toEqual(put.body);
  });

  it.each([
    ['type in the body only', '', { type: 'technical', name: 'T', emailAddress: 't@example.com' }, 'TECHNICAL'],
    ['no type at all', '', { name: 'B', emailAddress: 'b@example.com' }, 'BUSINESS'],
    ['type in the query only', '?type=TECHNICAL', { name: 'Q', emailAddress: 'q@example.com' }, 'TECHNICAL'],
    ['the same type in query and body', '?type=business', { type: 'BUSINESS', name: 'S', emailAddress: 's@example.com' }, 'BUSINESS'],
  ])('stores the contact type from %s', async (_label, query, body, type) => {
    const res = await call(app, 'PUT', `${self}${query}`, { token: t.admin.token, body });
    expect([res.status, res.body.type]).toEqual([200, type]);
  });

  it('audits CREATED then UPDATED on the tenant, naming the contact type, and nothing for an unchanged contact', async () => {
    const fresh = await createTenant(app, 'contact-audit');
    const path = `/tenants/${fresh.tenant.uid}/contact?type=TECHNICAL`;
    const body = { name: 'Ops', emailAddress: 'ops@example.com' };
    await call(app, 'PUT', path, { token: fresh.admin.token, body });
    await call(app, 'PUT', path, { token: fresh.admin.token, body: { ...body, phoneNumber: '112' } });
    await call(app, 'PUT', path, { token: fresh.admin.token, body: { ...body, phoneNumber: '112' } });
    const events = await auditOf(app, fresh.tenant.uid);
    expect(events.map((e) => [e.action, e.resourceType, e.resourceName])).toEqual([['CREATED', 'Tenant', `Tenant ${fresh.shortName}`], ['UPDATED', 'Tenant', `Tenant ${fresh.shortName}`]]);
    expect(events[0].details).toMatchObject({ contactType: 'TECHNICAL', name: 'Ops', emailAddress: { email: 'ops@example.com' } });
    expect(events[1].details).toEqual({ contactType: 'TECHNICAL', phoneNumber: { old: null, new: '112' } });
  });

  it.each([
    ['name missing', { emailAddress: 'a@example.com' }, 'name: is required'],
    ['empty name', { name: '', emailAddress: 'a@example.com' }, 'name:'],
    ['emailAddress missing', { name: 'A' }, 'emailAddress: is required'],
    ['malformed emailAddress', { name: 'A', emailAddress: 'nope' }, 'emailAddress:'],
    ['phoneNumber too long', { name: 'A', emailAddress: 'a@example.com', phoneNumber: '1'.repeat(17) }, 'phoneNumber: size must be at most 16'],
    ['unknown type in the body', { type: 'BILLING', name: 'A', emailAddress: 'a@example.com' }, 'type:'],
  ])('refuses %s with 400 naming the field', async (_label, body, error) => {
    const res = await call(app, 'PUT', self, { token: t.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].startsWith(error)).toBe(true);
    expect(res.body.subErrors[0].field).toBe(error.split(':')[0]);
  });

  it.each([
    ['GET', '?type=BILLING'], ['PUT', '?type=BILLING'], ['PUT', '?type=TECHNICAL'],
  ])('refuses %s with a bad or contradicting type %s (400)', async (method, query) => {
    const res = await call(app, method, `${self}${query}`, { token: t.admin.token, body: method === 'PUT' ? { type: 'BUSINESS', name: 'A', emailAddress: 'a@example.com' } : undefined });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^type: /);
  });

  it.each<[string, () => TestUser, 'own' | 'other', number]>([
    ['a plain user', () => plain, 'own', 403],
    ['a tenant admin', () => t.admin, 'other', 404],
    ['a plain user', () => plain, 'other', 404],
    ['a SUPER_ADMIN', () => sa, 'other', 200],
  ])('answers %s writing the %s tenant\'s contact with %i', async (_label, who, which, status) => {
    const target = which === 'own' ? t.tenant.uid : other.tenant.uid;
    const res = await call(app, 'PUT', `/tenants/${target}/contact`, { token: who().token, body: { name: 'X', emailAddress: 'x@example.com' } });
    expect(res.status).toBe(status);
    if (which === 'other' && status === 404) expect((await call(app, 'GET', `/tenants/${target}/contact`, { token: who().token })).status).toBe(404);
  });

  it('checks rights before the body (403 before 400)', async () => {
    const res = await call(app, 'PUT', self, { token: plain.token, body: { name: '' } });
    expect(res.status).toBe(403);
  });
});

describe('tenants: isolation', () => {
  it('answers 404 to another tenant on every tenant endpoint', async () => {
    const target = `/tenants/${other.tenant.uid}`;
    const calls: [string, string, unknown][] = [
      ['GET', target, undefined],
      ['PUT', target, { name: 'Hijacked', shortName: other.shortName }],
      ['PATCH', target, { name: 'Hijacked' }],
      ['DELETE', target, undefined],
      ['GET', `${target}/contact`, undefined],
      ['GET', `${target}/contact?type=TECHNICAL`, undefined],
      ['PUT', `${target}/contact`, { name: 'X', emailAddress: 'x@example.com' }],
      ['GET', `/tenants/search/findByShortName?shortName=${other.shortName}`, undefined],
    ];
    for (const who of [t.admin, plain]) {
      for (const [method, path, body] of calls) {
        const res = await call(app, method, path, { token: who.token, body });
        expect([method, path, res.status, res.body.status]).toEqual([method, path, 404, 'NOT_FOUND']);
      }
    }
    expect((await app.models.Tenant.findByPk(other.tenant.uid))!.get('name')).not.toBe('Hijacked');
  });
});
