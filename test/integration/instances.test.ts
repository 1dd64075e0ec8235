import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditActions } from '../support/audit';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let c1: any;
let c2: any;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('instances'));
  other = await createTenant(app, 'instances-other');
  c1 = (await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'ic-1', bootstrapServers: ['b1:9092'] } })).body;
  c2 = (await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'ic-2', bootstrapServers: ['b2:9092'] } })).body;
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const post = (body: unknown) => call(app, 'POST', '/instances', { token: admin(), body });

describe('instances', () => {
  it('creates with defaults, patches, replaces and deletes', async () => {
    const created = await post({ name: 'Production', shortName: 'prod', clusters: [c1._links.self.href] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      shortName: 'prod', topicNamePattern: '{tenant}-{instance}-{environment}-{stream}', granularBrowsePermission: false, connectEnabled: true,
      enabledAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' }],
    });
    expect(created.body._embedded.clusters.map((c: any) => c.uid)).toEqual([c1.uid]);
    const self = created.body._links.self.href;
    const patched = await call(app, 'PATCH', self, { token: admin(), body: { description: 'live', clusters: [c2.uid], enabledAuthenticationMethods: [{ rank: 1, protocol: 'sasl', mechanism: 'scram-sha-256' }] } });
    expect(patched.status).toBe(200);
    expect(patched.body.enabledAuthenticationMethods).toEqual([{ rank: 1, protocol: 'SASL', mechanism: 'SCRAM_SHA_256' }]);
    expect(patched.body._embedded.clusters.map((c: any) => c.uid)).toEqual([c2.uid]);
    const replaced = await call(app, 'PUT', self, { token: admin(), body: { name: 'Production', shortName: 'prod', connectEnabled: false } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ shortName: 'prod', description: null, connectEnabled: false, _embedded: { clusters: [] } });
    expect((await call(app, 'GET', '/instances/search/findByShortName?shortName=PROD', { token: admin() })).body.uid).toBe(created.body.uid);
    expect((await call(app, 'GET', '/instances/search/findByShortName?shortName=none', { token: admin() })).status).toBe(404);
    expect((await call(app, 'GET', '/instances/search/findByAttributes?name=production&shortName=prod', { token: admin() })).body._embedded.instances).toHaveLength(1);
    expect((await call(app, 'GET', '/instances/search/findByName?name=production', { token: admin() })).body.uid).toBe(created.body.uid);
    expect((await call(app, 'GET', '/instances/search/findByName?name=none', { token: admin() })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
    expect(await auditActions(app, created.body.uid)).toEqual(['CREATED', 'CLUSTER_ADDED', 'UPDATED', 'CLUSTER_ADDED', 'CLUSTER_REMOVED', 'UPDATED', 'CLUSTER_REMOVED', 'DELETED']);
  });

  it('validates, keeps names unique and shortName immutable', async () => {
    expect((await post({ name: 'Bad Short', shortName: 'Bad' })).status).toBe(400);
    const pattern = await post({ name: 'Pattern', shortName: 'pattern', topicNamePattern: '{tenant}-{foo}-{stream}' });
    expect(pattern.status).toBe(400);
    expect(pattern.body.errors[0]).toMatch(/^topicNamePattern:/);
    expect((await post({ name: 'Pattern', shortName: 'pattern', topicNamePattern: '{tenant}-{instance}' })).body.errors[0]).toMatch(/^topicNamePattern: must contain \{stream\}/);
    const ok = await post({ name: 'Unique One', shortName: 'uniq' });
    expect(ok.status).toBe(201);
    const n = await post({ name: 'UNIQUE one', shortName: 'other' });
    expect([n.status, n.body.errors[0]]).toEqual([409, expect.stringMatching(/^name:/)]);
    const s = await post({ name: 'Another', shortName: 'uniq' });
    expect([s.status, s.body.errors[0]]).toEqual([409, expect.stringMatching(/^shortName:/)]);
    const im = await call(app, 'PATCH', ok.body._links.self.href, { token: admin(), body: { shortName: 'changed' } });
    expect(im.status).toBe(422);
    expect((await call(app, 'PATCH', ok.body._links.self.href, { token: admin(), body: { shortName: 'uniq' } })).status).toBe(200);
    const author = await createUser(app, t, ['ENVIRONMENT_AUTHOR']);
    expect((await call(app, 'POST', '/instances', { token: author.token, body: { name: 'Nope', shortName: 'nope' } })).status).toBe(403);
  });

  it('edits clusters in every association media type', async () => {
    const i = await post({ name: 'Assoc', shortName: 'assoc' });
    const rel = `${i.body._links.self.href}/clusters`;
    expect((await call(app, 'PUT', rel, { token: admin(), raw: `${c1._links.self.href}\n`, headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(204);
    expect((await call(app, 'POST', rel, { token: admin(), body: { links: [{ href: `${app.api}/groups/${c2.uid}` }] }, headers: { 'Content-Type': 'application/x-spring-data-compact+json' } })).status).toBe(204);
    let uris = await call(app, 'GET', rel, { token: admin(), headers: { Accept: 'text/uri-list' } });
    expect(uris.text.split('\n')).toEqual([c1._links.self.href, c2._links.self.href]);
    expect((await call(app, 'PUT', rel, { token: admin(), body: [c2.uid] })).status).toBe(204);
    expect((await call(app, 'PATCH', rel, { token: admin(), body: [c1._links.self.href] })).status).toBe(204);
    const hal = await call(app, 'GET', rel, { token: admin() });
    expect(hal.body._embedded.clusters.map((c: any) => c.uid)).toEqual([c2.uid, c1.uid]);
    expect((await call(app, 'GET', `${rel}/${c1.uid}`, { token: admin() })).body.name).toBe('ic-1');
    expect((await call(app, 'DELETE', `${rel}/${c1.uid}`, { token: admin() })).status).toBe(204);
    uris = await call(app, 'GET', rel, { token: admin(), headers: { Accept: 'text/uri-list' } });
    expect(uris.text).toBe(c2._links.self.href);
    expect((await call(app, 'DELETE', rel, { token: admin() })).status).toBe(405);
    expect((await call(app, 'PUT', rel, { token: admin(), body: ['0123456789abcdef0123456789abcdef'] })).status).toBe(400);
    const actions = await auditActions(app, i.body.uid);
    expect(actions.filter((a) => a === 'CLUSTER_ADDED')).toHaveLength(3);
    expect(actions.filter((a) => a === 'CLUSTER_REMOVED')).toHaveLength(2);
  });

  it('refuses to delete an instance with environments', async () => {
    const i = await post({ name: 'Busy', shortName: 'busy' });
    const g = await app.models.Group.create({ tenantUid: t.tenant.uid, name: 'inst-owners' });
    await app.models.Environment.create({ tenantUid: t.tenant.uid, name: 'busy-env', shortName: 'busyenv', instanceUid: i.body.uid, ownersUid: g.uid });
    expect((await call(app, 'DELETE', i.body._links.self.href, { token: admin() })).status).toBe(422);
  });

  it('hides instances from other tenants', async () => {
    const i = await post({ name: 'Secret', shortName: 'secret' });
    const self = i.body._links.self.href;
    const o = other.admin.token;
    expect((await call(app, 'GET', self, { token: o })).status).toBe(404);
    expect((await call(app, 'PATCH', self, { token: o, body: { description: 'x' } })).status).toBe(404);
    expect((await call(app, 'DELETE', self, { token: o })).status).toBe(404);
    expect((await call(app, 'GET', '/instances?size=1000', { token: o })).body._embedded.instances.map((x: any) => x.uid)).not.toContain(i.body.uid);
    expect((await call(app, 'POST', '/instances', { token: o, body: { name: 'Theirs', shortName: 'theirs', clusters: [c1.uid] } })).status).toBe(400);
  });
});
