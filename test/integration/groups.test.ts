import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'groups');
  other = await createTenant(app, 'groups-other');
  alice = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'alice');
  bob = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'bob');
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const userUri = (u: TestUser) => `${app.api}/users/${u.user.uid}`;

describe('groups', () => {
  it('creates, reads, patches, replaces and deletes a group', async () => {
    const created = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Team One', emailAddress: 'one@example.com', members: [userUri(alice), bob.user.uid] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Team One', emailAddress: { email: 'one@example.com' }, phoneNumber: null });
    expect(created.body._embedded.members.map((m: any) => m.uid).sort()).toEqual([alice.user.uid, bob.user.uid].sort());
    expect(created.body._embedded.members[0].emailAddress.email).toMatch(/@/);
    expect(created.body._links.members.href).toBe(`${created.body._links.self.href}/members`);
    const self = created.body._links.self.href;

    const patched = await call(app, 'PATCH', self, { token: admin(), body: { emailAddress: { email: 'two@example.com' }, phoneNumber: '+31 20 1234' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ emailAddress: { email: 'two@example.com' }, phoneNumber: '+31 20 1234' });
    expect(patched.body._embedded.members).toHaveLength(2);

    const cleared = await call(app, 'PATCH', self, { token: admin(), body: { emailAddress: null } });
    expect(cleared.body.emailAddress).toBeNull();

    const replaced = await call(app, 'PUT', self, { token: admin(), body: { name: 'Team One' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ phoneNumber: null, _embedded: { members: [] } });

    expect((await call(app, 'GET', '/groups/search/findByName?name=team%20ONE', { token: admin() })).body._embedded.groups).toHaveLength(1);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
    expect((await call(app, 'GET', self, { token: admin() })).status).toBe(404);

    const actions = (await app.models.AuditEvent.findAll({ where: { resourceId: created.body.uid } })).map((e: any) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['CREATED', 'UPDATED', 'DELETED']));
  });

  it('validates fields and keeps names unique ignoring case', async () => {
    expect((await call(app, 'POST', '/groups', { token: admin(), body: { name: 'ab' } })).status).toBe(400);
    expect((await call(app, 'POST', '/groups', { token: admin(), body: { name: '-bad' } })).status).toBe(400);
    expect((await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Phone', phoneNumber: 'abc' } })).status).toBe(400);
    expect((await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Unique Group' } })).status).toBe(201);
    const clash = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'unique GROUP' } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatch(/^name:/);
    const unknown = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Refs', members: ['0123456789abcdef0123456789abcdef'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatch(/^members\[0\]: unknown user/);
  });

  it('lets managers edit, others not; only tenant admins create', async () => {
    expect((await call(app, 'POST', '/groups', { token: alice.token, body: { name: 'Alice Own' } })).status).toBe(403);
    const g = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Managed', managers: [userUri(alice)] } });
    expect((await call(app, 'PATCH', g.body._links.self.href, { token: alice.token, body: { phoneNumber: '123' } })).status).toBe(200);
    expect((await call(app, 'PATCH', g.body._links.self.href, { token: bob.token, body: { phoneNumber: '456' } })).status).toBe(403);
    const read = await call(app, 'GET', g.body._links.self.href, { token: bob.token });
    expect(read.body._links.edit).toBeUndefined();
  });

  it('edits members through the association paths', async () => {
    const g = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Assoc Group' } });
    const rel = `${g.body._links.self.href}/members`;
    expect((await call(app, 'PUT', rel, { token: admin(), raw: userUri(alice), headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(204);
    expect((await call(app, 'POST', rel, { token: admin(), body: { links: [{ href: `https://elsewhere.example/x/${bob.user.uid}` }] }, headers: { 'Content-Type': 'application/x-spring-data-compact+json' } })).status).toBe(204);
    const list = await call(app, 'GET', rel, { token: admin(), headers: { Accept: 'text/uri-list' } });
    expect(list.text.split('\n')).toEqual([userUri(alice), userUri(bob)]);
    const hal = await call(app, 'GET', rel, { token: admin() });
    expect(hal.body._embedded.users).toHaveLength(2);
    expect((await call(app, 'DELETE', `${rel}/${alice.user.uid}`, { token: admin() })).status).toBe(204);
    expect((await call(app, 'GET', `${rel}/${alice.user.uid}`, { token: admin() })).status).toBe(404);
    expect((await call(app, 'DELETE', rel, { token: admin() })).status).toBe(405);
    expect((await call(app, 'GET', `${g.body._links.self.href}/nothing`, { token: admin() })).status).toBe(404);
  });

  it('refuses to delete a group that owns an environment', async () => {
    const g = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Owner Group' } });
    const inst = await app.models.Instance.create({ tenantUid: t.tenant.uid, name: 'grp-inst', shortName: 'grpinst' });
    await app.models.Environment.create({ tenantUid: t.tenant.uid, name: 'grp-env', shortName: 'grpenv', instanceUid: inst.uid, ownersUid: g.body.uid });
    const res = await call(app, 'DELETE', g.body._links.self.href, { token: admin() });
    expect(res.status).toBe(422);
  });

  it('hides groups from other tenants', async () => {
    const g = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Hidden Group' } });
    const self = g.body._links.self.href;
    const o = other.admin.token;
    expect((await call(app, 'GET', self, { token: o })).status).toBe(404);
    expect((await call(app, 'PATCH', self, { token: o, body: { phoneNumber: '1' } })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: o })).status).toBe(404);
    const list = await call(app, 'GET', '/groups?size=1000', { token: o });
    expect(list.body._embedded.groups.map((x: any) => x.uid)).not.toContain(g.body.uid);
  });
});
