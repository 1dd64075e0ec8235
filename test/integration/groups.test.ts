import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { auditOf } from '../support/audit';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let root: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('groups'));
  other = await createTenant(app, 'groups-other');
  alice = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'alice');
  bob = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'bob');
  carol = await createUser(app, t, ['STREAM_AUTHOR'], 'carol');
  root = await createUser(app, t, ['SUPER_ADMIN'], 'root');
  outsider = await createUser(app, other, ['ENVIRONMENT_AUTHOR'], 'outsider');
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const userUri = (u: TestUser) => `${app.api}/users/${u.user.uid}`;
const memberLink = (u: TestUser) => ({ href: `${app.api}/users/${u.user.uid}{?projection}`, templated: true });
let seq = 0;
const uniqueName = (prefix: string) => `${prefix} ${++seq} ${Date.now().toString(36)}`;

async function newGroup(body: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/groups', { token: admin(), body: { name: uniqueName('Group'), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('groups: lifecycle and links', () => {
  it('creates, reads, patches, replaces and deletes a group, auditing each change', async () => {
    const created = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Team One', emailAddress: 'one@example.com', members: [userUri(alice), bob.user.uid] } });
    expect(created.status).toBe(201);
    const self = `${app.api}/groups/${created.body.uid}`;
    expect(created.headers.get('location')).toBe(self);
    expect(created.body).toMatchObject({ name: 'Team One', emailAddress: { email: 'one@example.com' }, phoneNumber: null });
    expect(created.body._embedded.members.map((m: any) => m.uid)).toEqual([alice.user.uid, bob.user.uid]);

    const patched = await call(app, 'PATCH', self, { token: admin(), body: { emailAddress: { email: 'two@example.com' }, phoneNumber: '+31 20 1234' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ emailAddress: { email: 'two@example.com' }, phoneNumber: '+31 20 1234' });
    expect(patched.body._embedded.members).toHaveLength(2);

    expect((await call(app, 'PATCH', self, { token: admin(), body: { emailAddress: null } })).body.emailAddress).toBeNull();

    const replaced = await call(app, 'PUT', self, { token: admin(), body: { name: 'Team One' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ phoneNumber: null, emailAddress: null, _embedded: { members: [], managers: [], resourceManagers: [] } });
    expect(replaced.body._links.members).toEqual([]);

    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
    expect((await call(app, 'GET', self, { token: admin() })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(404);

    const events = await auditOf(app, created.body.uid);
    expect(events.map((e) => [e.action, e.resourceType, e.resourceName])).toEqual([
      ['CREATED', 'Group', 'Team One'], ['UPDATED', 'Group', 'Team One'], ['UPDATED', 'Group', 'Team One'],
      ['UPDATED', 'Group', 'Team One'], ['DELETED', 'Group', 'Team One'],
    ]);
    expect(events[0].actor).toBe(t.admin.email);
  });

  it('links members as an array of templated user links and the manager lists as templated association links', async () => {
    const g = await newGroup({ members: [userUri(alice), userUri(bob)], managers: [userUri(carol)], resourceManagers: [userUri(bob)] });
    const self = `${app.api}/groups/${g.uid}`;
    expect(g._links).toEqual({
      self: { href: self },
      group: { href: self },
      members: [memberLink(alice), memberLink(bob)],
      managers: { href: `${self}/managers{?projection}`, templated: true },
      resourceManagers: { href: `${self}/resourceManagers{?projection}`, templated: true },
      edit: { href: self },
      delete: { href: self },
    });
    const read = await call(app, 'GET', self, { token: alice.token });
    expect(read.body._links.members).toEqual([memberLink(alice), memberLink(bob)]);
    expect(read.body._links.edit).toBeUndefined();
    expect(read.body._links.delete).toBeUndefined();
  });

  it('a manager who gives up managing: the reply to that very change has no edit link any more', async () => {
    const g = await newGroup({ members: [userUri(carol)], managers: [userUri(carol)] });
    const self = `${app.api}/groups/${g.uid}`;
    expect((await call(app, 'GET', self, { token: carol.token })).body._links.edit).toEqual({ href: self });
    const res = await call(app, 'PATCH', self, { token: carol.token, body: { managers: [] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body._links.edit).toBeUndefined();
    expect((await call(app, 'PATCH', self, { token: carol.token, body: { name: 'taken back' } })).status).toBe(403);
  });

  it.each([
    ['no member', [] as string[], 0],
    ['one member', ['alice'], 1],
  ])('keeps members an array with %s', async (_label, names, length) => {
    const users = names.map((n) => ({ alice, bob, carol } as Record<string, TestUser>)[n]);
    const g = await newGroup({ members: users.map(userUri) });
    expect(Array.isArray(g._links.members)).toBe(true);
    expect(g._links.members).toHaveLength(length);
    expect(g._links.members).toEqual(users.map(memberLink));
    const listed = await call(app, 'GET', `/groups/search/findByName?name=${encodeURIComponent(g.name)}`, { token: admin() });
    expect(listed.body._embedded.groups[0]._links.members).toEqual(users.map(memberLink));
  });

  it('embeds members, managers and resource managers as user summaries', async () => {
    const g = await newGroup({ members: [userUri(alice)], managers: [userUri(bob)], resourceManagers: [userUri(carol)] });
    const summary = g._embedded.members[0];
    expect(summary).toMatchObject({
      uid: alice.user.uid, firstName: 'Test', lastName: 'alice', emailAddress: { email: alice.email },
      _links: { self: { href: userUri(alice) } },
    });
    expect(summary).not.toHaveProperty('password');
    expect(summary).not.toHaveProperty('passwordHash');
    expect(g._embedded.managers.map((u: any) => u.uid)).toEqual([bob.user.uid]);
    expect(g._embedded.resourceManagers.map((u: any) => u.uid)).toEqual([carol.user.uid]);
  });

  it('accepts its own templated member links back as references', async () => {
    const g = await newGroup({ members: [userUri(alice), userUri(bob)] });
    const hrefs = g._links.members.map((l: { href: string }) => l.href);
    const again = await call(app, 'PUT', `/groups/${g.uid}`, { token: admin(), body: { name: g.name, members: hrefs } });
    expect(again.status).toBe(200);
    expect(again.body._embedded.members.map((m: any) => m.uid)).toEqual([alice.user.uid, bob.user.uid]);
  });
});

describe('groups: validation', () => {
  it.each([
    ['name missing', {}, 'name: is required'],
    ['name too short', { name: 'ab' }, 'name: size must be at least 3'],
    ['name too long', { name: 'x'.repeat(81) }, 'name: size must be at most 80'],
    ['name starting with a dash', { name: '-bad' }, 'name: must match'],
    ['name with a slash', { name: 'a/b group' }, 'name: must match'],
    ['emailAddress a number', { name: 'Mail Number', emailAddress: 42 }, 'emailAddress:'],
    ['phoneNumber empty', { name: 'Phone Empty', phoneNumber: '' }, 'phoneNumber:'],
    ['phoneNumber too long', { name: 'Phone Long', phoneNumber: '1'.repeat(17) }, 'phoneNumber: size must be at most 16'],
    ['members not an array', { name: 'Members Scalar', members: 42 }, 'members:'],
    ['unknown member', { name: 'Unknown Member', members: ['0123456789abcdef0123456789abcdef'] }, 'members[0]: unknown user'],
    ['unknown manager', { name: 'Unknown Manager', managers: ['https://x.example/users/0123456789abcdef0123456789abcdef'] }, 'managers[0]: unknown user'],
  ])('refuses %s with 400 naming the field', async (_label, body, error) => {
    const res = await call(app, 'POST', '/groups', { token: admin(), body });
    expectError(res, 400);
    expect(res.body.errors[0].startsWith(error)).toBe(true);
  });

  it('refuses a user of another tenant as member, naming the entry', async () => {
    const res = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'Foreign Member', members: [userUri(alice), userUri(outsider)] } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^members\[1\]: unknown user/);
  });

  it.each([
    ['a string e-mail', { emailAddress: 'plain@example.com' }, { email: 'plain@example.com' }],
    ['an {email} object', { emailAddress: { email: 'obj@example.com' } }, { email: 'obj@example.com' }],
    ['a null e-mail', { emailAddress: null }, null],
  ])('accepts %s', async (_label, body, expected) => {
    const g = await newGroup(body);
    expect(g.emailAddress).toEqual(expected);
  });

  it('accepts names with dots, underscores, dashes and spaces and free-form phone numbers', async () => {
    const g = await newGroup({ name: 'Ops_team.eu - 1', phoneNumber: 'ext. 42' });
    expect(g).toMatchObject({ name: 'Ops_team.eu - 1', phoneNumber: 'ext. 42' });
  });

  it('keeps names unique per tenant ignoring case, on create and on rename', async () => {
    await newGroup({ name: 'Unique Group' });
    const clash = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'unique GROUP' } });
    expect(clash.status).toBe(409);
    expect(clash.body.errors[0]).toMatch(/^name:/);
    const second = await newGroup({ name: 'Second Group' });
    expect((await call(app, 'PATCH', `/groups/${second.uid}`, { token: admin(), body: { name: 'UNIQUE group' } })).status).toBe(409);
    expect((await call(app, 'PATCH', `/groups/${second.uid}`, { token: admin(), body: { name: 'second GROUP' } })).status).toBe(200);
    const elsewhere = await call(app, 'POST', '/groups', { token: other.admin.token, body: { name: 'Unique Group' } });
    expect(elsewhere.status).toBe(201);
  });

  it('a rename frees the old name and takes the new one, ignoring case', async () => {
    const renamed = await newGroup({ name: 'Before Rename' });
    expect((await call(app, 'PATCH', `/groups/${renamed.uid}`, { token: admin(), body: { name: 'After Rename' } })).status).toBe(200);
    expect((await call(app, 'POST', '/groups', { token: admin(), body: { name: 'before RENAME' } })).status).toBe(201);
    const taken = await call(app, 'POST', '/groups', { token: admin(), body: { name: 'after rename' } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0]).toMatch(/^name:/);
  });
});

