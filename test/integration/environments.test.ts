import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let author: TestUser;
let outsider: TestUser;
let viewer: TestUser;
let inst: any;
let inst2: any;
let owners: any;
let viewers: any;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('envs'));
  other = await createTenant(app, 'envs-other');
  author = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'author');
  outsider = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'outsider');
  viewer = await createUser(app, t, ['STREAM_AUTHOR'], 'viewer');
  const tok = t.admin.token;
  inst = (await call(app, 'POST', '/instances', { token: tok, body: { name: 'Env Inst', shortName: 'envinst' } })).body;
  inst2 = (await call(app, 'POST', '/instances', { token: tok, body: { name: 'Env Inst 2', shortName: 'envinst2' } })).body;
  owners = (await call(app, 'POST', '/groups', { token: tok, body: { name: 'Env Owners', members: [author.user.uid] } })).body;
  viewers = (await call(app, 'POST', '/groups', { token: tok, body: { name: 'Env Viewers', members: [viewer.user.uid] } })).body;
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const post = (body: Record<string, unknown>, token = author.token) =>
  call(app, 'POST', '/environments', { token, body: { instance: inst._links.self.href, owners: owners.uid, ...body } });

describe('environments', () => {
  it('creates with defaults, patches, replaces, synchronizes and deletes', async () => {
    const created = await post({ name: 'dev', shortName: 'dev', properties: { 'segment.ms': '1000' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      color: '#80affe', retentionTime: 604800000, partitions: 2, authorizationIssuer: 'Stream owner', visibility: 'Public',
      private: false, autoApproved: false, properties: { 'segment.ms': '1000' }, settings: {},
      _embedded: { instance: { uid: inst.uid }, owners: { uid: owners.uid }, viewers: [] },
    });
    const self = created.body._links.self.href;
    expect(created.body._links.synchronize.href).toBe(`${self}/synchronize`);
    const patched = await call(app, 'PATCH', self, { token: author.token, body: { properties: { 'segment.ms': null, a: 'b' }, settings: { enforceDataMasking: 'true' }, authorizationIssuer: 'auto', retentionTime: 160704000000 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ properties: { a: 'b' }, settings: { enforceDataMasking: 'true' }, authorizationIssuer: 'Auto', autoApproved: true, retentionTime: 160704000000 });
    const replaced = await call(app, 'PUT', self, { token: author.token, body: { name: 'dev', shortName: 'dev', instance: inst.uid, owners: owners.uid, partitions: 6 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ partitions: 6, authorizationIssuer: 'Stream owner', properties: {} });
    expect((await call(app, 'POST', `${self}/synchronize`, { token: author.token })).status).toBe(204);
    expect((await call(app, 'POST', `${self}/synchronize`, { token: outsider.token })).status).toBe(403);
    expect((await call(app, 'GET', '/environments/search/findByShortName?shortName=DEV', { token: author.token })).body._embedded.environments.map((e: any) => e.uid)).toEqual([created.body.uid]);
    expect((await call(app, 'GET', `/environments/search/findByInstance?instance=${encodeURIComponent(inst._links.self.href)}`, { token: author.token })).body._embedded.environments).toHaveLength(1);
    expect((await call(app, 'GET', '/environments/search/findByInstance?instance=0123456789abcdef0123456789abcdef', { token: author.token })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: outsider.token })).status).toBe(403);
    expect((await call(app, 'DELETE', self, { token: author.token })).status).toBe(204);
    const events = await app.models.AuditEvent.findAll({ where: { resourceId: created.body.uid } });
    expect(events.map((e: any) => e.action)).toEqual(expect.arrayContaining(['CREATED', 'UPDATED', 'SYNCHRONIZED', 'DELETED']));
    expect(events.every((e: any) => e.resourceName === 'dev' && e.resourceType === 'Environment')).toBe(true);
  });

  it('validates, keeps names unique and instance/shortName immutable', async () => {
    const bad = await post({ name: 'priv', shortName: 'priv', visibility: 'Private' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['authorizationIssuer: must be Auto for a Private environment']);
    expect((await post({ name: 'x', shortName: 'x' })).status).toBe(400);
    expect((await post({ name: 'color', shortName: 'color', color: 'red' })).status).toBe(400);
    const noOwners = await call(app, 'POST', '/environments', { token: author.token, body: { name: 'noown', shortName: 'noown', instance: inst.uid } });
    expect(noOwners.body.errors).toEqual(['owners: is required']);
    const ok = await post({ name: 'unique-env', shortName: 'uniq' });
    expect(ok.status).toBe(201);
    const n = await post({ name: 'UNIQUE-env', shortName: 'other' });
    expect([n.status, n.body.errors[0]]).toEqual([409, expect.stringMatching(/^name:/)]);
    const s = await post({ name: 'another', shortName: 'UNIQ' });
    expect([s.status, s.body.errors[0]]).toEqual([409, expect.stringMatching(/^shortName:/)]);
    const self = ok.body._links.self.href;
    expect((await call(app, 'PATCH', self, { token: author.token, body: { shortName: 'changed' } })).status).toBe(422);
    expect((await call(app, 'PATCH', self, { token: author.token, body: { instance: inst2.uid } })).status).toBe(422);
    expect((await call(app, 'PATCH', self, { token: author.token, body: { instance: inst._links.self.href } })).status).toBe(200);
    expect((await call(app, 'PUT', `${self}/instance`, { token: author.token, raw: inst2._links.self.href, headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(422);
  });

  it('needs ownership of the owners group to create unless ENVIRONMENT_ADMIN', async () => {
    expect((await post({ name: 'not-mine', shortName: 'notmine' }, outsider.token)).status).toBe(403);
    expect((await post({ name: 'viewer-env', shortName: 'viewerenv' }, viewer.token)).status).toBe(403);
    const envAdmin = await createUser(app, t, ['ENVIRONMENT_ADMIN'], 'envadmin');
    expect((await post({ name: 'admins', shortName: 'admins' }, envAdmin.token)).status).toBe(201);
  });

  it('edits instance, owners and viewers through the association paths', async () => {
    const env = (await post({ name: 'assoc-env', shortName: 'assocenv' })).body;
    const self = env._links.self.href;
    const inst1 = await call(app, 'GET', `${self}/instance`, { token: author.token });
    expect(inst1.body.uid).toBe(inst.uid);
    expect((await call(app, 'GET', `${self}/instance`, { token: author.token, headers: { Accept: 'text/uri-list' } })).text).toBe(inst._links.self.href);
    expect((await call(app, 'DELETE', `${self}/instance`, { token: author.token })).status).toBe(422);
    expect((await call(app, 'DELETE', `${self}/owners`, { token: author.token })).status).toBe(422);
    expect((await call(app, 'PUT', `${self}/instance`, { token: author.token, body: inst.uid })).status).toBe(204);
    // odd URI: the groups collection named with an environment-ish path, last segment wins
    expect((await call(app, 'PUT', `${self}/viewers`, { token: author.token, raw: `${app.api}/environments/${viewers.uid}`, headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(204);
    expect((await call(app, 'POST', `${self}/viewers`, { token: author.token, body: { links: [{ href: owners._links.self.href }] }, headers: { 'Content-Type': 'application/x-spring-data-compact+json' } })).status).toBe(204);
    let list = await call(app, 'GET', `${self}/viewers`, { token: author.token, headers: { Accept: 'text/uri-list' } });
    expect(list.text.split('\n')).toEqual([viewers._links.self.href, owners._links.self.href]);
    expect((await call(app, 'PATCH', `${self}/viewers`, { token: author.token, body: [viewers.uid] })).status).toBe(204);
    const hal = await call(app, 'GET', `${self}/viewers`, { token: author.token });
    expect(hal.body._embedded.groups.map((g: any) => g.uid)).toEqual([viewers.uid, owners.uid]);
    expect((await call(app, 'DELETE', `${self}/viewers/${owners.uid}`, { token: author.token })).status).toBe(204);
    list = await call(app, 'GET', `${self}/viewers`, { token: author.token, headers: { Accept: 'text/uri-list' } });
    expect(list.text).toBe(viewers._links.self.href);
    expect((await call(app, 'DELETE', `${self}/viewers`, { token: author.token })).status).toBe(405);
    expect((await call(app, 'POST', `${self}/instance`, { token: author.token, body: [inst.uid] })).status).toBe(405);
    expect((await call(app, 'PUT', `${self}/viewers`, { token: outsider.token, body: [] })).status).toBe(403);
  });

  it('lets only an owner of the new group (or an admin) hand an environment over through /owners', async () => {
    const env = (await post({ name: 'handover-env', shortName: 'handover' })).body;
    const self = env._links.self.href;
    const toViewers = await call(app, 'PUT', `${self}/owners`, { token: author.token, raw: viewers._links.self.href, headers: { 'Content-Type': 'text/uri-list' } });
    expect(toViewers.status).toBe(403);
    expect((await call(app, 'GET', `${self}/owners`, { token: author.token })).body.uid).toBe(owners.uid);
    expect((await call(app, 'PUT', `${self}/owners`, { token: admin(), body: viewers.uid })).status).toBe(204);
    expect((await call(app, 'GET', `${self}/owners`, { token: admin() })).body.uid).toBe(viewers.uid);
  });

  it('hides Private environments from users outside owners and viewers', async () => {
    const env = (await post({ name: 'private-env', shortName: 'private', visibility: 'private', authorizationIssuer: 'AUTO', viewers: [viewers.uid] })).body;
    expect(env).toMatchObject({ visibility: 'Private', private: true, autoApproved: true });
    const self = env._links.self.href;
    expect((await call(app, 'GET', self, { token: outsider.token })).status).toBe(404);
    expect((await call(app, 'GET', '/environments?size=1000', { token: outsider.token })).body._embedded.environments.map((e: any) => e.uid)).not.toContain(env.uid);
    expect((await call(app, 'GET', self, { token: viewer.token })).status).toBe(200);
    expect((await call(app, 'GET', self, { token: author.token })).status).toBe(200);
    expect((await call(app, 'GET', self, { token: admin() })).status).toBe(200);
  });

  it('hides environments from other tenants', async () => {
    const env = (await post({ name: 'tenant-env', shortName: 'tenantenv' })).body;
    const self = env._links.self.href;
    const o = other.admin.token;
    expect((await call(app, 'GET', self, { token: o })).status).toBe(404);
    expect((await call(app, 'PATCH', self, { token: o, body: { description: 'x' } })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: o })).status).toBe(404);
    expect((await call(app, 'GET', '/environments?size=1000', { token: o })).body._embedded.environments.map((e: any) => e.uid)).not.toContain(env.uid);
  });
});
