/** Streams (docs/contract.md §5.7, §7, §8): types and schemas, classification, visibility, permissions, searches, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { authAnswer, call } from '../support/http';
import { queryEscape, terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let author: TestUser;
let outsider: TestUser;
let viewer: TestUser;
let streamAdmin: TestUser;
let appAuthor: TestUser;
let owners: any;
let viewers: any;
const schema: Record<string, string> = {};
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('streams'));
  author = await createUser(app, t, ['STREAM_AUTHOR'], 'author');
  outsider = await createUser(app, t, ['STREAM_AUTHOR'], 'outsider');
  viewer = await createUser(app, t, ['APPLICATION_AUTHOR'], 'viewer');
  streamAdmin = await createUser(app, t, ['STREAM_ADMIN'], 'streamadmin');
  appAuthor = await createUser(app, t, ['APPLICATION_AUTHOR'], 'appauthor');
  owners = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Stream Owners', members: [author.user.uid] } })).body;
  viewers = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Stream Viewers', members: [viewer.user.uid] } })).body;
  const upload = async (type: string, text: string) =>
    (await call(app, 'POST', '/schemas/upload', { token: author.token, body: { type, schema: text, version: '1' } })).body.schemaUid as string;
  schema.AVRO = await upload('AVRO', '{"type":"record","name":"Payment","namespace":"io.streams","fields":[]}');
  schema.PROTOBUF = await upload('PROTOBUF', 'syntax = "proto3";\npackage io.streams;\nmessage Key { string id = 1; }');
  schema.JSON_SCHEMA = await upload('JSON_SCHEMA', '{"title":"io.streams.Doc","type":"object"}');
});
afterAll(async () => app?.stop());

function body(over: Record<string, unknown> = {}) {
  n += 1;
  return { name: `stream-${n}`, keyType: 'String', valueType: 'AVRO', valueSchema: schema.AVRO, owners: owners.uid, ...over };
}
const post = (b: unknown, token = author.token) => call(app, 'POST', '/streams', { token, body: b });

describe('streams: create and read', () => {
  it('creates with defaults; schemas, owners, viewers embedded; the streamConfigs link', async () => {
    const res = await post(body({ keyType: 'protobuf', keySchema: `${app.api}/schemas/${schema.PROTOBUF}`, description: '' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      keyType: 'PROTOBUF', valueType: 'AVRO', retentionPolicy: 'delete', visibility: 'Public', description: '', properties: {},
      _embedded: { keySchema: { uid: schema.PROTOBUF, name: 'io.streams.Key' }, valueSchema: { uid: schema.AVRO }, owners: { uid: owners.uid }, viewers: [] },
    });
    expect(res.body._links.streamConfigs.href).toBe(`${app.api}/stream_configs/search/findByStream?stream=${res.body.uid}`);
    expect(res.body._embedded.confidentiality).toBeUndefined();
  });

  it.each([
    ['compact', 'compact'], ['delete', 'delete'], ['compact,delete', 'compact,delete'], ['delete,compact', 'compact,delete'], ['COMPACT', 'compact'],
  ])('retentionPolicy %s is stored as %s', async (given, stored) => {
    const res = await post(body({ retentionPolicy: given }));
    expect([res.status, res.body.retentionPolicy]).toEqual([201, stored]);
  });

  it.each([
    ['an AVRO value without a schema', { valueSchema: null }, 'valueSchema'],
    ['a JSON_SCHEMA key with an AVRO schema', { keyType: 'JSON_SCHEMA', keySchema: 'schema:AVRO' }, 'keySchema'],
    ['a String key with a schema', { keySchema: 'schema:AVRO' }, 'keySchema'],
    ['an unknown key type', { keyType: 'CSV' }, 'keyType'],
    ['an unknown schema', { valueSchema: '0'.repeat(32) }, 'valueSchema'],
    ['a name with a space', { name: 'bad name' }, 'name'],
    ['no owners', { owners: null }, 'owners'],
    ['an unknown retention policy', { retentionPolicy: 'forever' }, 'retentionPolicy'],
    ['a non-string property', { properties: { 'segment.ms': 5 } }, 'properties.segment.ms'],
  ])('400 for %s, naming %s', async (_label, over, field) => {
    const resolved = Object.fromEntries(Object.entries(over).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('schema:') ? schema[v.slice(7)] : v]));
    const res = await post(body(resolved));
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(`${field}: `)), res.text).toBe(true);
  });

  it('a clashing name is 409, ignoring case', async () => {
    const first = await post(body());
    expect((await post(body({ name: first.body.name.toUpperCase() }))).status).toBe(409);
  });

  it('confidentiality and integrity are required when the tenant classifies data', async () => {
    const [conf] = (await call(app, 'GET', '/confidentialities/search/findByName?name=Internal', { token: author.token })).body._embedded.confidentialities;
    const [integ] = (await call(app, 'GET', '/integrities/search/findByName?name=High', { token: author.token })).body._embedded.integrities;
    await app.models.Tenant.update({ dataClassificationEnabled: true }, { where: { uid: t.tenant.uid } });
    try {
      const refused = await post(body());
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^confidentiality: /), expect.stringMatching(/^integrity: /)]));
      const ok = await post(body({ confidentiality: conf.uid, integrity: integ._links.self.href }));
      expect(ok.status).toBe(201);
      expect(ok.body._embedded).toMatchObject({ confidentiality: { name: 'Internal' }, integrity: { name: 'High' } });
      expect((await call(app, 'DELETE', `/confidentialities/${conf.uid}`, { token: t.admin.token })).status).toBe(422);
    } finally {
      await app.models.Tenant.update({ dataClassificationEnabled: false }, { where: { uid: t.tenant.uid } });
    }
  });
});

describe('streams: one item read', () => {
  it('GET of one stream, its associations read with the caller, answers what the page answers for it', async () => {
    const [conf] = (await call(app, 'GET', '/confidentialities/search/findByName?name=Internal', { token: author.token })).body._embedded.confidentialities;
    const [integ] = (await call(app, 'GET', '/integrities/search/findByName?name=High', { token: author.token })).body._embedded.integrities;
    const more = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'More Viewers', members: [] } })).body;
    const created = await post(body({
      name: 'one-item-read', keyType: 'PROTOBUF', keySchema: schema.PROTOBUF, confidentiality: conf.uid, integrity: integ.uid, viewers: [more.uid, viewers.uid],
    }));
    expect(created.status).toBe(201);
    // The tenant admin sees every stream: the row and its targets come with the caller (the author's read scope
    // has a visibility rule, so the row is read apart).
    const item = await call(app, 'GET', `/streams/${created.body.uid}`, { token: t.admin.token });
    const page = await call(app, 'GET', '/streams/search/findByName?name=one-item-read', { token: t.admin.token });
    const listed = page.body._embedded.streams[0];
    expect(item.body._embedded).toMatchObject({
      keySchema: { uid: schema.PROTOBUF }, valueSchema: { uid: schema.AVRO }, owners: { uid: owners.uid },
      confidentiality: { uid: conf.uid }, integrity: { uid: integ.uid }, viewers: [{ uid: more.uid }, { uid: viewers.uid }],
    });
    expect(item.body._embedded).toEqual(listed._embedded);
    expect(item.body._links).toEqual(listed._links);
    // After a change of every association, the next read shows the new targets.
    const patched = await call(app, 'PATCH', `/streams/${created.body.uid}`, {
      token: author.token, body: { keyType: 'String', keySchema: null, confidentiality: null, integrity: null, viewers: [viewers.uid, more.uid] },
    });
    expect(patched.status).toBe(200);
    const again = await call(app, 'GET', `/streams/${created.body.uid}`, { token: t.admin.token });
    expect(again.body._embedded.viewers.map((v: { uid: string }) => v.uid)).toEqual([viewers.uid, more.uid]);
    expect(again.body._embedded.keySchema).toBeUndefined();
    expect(again.body._embedded.confidentiality).toBeUndefined();
    expect(again.body._embedded).toEqual(patched.body._embedded);
    const pageAgain = await call(app, 'GET', '/streams/search/findByName?name=one-item-read', { token: t.admin.token });
    expect(pageAgain.body._embedded.streams[0]._embedded).toEqual(again.body._embedded);
  });
});

describe('streams: update, delete, permissions', () => {
  it('PATCH keeps the rules on the merged stream; PUT replaces; audit as Topic', async () => {
    const created = (await post(body())).body;
    const self = created._links.self.href;
    expect((await call(app, 'PATCH', self, { token: author.token, body: { valueType: 'String' } })).status).toBe(400);
    const patched = await call(app, 'PATCH', self, { token: author.token, body: { valueType: 'String', valueSchema: null, viewers: [viewers.uid], properties: { 'cleanup.policy': 'delete' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ valueType: 'String', properties: { 'cleanup.policy': 'delete' }, _embedded: { viewers: [expect.objectContaining({ uid: viewers.uid })] } });
    expect(patched.body._embedded.valueSchema).toBeUndefined();
    const replaced = await call(app, 'PUT', self, { token: author.token, body: { name: created.name, keyType: 'Binary', valueType: 'Xml', owners: owners.uid } });
    expect(replaced.body).toMatchObject({ keyType: 'Binary', valueType: 'Xml', properties: {}, _embedded: { viewers: [] } });
    expect((await call(app, 'DELETE', self, { token: author.token })).status).toBe(204);
    const events = await auditOf(app, created.uid);
    expect(events.map((e: any) => `${e.action} ${e.resourceType} ${e.resourceName}`)).toEqual([
      `CREATED Topic ${created.name}`, `UPDATED Topic ${created.name}`, `UPDATED Topic ${created.name}`, `DELETED Topic ${created.name}`,
    ]);
  });

  it.each([
    ['an APPLICATION_AUTHOR', () => appAuthor, 403],
    ['a STREAM_AUTHOR outside the owners group', () => outsider, 403],
    ['a STREAM_ADMIN outside the owners group', () => streamAdmin, 201],
    ['a tenant admin', () => t.admin, 201],
  ])('create by %s → %i', async (_label, who, status) => {
    expect((await post(body(), who().token)).status).toBe(status);
  });

  it('Private streams are seen by owners, viewers and admins only; edits need ownership', async () => {
    const created = (await post(body({ visibility: 'Private', viewers: [viewers.uid] }))).body;
    const get = (u: TestUser) => call(app, 'GET', `/streams/${created.uid}`, { token: u.token });
    expect((await get(outsider)).status).toBe(404);
    expect((await get(viewer)).status).toBe(200);
    expect((await get(viewer)).body._links.edit).toBeUndefined();
    expect((await call(app, 'DELETE', `/streams/${created.uid}`, { token: viewer.token })).status).toBe(403);
    expect((await get(streamAdmin)).body._links.delete).toBeDefined();
    const auth = await authAnswer(app, author.token, 'TOPIC_EDIT', 'Topic', created.uid);
    expect(auth.status).toBe(200);
  });

  it('an owners group and a schema in use cannot be deleted', async () => {
    const created = (await post(body())).body;
    expect((await call(app, 'DELETE', `/groups/${owners.uid}`, { token: t.admin.token })).status).toBe(422);
    expect((await call(app, 'DELETE', `/streams/${created.uid}`, { token: author.token })).status).toBe(204);
  });
});

describe('streams: searches and the Terraform provider', () => {
  it('findByName and findByOwners answer pages', async () => {
    const created = (await post(body())).body;
    const byName = await call(app, 'GET', `/streams/search/findByName?name=${created.name.toUpperCase()}`, { token: author.token });
    expect(byName.body._embedded.streams.map((s: any) => s.uid)).toEqual([created.uid]);
    const byOwners = await call(app, 'GET', `/streams/search/findByOwners?owners=${owners.uid}&size=10000`, { token: author.token });
    expect(byOwners.body._embedded.streams.map((s: any) => s.uid)).toContain(created.uid);
  });

  it('creates, finds, updates and deletes with the bodies the provider sends', async () => {
    const tf = (method: string, path: string, b?: unknown) => terraformCall(app, t.shortName, author.token, method, path, b);
    const created = await tf('POST', '/streams', {
      name: 'tf-topic', description: '', keyType: 'String', keySchema: '', valueType: 'AVRO', valueSchema: schema.AVRO,
      owners: owners.uid, viewers: null, retentionPolicy: 'delete', properties: { 'segment.ms': '60000' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'tf-topic', description: '', _embedded: { valueSchema: { uid: schema.AVRO }, owners: { uid: owners.uid, name: 'Stream Owners' } } });
    expect((await tf('GET', `/streams/search/findByName?name=${queryEscape('tf-topic')}`)).body._embedded.streams[0].uid).toBe(created.body.uid);
    const updated = await tf('PATCH', `/streams/${created.body.uid}`, {
      name: 'tf-topic', description: 'now described', keyType: 'String', keySchema: '', valueType: 'AVRO', valueSchema: schema.AVRO,
      owners: owners.uid, viewers: [viewers.uid], retentionPolicy: 'compact',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'now described', retentionPolicy: 'compact', properties: { 'segment.ms': '60000' } });
    expect((await tf('DELETE', `/streams/${created.body.uid}`)).status).toBe(204);
  });
});