describe('groups: permissions', () => {
  type Actor = 'tenantAdmin' | 'superAdmin' | 'manager' | 'member' | 'resourceManager' | 'plainUser';
  const token = (a: Actor) => ({ tenantAdmin: t.admin, superAdmin: root, manager: alice, member: bob, resourceManager: carol, plainUser: null }[a]);
  let plain: TestUser;
  beforeAll(async () => { plain = await createUser(app, t, ['ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'APPLICATION_AUTHOR'], 'plain'); });
  const tokenOf = (a: Actor) => (token(a) ?? plain).token;
  const managed = () => newGroup({ managers: [userUri(alice)], members: [userUri(bob)], resourceManagers: [userUri(carol)] });

  it.each<[Actor, number]>([
    ['tenantAdmin', 201], ['superAdmin', 201], ['manager', 403], ['plainUser', 403],
  ])('create as %s → %i', async (actor, status) => {
    const res = await call(app, 'POST', '/groups', { token: tokenOf(actor), body: { name: uniqueName('Created') } });
    if (status === 403) expectError(res, 403, { subErrors: null });
    else expect(res.status).toBe(status);
  });

  it.each<[Actor, boolean]>([
    ['tenantAdmin', true], ['superAdmin', true], ['manager', true], ['member', false], ['resourceManager', false], ['plainUser', false],
  ])('edit and delete as %s allowed: %s', async (actor, allowed) => {
    const g = await managed();
    const self = `/groups/${g.uid}`;
    const who = tokenOf(actor);
    const read = await call(app, 'GET', self, { token: who });
    expect(read.status).toBe(200);
    expect(read.body._links.edit !== undefined).toBe(allowed);
    expect(read.body._links.delete !== undefined).toBe(allowed);
    const expected = allowed ? 200 : 403;
    expect((await call(app, 'PATCH', self, { token: who, body: { phoneNumber: '123' } })).status).toBe(expected);
    expect((await call(app, 'PUT', self, { token: who, body: { name: g.name, managers: [userUri(alice)], members: [userUri(bob)] } })).status).toBe(expected);
    const assoc = await call(app, 'POST', `${self}/members`, { token: who, body: [userUri(plain)] });
    expect(assoc.status).toBe(allowed ? 204 : 403);
    expect((await call(app, 'DELETE', `${self}/members/${bob.user.uid}`, { token: who })).status).toBe(allowed ? 204 : 403);
    expect((await call(app, 'DELETE', self, { token: who })).status).toBe(allowed ? 204 : 403);
  });

  it('checks rights before validating the body (403 before 400)', async () => {
    const g = await managed();
    const res = await call(app, 'PATCH', `/groups/${g.uid}`, { token: bob.token, body: { name: 'x' } });
    expect(res.status).toBe(403);
  });

  it('lists a create link only for tenant admins', async () => {
    expect((await call(app, 'GET', '/groups', { token: admin() })).body._links.create).toEqual({ href: `${app.api}/groups` });
    expect((await call(app, 'GET', '/groups', { token: alice.token })).body._links.create).toBeUndefined();
  });
});

describe('groups: association endpoints', () => {
  it('edits members through text/uri-list, compact JSON and single-member paths', async () => {
    const g = await newGroup();
    const rel = `${app.api}/groups/${g.uid}/members`;
    expect((await call(app, 'PUT', rel, { token: admin(), raw: userUri(alice), headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(204);
    expect((await call(app, 'POST', rel, { token: admin(), body: { links: [{ href: `https://elsewhere.example/x/${bob.user.uid}` }] }, headers: { 'Content-Type': 'application/x-spring-data-compact+json' } })).status).toBe(204);
    const list = await call(app, 'GET', rel, { token: admin(), headers: { Accept: 'text/uri-list' } });
    expect(list.text.split('\n')).toEqual([userUri(alice), userUri(bob)]);
    const hal = await call(app, 'GET', rel, { token: alice.token });
    expect(hal.body._embedded.users.map((u: any) => u.uid)).toEqual([alice.user.uid, bob.user.uid]);
    expect((await call(app, 'GET', `${rel}/${bob.user.uid}`, { token: admin() })).body.uid).toBe(bob.user.uid);
    const item = await call(app, 'GET', `/groups/${g.uid}`, { token: admin() });
    expect(item.body._links.members).toEqual([memberLink(alice), memberLink(bob)]);
    expect((await call(app, 'DELETE', `${rel}/${alice.user.uid}`, { token: admin() })).status).toBe(204);
    expect((await call(app, 'GET', `${rel}/${alice.user.uid}`, { token: admin() })).status).toBe(404);
    expect((await call(app, 'DELETE', rel, { token: admin() })).status).toBe(405);
    expect((await call(app, 'GET', `/groups/${g.uid}/nothing`, { token: admin() })).status).toBe(404);
  });

  it('lets a new manager edit at once and a removed manager no longer', async () => {
    const g = await newGroup();
    const managers = `/groups/${g.uid}/managers`;
    expect((await call(app, 'PATCH', `/groups/${g.uid}`, { token: carol.token, body: { phoneNumber: '1' } })).status).toBe(403);
    expect((await call(app, 'POST', managers, { token: admin(), body: [userUri(carol)] })).status).toBe(204);
    expect((await call(app, 'PATCH', `/groups/${g.uid}`, { token: carol.token, body: { phoneNumber: '2' } })).status).toBe(200);
    expect((await call(app, 'DELETE', `${managers}/${carol.user.uid}`, { token: admin() })).status).toBe(204);
    expect((await call(app, 'PATCH', `/groups/${g.uid}`, { token: carol.token, body: { phoneNumber: '3' } })).status).toBe(403);
  });
});

describe('groups: delete blockers', () => {
  it('refuses to delete a group that owns an environment until the environment is gone', async () => {
    const g = await newGroup();
    const inst = await app.models.Instance.create({ tenantUid: t.tenant.uid, name: 'grp-inst', shortName: 'grpinst' });
    const env = await app.models.Environment.create({ tenantUid: t.tenant.uid, name: 'grp-env', shortName: 'grpenv', instanceUid: inst.uid, ownersUid: g.uid });
    const res = await call(app, 'DELETE', `/groups/${g.uid}`, { token: admin() });
    expectError(res, 422, { errors: [expect.stringContaining('owns 1 environment(s)')] });
    expect((await call(app, 'GET', `/groups/${g.uid}`, { token: admin() })).status).toBe(200);
    await env.destroy();
    expect((await call(app, 'DELETE', `/groups/${g.uid}`, { token: admin() })).status).toBe(204);
  });
});

describe('groups: search', () => {
  it('finds by exact name ignoring case, never by substring', async () => {
    const g = await newGroup({ name: 'Search Me Exactly' });
    const hit = await call(app, 'GET', '/groups/search/findByName?name=search%20me%20EXACTLY', { token: alice.token });
    expect(hit.body._embedded.groups.map((x: any) => x.uid)).toEqual([g.uid]);
    const miss = await call(app, 'GET', '/groups/search/findByName?name=Search%20Me', { token: alice.token });
    expect(miss.status).toBe(200);
    expect(miss.body._embedded.groups).toEqual([]);
    expect((await call(app, 'GET', '/groups/search/findByName', { token: alice.token })).status).toBe(400);
    const index = await call(app, 'GET', '/groups/search', { token: alice.token });
    expect(index.body._links.findByName).toEqual({ href: `${app.api}/groups/search/findByName{?name,page,size,sort}`, templated: true });
  });
});

describe('GET /group', () => {
  let dave: TestUser;
  let mine: Record<string, any>;
  beforeAll(async () => {
    dave = await createUser(app, t, ['APPLICATION_AUTHOR'], 'dave');
    const d = userUri(dave);
    mine = {
      member: await newGroup({ name: 'Mine Orders Team', members: [d] }),
      manager: await newGroup({ name: 'Mine Payments', managers: [d] }),
      resourceManager: await newGroup({ name: 'mine_orders_archive', resourceManagers: [d] }),
    };
    await newGroup({ name: 'Mine Orders Hidden', members: [userUri(alice)] });
  });
  const uids = (res: any) => res.body._embedded.groups.map((g: any) => g.uid);

  it('lists the groups the caller is member, manager or resource manager of, paged', async () => {
    const res = await call(app, 'GET', '/group', { token: dave.token });
    expect(res.status).toBe(200);
    expect(uids(res)).toEqual([mine.member.uid, mine.manager.uid, mine.resourceManager.uid]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    expect(res.body._links.self).toEqual({ href: `${app.api}/group?page=0&size=20` });
    expect(res.body._links.create).toBeUndefined();
    expect(res.body._embedded.groups[0]._links.members).toEqual([memberLink(dave)]);
  });

  it.each([
    ['ORDERS', ['member', 'resourceManager']],
    ['payments', ['manager']],
    ['_', ['resourceManager']],
    ['%', []],
    ['nothing like this', []],
    ['', ['member', 'manager', 'resourceManager']],
  ])('filters by name substring %j, ignoring case', async (name, expected) => {
    const res = await call(app, 'GET', `/group?name=${encodeURIComponent(name)}`, { token: dave.token });
    expect(res.status).toBe(200);
    expect(uids(res)).toEqual(expected.map((k) => mine[k].uid));
  });

  it('pages and sorts, keeping the name filter in the links', async () => {
    const first = await call(app, 'GET', '/group?name=mine&size=2&sort=name,desc', { token: dave.token });
    expect(uids(first)).toEqual([mine.resourceManager.uid, mine.manager.uid]);
    expect(first.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(first.body._links.next).toEqual({ href: `${app.api}/group?name=mine&page=1&size=2&sort=name,desc` });
    const second = await call(app, 'GET', first.body._links.next.href, { token: dave.token });
    expect(uids(second)).toEqual([mine.member.uid]);
    expect(second.body._links.prev.href).toBe(`${app.api}/group?name=mine&page=0&size=2&sort=name,desc`);
    const past = await call(app, 'GET', '/group?page=5', { token: dave.token });
    expect([past.status, past.body._embedded.groups]).toEqual([200, []]);
  });

  it.each([
    ['size=0', 'size:'],
    ['page=-1', 'page:'],
    ['sort=members', 'sort:'],
  ])('refuses %s with 400', async (query, error) => {
    const res = await call(app, 'GET', `/group?${query}`, { token: dave.token });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].startsWith(error)).toBe(true);
  });

  it('answers an empty page to a caller in no group, and never another tenant\'s groups', async () => {
    const loner = await createUser(app, t, ['STREAM_AUTHOR'], 'loner');
    const res = await call(app, 'GET', '/group', { token: loner.token });
    expect(res.body._embedded.groups).toEqual([]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 });
    const foreign = await call(app, 'GET', '/group?size=1000', { token: outsider.token });
    expect(foreign.body._embedded.groups).toEqual([]);
  });

  it('serves the compact listing', async () => {
    const res = await call(app, 'GET', '/group', { token: dave.token, headers: { Accept: 'application/x-spring-data-compact+json' } });
    expect(res.body.links.filter((l: any) => l.rel === 'group').map((l: any) => l.href))
      .toEqual([mine.member.uid, mine.manager.uid, mine.resourceManager.uid].map((u) => `${app.api}/groups/${u}`));
  });
});

describe('groups: tenant isolation', () => {
  it('answers 404 to another tenant on every group endpoint', async () => {
    const g = await newGroup({ name: 'Hidden Group', members: [userUri(alice)] });
    const self = `/groups/${g.uid}`;
    const o = other.admin.token;
    const calls: [string, string, Record<string, unknown>][] = [
      ['GET', self, {}],
      ['PUT', self, { body: { name: 'Hijacked' } }],
      ['PATCH', self, { body: { phoneNumber: '1' } }],
      ['DELETE', self, {}],
      ['GET', `${self}/members`, {}],
      ['PUT', `${self}/members`, { body: [] }],
      ['POST', `${self}/members`, { body: [] }],
      ['PATCH', `${self}/managers`, { body: [] }],
      ['GET', `${self}/members/${alice.user.uid}`, {}],
      ['DELETE', `${self}/members/${alice.user.uid}`, {}],
    ];
    for (const [method, path, extra] of calls) {
      const res = await call(app, method, path, { token: o, ...extra });
      expect([method, path, res.status, res.body.status]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    const list = await call(app, 'GET', '/groups?size=10000', { token: o });
    expect(list.body._embedded.groups.map((x: any) => x.uid)).not.toContain(g.uid);
    const search = await call(app, 'GET', '/groups/search/findByName?name=Hidden%20Group', { token: o });
    expect(search.body._embedded.groups).toEqual([]);
    expect((await call(app, 'GET', self, { token: admin() })).body._embedded.members).toHaveLength(1);
  });

  it('answers 404 to another tenant\'s SUPER_ADMIN too', async () => {
    const foreignRoot = await createUser(app, other, ['SUPER_ADMIN'], 'foreign-root');
    const g = await newGroup();
    expect((await call(app, 'GET', `/groups/${g.uid}`, { token: foreignRoot.token })).status).toBe(404);
    expect((await call(app, 'DELETE', `/groups/${g.uid}`, { token: foreignRoot.token })).status).toBe(404);
  });
});
