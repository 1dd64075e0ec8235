import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let sa: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'tenants');
  other = await createTenant(app, 'tenants-other');
  sa = await createUser(app, t, ['SUPER_ADMIN'], 'root');
});
afterAll(async () => app?.stop());

const short = (p: string) => `${p}-${randomBytes(3).toString('hex')}`;

describe('tenants', () => {
  it('serves the caller\'s tenant at /tenant and lists only it for non super admins', async () => {
    const own = await call(app, 'GET', '/tenant', { token: t.admin.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      uid: t.tenant.uid, shortName: t.shortName, issuerUrl: `${app.authUrl}/realms/${t.shortName}`, properties: null,
      settings: { notificationsEnabled: 'false', schemaRolesEnforced: 'false', onlyResourceManagerCanUpdateAndDeploy: 'false' },
    });
    const list = await call(app, 'GET', '/tenants?size=1000', { token: t.admin.token });
    expect(list.body._embedded.tenants.map((x: any) => x.uid)).toEqual([t.tenant.uid]);
    expect(list.body._links.create).toBeUndefined();
    expect((await call(app, 'GET', `/tenants/${other.tenant.uid}`, { token: t.admin.token })).status).toBe(404);
    expect((await call(app, 'PATCH', `/tenants/${other.tenant.uid}`, { token: t.admin.token, body: { name: 'x' } })).status).toBe(404);
    expect((await call(app, 'DELETE', `/tenants/${other.tenant.uid}`, { token: t.admin.token })).status).toBe(404);
    expect((await call(app, 'GET', `/tenants/search/findByShortName?shortName=${other.shortName}`, { token: t.admin.token })).status).toBe(404);
  });

  it('lets a tenant admin edit its own tenant', async () => {
    const self = `/tenants/${t.tenant.uid}`;
    const patched = await call(app, 'PATCH', self, { token: t.admin.token, body: { logo: 'https://x/logo.png', settings: { schemaRolesEnforced: 'true' }, properties: { 'retention.ms': '1000' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ logo: 'https://x/logo.png', settings: { schemaRolesEnforced: 'true', notificationsEnabled: 'false' }, properties: { 'retention.ms': '1000' } });
    expect((await call(app, 'PATCH', self, { token: t.admin.token, body: { settings: { unknownFlag: 'true' } } })).status).toBe(400);
    expect((await call(app, 'PATCH', self, { token: t.admin.token, body: { settings: { schemaRolesEnforced: 'yes' } } })).status).toBe(400);
    expect((await call(app, 'PATCH', self, { token: t.admin.token, body: { shortName: 'renamed' } })).status).toBe(422);
    const user = await createUser(app, t, ['ENVIRONMENT_AUTHOR']);
    expect((await call(app, 'PATCH', self, { token: user.token, body: { name: 'nope' } })).status).toBe(403);
    expect((await call(app, 'DELETE', self, { token: t.admin.token })).status).toBe(403);
  });

  it('lets a super admin create, list, find and delete tenants', async () => {
    const sn = short('new');
    expect((await call(app, 'POST', '/tenants', { token: t.admin.token, body: { name: 'New', shortName: sn } })).status).toBe(403);
    const created = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'New Tenant', shortName: sn } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      shortName: sn, uniqueConsumerGroup: false, wizardCompleted: false, customerId: null,
      supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' }],
    });
    const row = await app.models.Tenant.findByPk(created.body.uid);
    expect(row!.get('shortName')).toBe(sn);
    const clash = await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Clash', shortName: t.shortName } });
    expect([clash.status, clash.body.errors[0]]).toEqual([409, expect.stringMatching(/^shortName:/)]);
    expect((await call(app, 'POST', '/tenants', { token: sa.token, body: { name: 'Bad', shortName: 'Bad_Name' } })).status).toBe(400);
    const all = await call(app, 'GET', '/tenants?size=1000', { token: sa.token });
    expect(all.body._embedded.tenants.map((x: any) => x.uid)).toEqual(expect.arrayContaining([t.tenant.uid, other.tenant.uid, created.body.uid]));
    expect((await call(app, 'GET', `/tenants/search/findByShortName?shortName=${sn}`, { token: sa.token })).body.uid).toBe(created.body.uid);
    expect((await call(app, 'DELETE', created.body._links.self.href, { token: sa.token })).status).toBe(204);
    expect(await app.models.Tenant.findByPk(created.body.uid)).toBeNull();
    const actions = (await app.models.AuditEvent.findAll({ where: { resourceId: created.body.uid } })).map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['CREATED', 'DELETED']));
  });

  it('refuses to delete a tenant with environments', async () => {
    const victim = await createTenant(app, 'victim');
    const inst = await app.models.Instance.create({ tenantUid: victim.tenant.uid, name: 'v-inst', shortName: 'vinst' });
    const g = await app.models.Group.create({ tenantUid: victim.tenant.uid, name: 'v-group' });
    await app.models.Environment.create({ tenantUid: victim.tenant.uid, name: 'v-env', shortName: 'venv', instanceUid: inst.uid, ownersUid: g.uid });
    expect((await call(app, 'DELETE', `/tenants/${victim.tenant.uid}`, { token: sa.token })).status).toBe(422);
  });
});
