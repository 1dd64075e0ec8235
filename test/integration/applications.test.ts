/** Applications (docs/contract.md §5.10, §4.3, §7, §8): fields and enums, owners inline, rules, permissions, searches, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { call } from '../support/http';
import { queryEscape, terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let author: TestUser;
let manager: TestUser;
let outsider: TestUser;
let viewer: TestUser;
let appAdmin: TestUser;
let streamAuthor: TestUser;
let owners: any;
let viewers: any;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('apps'));
  author = await createUser(app, t, ['APPLICATION_AUTHOR'], 'author');
  manager = await createUser(app, t, ['APPLICATION_AUTHOR'], 'manager');
  outsider = await createUser(app, t, ['APPLICATION_AUTHOR'], 'outsider');
  viewer = await createUser(app, t, ['STREAM_AUTHOR'], 'viewer');
  appAdmin = await createUser(app, t, ['APPLICATION_ADMIN'], 'appadmin');
  streamAuthor = await createUser(app, t, ['STREAM_AUTHOR'], 'streamer');
  owners = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'App Owners', members: [author.user.uid], managers: [manager.user.uid] } })).body;
  viewers = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'App Viewers', members: [viewer.user.uid] } })).body;
});
afterAll(async () => app?.stop());

/** A valid application body, unique per call; `over` replaces fields. */
function body(over: Record<string, unknown> = {}) {
  n += 1;
  return { applicationId: `com.example.app${n}`, name: `App ${n}`, shortName: `app_${n}`, applicationType: 'Custom', type: 'Java', owners: owners.uid, ...over };
}
const post = (b: unknown, token = author.token) => call(app, 'POST', '/applications', { token, body: b });

