/** Schemas and versions (docs/contract.md §5.9, §7, §8): check-parse, upload, plain and HAL reads, owners, deletes, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf, auditActions } from '../support/audit';
import { call } from '../support/http';
import { terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let owner: TestUser;
let stranger: TestUser;
let schemaAdmin: TestUser;
let owners: any;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('schemas'));
  owner = await createUser(app, t, ['STREAM_AUTHOR'], 'owner');
  stranger = await createUser(app, t, ['STREAM_AUTHOR'], 'stranger');
  schemaAdmin = await createUser(app, t, ['SCHEMA_ADMIN'], 'schemaadmin');
  owners = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Schema Owners', members: [owner.user.uid] } })).body;
});
afterAll(async () => app?.stop());

const avro = (name: string, fields: unknown[] = [{ name: 'id', type: 'long' }]) =>
  JSON.stringify({ type: 'record', name, namespace: 'com.example', fields });
const upload = (body: Record<string, unknown>, token = owner.token) => call(app, 'POST', '/schemas/upload', { token, body });
const fresh = () => `Rec${++n}`;

describe('check-parse', () => {
  it('answers the normal form, fullName, type and existing versions', async () => {
    const name = fresh();
    const text = avro(name);
    const first = await call(app, 'POST', '/schemas/check-parse', { token: stranger.token, body: { schema: text } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.body).toEqual({ schema: JSON.stringify(JSON.parse(text), null, 2), fullName: `com.example.${name}`, type: 'AVRO', version: [] });
    await upload({ schema: text, version: '1.0.0' });
    const again = await call(app, 'POST', '/schemas/check-parse', { token: stranger.token, body: { schema: text, type: 'avro' } });
    expect(again.body.version).toEqual(['1.0.0']);
  });

  it.each([
    ['AVRO', '{"type":"record","name":"X","fields":[{"name":"a"}]}', /schema: /],
    ['AVRO', '{"type":"record",', /line 1, column/],
    ['PROTOBUF', 'syntax = "proto3";\nmessage M { int32 a = 1 }', /line 2/],
    ['JSON_SCHEMA', '{"type":"object"}', /title is required/],
  ])('a %s document that does not parse → 400 Invalid schema with the parser message', async (type, schema, problem) => {
    const res = await call(app, 'POST', '/schemas/check-parse', { token: owner.token, body: { schema, type } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid schema');
    expect(res.body.errors.some((e: string) => problem.test(e))).toBe(true);
  });

  it('PROTOBUF and JSON_SCHEMA fullNames', async () => {
    const proto = await call(app, 'POST', '/schemas/check-parse', { token: owner.token, body: { type: 'PROTOBUF', schema: 'syntax = "proto3";\npackage shop;\nmessage Order { string id = 1; }\n' } });
    expect(proto.body).toMatchObject({ fullName: 'shop.Order', type: 'PROTOBUF' });
    const json = await call(app, 'POST', '/schemas/check-parse', { token: owner.token, body: { type: 'json_schema', schema: '{"title":"Invoice","type":"object"}' } });
    expect(json.body).toMatchObject({ fullName: 'Invoice', type: 'JSON_SCHEMA' });
  });
});

describe('upload', () => {
  it('creates the schema with its first version, then adds versions; 409 on a taken version', async () => {
    const name = fresh();
    const first = await upload({ schema: avro(name), version: '1.0.0', description: 'first', owners: owners.uid });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: first.body.schemaVersionUid, schemaVersionUid: expect.stringMatching(/^[0-9a-f]{32}$/), schemaUid: expect.stringMatching(/^[0-9a-f]{32}$/),
      version: '1.0.0', fullName: `com.example.${name}`, owners: { id: owners.uid, uid: owners.uid, name: 'Schema Owners' },
    });
    expect(first.headers.get('location')).toBe(`${app.api}/schema_versions/${first.body.id}`);
    const second = await upload({ schema: avro(name, [{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }]), version: '1.1.0', description: '' });
    expect([second.status, second.body.schemaUid]).toEqual([201, first.body.schemaUid]);
    expect((await upload({ schema: avro(name), version: '1.1.0' })).status).toBe(409);
    expect((await upload({ schema: avro(name), version: '1.1.0'.toUpperCase() })).status).toBe(409);
    const schema = await call(app, 'GET', `/schemas/${first.body.schemaUid}`, { token: stranger.token });
    expect(schema.body).toMatchObject({ name: `com.example.${name}`, description: 'first', type: 'AVRO', owners: { uid: owners.uid, name: 'Schema Owners' } });
    expect(schema.body._links.versions.href).toBe(`${app.api}/schema_versions/search/findAllBySchema?schema=${first.body.schemaUid}`);
    const versions = await call(app, 'GET', schema.body._links.versions.href, { token: stranger.token });
    expect(versions.body._embedded.schema_versions.map((v: any) => v.version)).toEqual(['1.0.0', '1.1.0']);
    expect(versions.body._embedded.schema_versions[0]._embedded.schema).toMatchObject({ uid: first.body.schemaUid, owners: { uid: owners.uid, name: 'Schema Owners' } });
    const events = await auditOf(app, first.body.schemaUid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'SCHEMA_VERSION_UPLOADED', 'SCHEMA_VERSION_UPLOADED']);
  });

  it('only the owners (or SCHEMA_ADMIN) add versions to an owned schema; anyone to one without owners', async () => {
    const owned = fresh();
    expect((await upload({ schema: avro(owned), version: '1', owners: owners.uid })).status).toBe(201);
    expect((await upload({ schema: avro(owned), version: '2' }, stranger.token)).status).toBe(403);
    expect((await upload({ schema: avro(owned), version: '2' }, schemaAdmin.token)).status).toBe(201);
    const open = fresh();
    expect((await upload({ schema: avro(open), version: '1' })).status).toBe(201);
    expect((await upload({ schema: avro(open), version: '2' }, stranger.token)).status).toBe(201);
    expect((await upload({ schema: avro(fresh()), version: '1', owners: owners.uid }, stranger.token)).status).toBe(403);
  });

  it('schemaRolesEnforced limits uploads to SCHEMA_AUTHOR, SCHEMA_ADMIN and tenant admins', async () => {
    await app.models.Tenant.update({ settings: { schemaRolesEnforced: 'true' } }, { where: { uid: t.tenant.uid } });
    try {
      expect((await upload({ schema: avro(fresh()), version: '1' }, stranger.token)).status).toBe(403);
      expect((await upload({ schema: avro(fresh()), version: '1' }, schemaAdmin.token)).status).toBe(201);
    } finally {
      await app.models.Tenant.update({ settings: {} }, { where: { uid: t.tenant.uid } });
    }
  });

  it.each([
    ['no version', { schema: avro('NoVersion') }, 'version'],
    ['a bad version string', { schema: avro('BadVersion'), version: 'v 1' }, 'version'],
    ['an unknown owners group', { schema: avro('BadOwners'), version: '1', owners: '0'.repeat(32) }, 'owners'],
    ['an unknown type', { schema: avro('BadType'), version: '1', type: 'XML' }, 'type'],
  ])('400 for %s', async (_label, body, field) => {
    const res = await upload(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(`${field}: `))).toBe(true);
  });

  it('another type for an existing fullName → 422', async () => {
    await upload({ type: 'JSON_SCHEMA', schema: '{"title":"com.example.Mixed","type":"object"}', version: '1' });
    const res = await upload({ schema: avro('Mixed'), version: '2' });
    expect(res.status).toBe(422);
  });
});

describe('reading and changing', () => {
  it('GET of a version: plain DTO for Accept: application/json (as the Terraform provider asks), HAL otherwise', async () => {
    const name = fresh();
    const up = (await upload({ schema: avro(name), version: '3.0', owners: owners.uid })).body;
    const tf = await terraformCall(app, t.shortName, owner.token, 'GET', `/schema_versions/${up.id}`);
    expect(tf.status).toBe(200);
    // terraformCall asks HAL; the provider's schema calls ask application/json:
    const plain = await call(app, 'GET', `/schema_versions/${up.id}`, { token: owner.token, headers: { Accept: 'application/json', 'Content-Type': 'application/json' } });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(plain.body).toMatchObject({
      id: up.id, uid: up.id, version: '3.0', schemaBody: avro(name),
      schema: { id: up.schemaUid, uid: up.schemaUid, name: `com.example.${name}`, type: 'AVRO', owners: { id: owners.uid, name: 'Schema Owners' }, optLock: 0 },
      createdByFullName: 'Test owner',
    });
    expect(plain.body._links).toBeUndefined();
    expect(tf.body).toMatchObject({ version: '3.0', _embedded: { schema: { uid: up.schemaUid, owners: { uid: owners.uid } } } });
    const single = await call(app, 'GET', `/schema_versions/search/findBySchemaAndVersion?schema=${up.schemaUid}&version=3.0`, { token: stranger.token });
    expect(single.body.uid).toBe(up.id);
    expect((await call(app, 'GET', `/schema_versions/search/findBySchemaAndVersion?schema=${up.schemaUid}&version=9`, { token: stranger.token })).status).toBe(404);
  });

  it('PATCH description and owners; an owners change is SCHEMA_OWNERSHIP_TRANSFERRED; only owners and SCHEMA_ADMIN', async () => {
    const up = (await upload({ schema: avro(fresh()), version: '1', owners: owners.uid })).body;
    const self = `/schemas/${up.schemaUid}`;
    expect((await call(app, 'PATCH', self, { token: stranger.token, body: { description: 'x' } })).status).toBe(403);
    expect((await call(app, 'PATCH', self, { token: owner.token, body: { description: 'described' } })).status).toBe(200);
    const other = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: `Other Owners ${n}` } })).body;
    expect((await call(app, 'PATCH', self, { token: owner.token, body: { owners: other.uid } })).status).toBe(403);
    const moved = await call(app, 'PATCH', self, { token: schemaAdmin.token, body: { owners: other.uid } });
    expect(moved.body.owners).toEqual({ uid: other.uid, name: other.name });
    const events = await auditOf(app, up.schemaUid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'SCHEMA_VERSION_UPLOADED', 'UPDATED', 'SCHEMA_OWNERSHIP_TRANSFERRED']);
    expect(JSON.parse(JSON.stringify(events[3].details))).toEqual({ owners: { old: owners.uid, new: other.uid } });
  });

  it('deleting a version audits SCHEMA_VERSION_DELETED; deleting a schema removes its versions', async () => {
    const up = (await upload({ schema: avro(fresh()), version: '1', owners: owners.uid })).body;
    const second = (await upload({ schema: avro(`Rec${n}`), version: '2' })).body;
    expect((await call(app, 'DELETE', `/schema_versions/${second.id}`, { token: stranger.token })).status).toBe(403);
    expect((await call(app, 'DELETE', `/schema_versions/${second.id}`, { token: owner.token })).status).toBe(204);
    expect((await call(app, 'GET', `/schema_versions/${second.id}`, { token: owner.token })).status).toBe(404);
    expect((await call(app, 'DELETE', `/schemas/${up.schemaUid}`, { token: owner.token })).status).toBe(204);
    expect((await call(app, 'GET', `/schema_versions/${up.id}`, { token: owner.token })).status).toBe(404);
    const actions = await auditActions(app, up.schemaUid);
    expect(actions).toEqual(['CREATED', 'SCHEMA_VERSION_UPLOADED', 'SCHEMA_VERSION_UPLOADED', 'SCHEMA_VERSION_DELETED', 'DELETED']);
  });

  it('POST on the collections is 405', async () => {
    expect((await call(app, 'POST', '/schemas', { token: t.admin.token, body: {} })).status).toBe(405);
    expect((await call(app, 'POST', '/schema_versions', { token: t.admin.token, body: {} })).status).toBe(405);
  });
});