describe('applications: create and read', () => {
  it('creates with defaults; owners inline and embedded; links; enums answered in the contract spelling', async () => {
    const res = await post(body({ applicationType: 'connector', type: 'sink', applicationClass: 'org.apache.kafka.connect.file.FileStreamSinkConnector', description: '' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.body).toMatchObject({
      applicationType: 'Connector', type: 'SINK', visibility: 'Public', description: '', applicationClassVersion: null,
      allApplicationIds: [res.body.applicationId],
      owners: { uid: owners.uid, name: 'App Owners', emailAddress: null, phoneNumber: null, _embedded: { members: [expect.objectContaining({ uid: author.user.uid })] } },
      _embedded: { owners: { uid: owners.uid }, viewers: [] },
    });
    expect(Object.keys(res.body.owners._links).sort()).toEqual(['members', 'self']);
    expect(res.body.owners._links.self.href).toBe(`${app.api}/groups/${owners.uid}`);
    expect(res.body._links).toMatchObject({
      createApplicationPrincipal: { href: `${app.api}/application_principals` },
      createApplicationAccess: { href: `${app.api}/application_access` },
      owners: { href: `${res.body._links.self.href}/owners` }, viewers: { href: `${res.body._links.self.href}/viewers` },
      edit: { href: res.body._links.self.href }, delete: { href: res.body._links.self.href },
    });
    const list = await call(app, 'GET', '/applications', { token: author.token });
    expect(list.body._embedded.applications.find((a: any) => a.uid === res.body.uid).owners.uid).toBe(owners.uid);
  });

  it.each([
    ['Custom', 'Kafka Streams', 'kafka-streams'], ['Custom', 'DotNet', 'DOTNET'], ['Custom', 'Other', 'other'], ['Connector', 'SOURCE', 'Source'],
  ])('%s accepts type %s given as %s', async (applicationType, expected, given) => {
    const res = await post(body({ applicationType, type: given, applicationClass: applicationType === 'Connector' ? 'x.Y' : undefined }));
    expect(res.status).toBe(201);
    expect(res.body.type).toBe(expected);
  });

  it.each([
    ['a Connector type for Custom', { type: 'SINK' }, 'type'],
    ['a Custom type for Connector', { applicationType: 'Connector', type: 'Java', applicationClass: 'x.Y' }, 'type'],
    ['any type for Ksml', { applicationType: 'Ksml', type: 'KSML' }, 'type'],
    ['a Connector without applicationClass', { applicationType: 'Connector', type: 'SINK' }, 'applicationClass'],
    ['an unknown applicationType', { applicationType: 'Lambda' }, 'applicationType'],
    ['a short name with capitals', { shortName: 'Bad_Name' }, 'shortName'],
    ['a two-letter name', { name: 'ab' }, 'name'],
    ['an applicationId with a space', { applicationId: 'com example' }, 'applicationId'],
    ['no owners', { owners: undefined }, 'owners'],
    ['unknown owners', { owners: '0'.repeat(32) }, 'owners'],
    ['a long description', { description: 'd'.repeat(201) }, 'description'],
  ])('400 for %s, naming %s', async (_label, over, field) => {
    const res = await post(body(over));
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(`${field}: `))).toBe(true);
  });

  it('Ksml takes no type; a null type is fine', async () => {
    const res = await post(body({ applicationType: 'KSML', type: null }));
    expect([res.status, res.body.applicationType, res.body.type]).toEqual([201, 'Ksml', null]);
  });

  it.each(['applicationId', 'name', 'shortName'])('%s is unique ignoring case (409 naming it)', async (field) => {
    const first = await post(body());
    expect(first.status).toBe(201);
    const value = first.body[field];
    const res = await post(body({ [field]: field === 'shortName' ? value : value.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatch(new RegExp(`^${field}: `));
  });
});

describe('applications: update and delete', () => {
  it('PATCH and PUT; applicationType is immutable (422); audit names the short name', async () => {
    const created = (await post(body())).body;
    const self = created._links.self.href;
    const patched = await call(app, 'PATCH', self, { token: author.token, body: { description: 'new', viewers: [viewers.uid], visibility: 'private' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'new', visibility: 'Private', _embedded: { viewers: [expect.objectContaining({ uid: viewers.uid })] } });
    expect((await call(app, 'PATCH', self, { token: author.token, body: { applicationType: 'Ksml', type: null } })).status).toBe(422);
    const replaced = await call(app, 'PUT', self, { token: author.token, body: { ...body(), applicationType: 'Custom', type: null } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ type: null, visibility: 'Public', description: null, _embedded: { viewers: [] } });
    expect((await call(app, 'DELETE', self, { token: author.token })).status).toBe(204);
    expect((await call(app, 'GET', self, { token: author.token })).status).toBe(404);
    const events = await auditOf(app, created.uid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'UPDATED', 'UPDATED', 'DELETED']);
    expect(events.map((e: any) => e.resourceType)).toEqual(['Application', 'Application', 'Application', 'Application']);
    expect(events[0].resourceName).toBe(created.shortName);
    expect(events[3].resourceName).toBe(replaced.body.shortName);
  });

  it('the owners group cannot be deleted while it owns an application', async () => {
    const group = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Short Lived', members: [author.user.uid] } })).body;
    const created = (await post(body({ owners: group.uid }))).body;
    const res = await call(app, 'DELETE', `/groups/${group.uid}`, { token: t.admin.token });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/application/);
    expect((await call(app, 'DELETE', `/applications/${created.uid}`, { token: t.admin.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/groups/${group.uid}`, { token: t.admin.token })).status).toBe(204);
  });
});

describe('applications: permissions', () => {
  it.each([
    ['a STREAM_AUTHOR', () => streamAuthor, 403],
    ['an APPLICATION_AUTHOR outside the owners group', () => outsider, 403],
    ['an APPLICATION_ADMIN outside the owners group', () => appAdmin, 201],
    ['a tenant admin', () => t.admin, 201],
    ['a manager of the owners group', () => manager, 201],
  ])('create by %s → %i', async (_label, who, status) => {
    expect((await post(body(), who().token)).status).toBe(status);
  });

  it('Private applications are visible to owners, viewers and admins only; edits need ownership', async () => {
    const created = (await post(body({ visibility: 'Private', viewers: [viewers.uid] }))).body;
    const get = (u: TestUser) => call(app, 'GET', `/applications/${created.uid}`, { token: u.token });
    expect((await get(outsider)).status).toBe(404);
    expect((await get(streamAuthor)).status).toBe(404);
    const seen = await get(viewer);
    expect(seen.status).toBe(200);
    expect(seen.body._links.edit).toBeUndefined();
    expect((await call(app, 'PATCH', `/applications/${created.uid}`, { token: viewer.token, body: { description: 'x' } })).status).toBe(403);
    expect((await get(appAdmin)).body._links.edit).toBeDefined();
    const listed = await call(app, 'GET', '/applications?size=10000', { token: outsider.token });
    expect(listed.body._embedded.applications.map((a: any) => a.uid)).not.toContain(created.uid);
  });

  it('onlyResourceManagerCanUpdateAndDeploy narrows owners to managers and resource managers', async () => {
    const created = (await post(body())).body;
    const patch = (u: TestUser) => call(app, 'PATCH', `/applications/${created.uid}`, { token: u.token, body: { description: u.email } });
    expect((await patch(author)).status).toBe(200);
    await app.models.Tenant.update({ settings: { onlyResourceManagerCanUpdateAndDeploy: 'true' } }, { where: { uid: t.tenant.uid } });
    try {
      expect((await patch(author)).status).toBe(403);
      expect((await call(app, 'GET', `/applications/${created.uid}`, { token: author.token })).body._links.edit).toBeUndefined();
      expect((await patch(manager)).status).toBe(200);
      expect((await patch(appAdmin)).status).toBe(200);
    } finally {
      await app.models.Tenant.update({ settings: {} }, { where: { uid: t.tenant.uid } });
    }
  });
});

describe('applications: searches', () => {
  it('findByName, findByShortName and findByApplicationId answer the item (404 when none), also unescaped', async () => {
    const created = (await post(body({ name: `Search Me ${n}` }))).body;
    const find = (m: string, q: string) => call(app, 'GET', `/applications/search/${m}?${q}`, { token: author.token });
    expect((await find('findByName', `name=${encodeURIComponent(created.name.toLowerCase())}`)).body.uid).toBe(created.uid);
    expect((await find('findByName', `name=${created.name.replace(/ /g, '+')}`)).body.uid).toBe(created.uid);
    expect((await find('findByShortName', `shortName=${created.shortName}`)).body.uid).toBe(created.uid);
    expect((await find('findByApplicationId', `applicationId=${created.applicationId}`)).body.uid).toBe(created.uid);
    for (const m of ['findByName?name', 'findByShortName?shortName', 'findByApplicationId?applicationId']) {
      expect((await call(app, 'GET', `/applications/search/${m}=nothing`, { token: author.token })).status).toBe(404);
    }
    const attrs = await find('findByAttributes', `shortName=${created.shortName}`);
    expect(attrs.body._embedded.applications.map((a: any) => a.uid)).toEqual([created.uid]);
    const byOwners = await find('findByOwners', `owners=${encodeURIComponent(`${app.api}/groups/${owners.uid}`)}`);
    expect(byOwners.body._embedded.applications.map((a: any) => a.uid)).toContain(created.uid);
    expect((await find('findByOwners', `owners=${'0'.repeat(32)}`)).status).toBe(404);
  });
});

describe('applications: the Terraform provider', () => {
  it('creates, reads by short name, updates and deletes with the bodies it sends', async () => {
    const tf = (method: string, path: string, b?: unknown) => terraformCall(app, t.shortName, author.token, method, path, b);
    const created = await tf('POST', '/applications', {
      applicationType: 'Custom', applicationId: 'io.tf.app', name: 'TF App', shortName: 'tf_app', owners: owners.uid,
      viewers: null, type: 'Java', visibility: 'Public', description: '',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ uid: expect.any(String), description: '', owners: { uid: owners.uid, name: 'App Owners' } });
    const found = await tf('GET', `/applications/search/findByShortName?shortName=${queryEscape('tf_app')}`);
    expect(found.body.uid).toBe(created.body.uid);
    const updated = await tf('PATCH', `/applications/${created.body.uid}`, {
      applicationType: 'Custom', applicationId: 'io.tf.app', name: 'TF App', shortName: 'tf_app', owners: owners.uid,
      viewers: [viewers.uid], visibility: 'Private', description: 'changed',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ visibility: 'Private', description: 'changed', _embedded: { viewers: [expect.objectContaining({ uid: viewers.uid, name: 'App Viewers' })] } });
    expect((await tf('DELETE', `/applications/${created.body.uid}`)).status).toBe(204);
  });
});
