/**
 * Issue 45's upload gate through the API: a schema's `compatibility` mode (NONE for a schema made without one, the
 * service's default, or the upload's), changed by its owners with PATCH and audited; a new version the mode refuses
 * answers 422 with a reason per problem (version, direction, field path, rule) and stores nothing, unless `force`,
 * which keeps the reasons in the audit entry. An import and a client that names no mode upload as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { createUser, startTestApp, startWithTenant, createTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { call, expectStatus } from '../support/http';

let app: TestApp;
let t: TestTenant;
let owner: TestUser;
let stranger: TestUser;
let owners: any;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('gate'));
  owner = await createUser(app, t, ['STREAM_AUTHOR'], 'owner');
  stranger = await createUser(app, t, ['STREAM_AUTHOR'], 'stranger');
  owners = (await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Gate Owners', members: [owner.user.uid] } })).body;
});
afterAll(async () => app?.stop());

const record = (name: string, fields: unknown[]) => JSON.stringify({ type: 'record', name, namespace: 'io.gate', fields });
const upload = (body: Record<string, unknown>, token = owner.token, on = app) => call(on, 'POST', '/schemas/upload', { token, body });
const versionsOf = async (schemaUid: string) => (await app.models.SchemaVersion.count({ where: { schemaUid } }));

async function schemaWith(mode: string | undefined, fields: unknown[]): Promise<{ name: string; uid: string }> {
  const name = `Rec${++n}`;
  const res = expectStatus(await upload({ schema: record(name, fields), version: '1', owners: owners.uid, ...(mode ? { compatibility: mode } : {}) }), 201);
  return { name, uid: res.body.schemaUid };
}

describe('a schema\'s compatibility mode', () => {
  it('is NONE unless named, and then every version is stored as before', async () => {
    const s = await schemaWith(undefined, [{ name: 'id', type: 'long' }]);
    expect(expectStatus(await call(app, 'GET', `/schemas/${s.uid}`, { token: owner.token }), 200).body.compatibility).toBe('NONE');
    expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'string' }, { name: 'x', type: 'int' }]), version: '2' }), 201);
  });

  it('BACKWARD refuses a version that cannot read the latest one\'s data, naming the field and the rule, and stores nothing', async () => {
    const s = await schemaWith('BACKWARD', [{ name: 'id', type: 'long' }]);
    const refused = expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'long' }, { name: 'amount', type: 'double' }]), version: '2' }), 422);
    expect(refused.body.message).toBe(`Schema version 2 is not BACKWARD compatible with schema io.gate.${s.name}; retry with force=true`);
    expect(refused.body.errors.slice(1)).toEqual([expect.stringMatching(/^reading data of 1: amount: .*\(FIELD_NO_DEFAULT\)$/)]);
    expect(await versionsOf(s.uid)).toBe(1);
    expect((await auditOf(app, s.uid)).map((e) => e.action)).toEqual(['CREATED', 'SCHEMA_VERSION_UPLOADED']);
    // With a default the new field reads old data.
    expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'long' }, { name: 'amount', type: 'double', default: 0 }]), version: '2' }), 201);
  });

  it('stores a refused version with force, the reasons in its audit entry', async () => {
    const s = await schemaWith('FORWARD', [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }]);
    // Removing a field without a default: the latest (which needs it) cannot read the new data.
    expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'long' }]), version: '2' }), 422);
    expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'long' }]), version: '2', force: true }), 201);
    const uploaded = (await auditOf(app, s.uid)).filter((e) => e.action === 'SCHEMA_VERSION_UPLOADED').pop()!;
    expect(uploaded.details.compatibility).toEqual({ mode: 'FORWARD', forced: true, problems: [expect.stringMatching(/^1 reading the new data: name: .*\(FIELD_NO_DEFAULT\)$/)] });
  });

  it('TRANSITIVE judges every earlier version, where the latest alone would pass', async () => {
    const s = await schemaWith('BACKWARD', [{ name: 'a', type: 'int' }]);
    expectStatus(await upload({ schema: record(s.name, []), version: '2' }), 201);
    // a as a string with a default: version 2's data (no a) is read; version 1's int a is not.
    const v3 = record(s.name, [{ name: 'a', type: 'string', default: '' }]);
    expectStatus(await call(app, 'PATCH', `/schemas/${s.uid}`, { token: owner.token, body: { compatibility: 'BACKWARD_TRANSITIVE' } }), 200);
    const refused = expectStatus(await upload({ schema: v3, version: '3' }), 422);
    expect(refused.body.errors.slice(1)).toEqual([expect.stringMatching(/^reading data of 1: a: .*\(TYPE_MISMATCH\)$/)]);
    expectStatus(await call(app, 'PATCH', `/schemas/${s.uid}`, { token: owner.token, body: { compatibility: 'BACKWARD' } }), 200);
    expectStatus(await upload({ schema: v3, version: '3' }), 201);
  });

  it('judges PROTOBUF by wire compatibility and JSON_SCHEMA by its content model', async () => {
    const proto = (type: string) => `syntax = "proto3";\npackage gate;\nmessage Order${n + 1} {\n  ${type} id = 1;\n}\n`;
    const p = expectStatus(await upload({ type: 'PROTOBUF', schema: proto('int32'), version: '1', owners: owners.uid, compatibility: 'FULL' }), 201).body;
    expectStatus(await upload({ type: 'PROTOBUF', schema: proto('int64'), version: '2' }), 201);
    const wire = expectStatus(await upload({ type: 'PROTOBUF', schema: proto('string'), version: '3' }), 422);
    expect(wire.body.errors.slice(1).join('\n')).toContain('FIELD_WIRE_COMPATIBLE_TYPE');
    expect(await versionsOf(p.schemaUid)).toBe(2);

    const title = `Doc${++n}`;
    const j = (props: Record<string, unknown>) => JSON.stringify({ title, type: 'object', additionalProperties: false, properties: props });
    expectStatus(await upload({ type: 'JSON_SCHEMA', schema: j({ id: { type: 'string' } }), version: '1', owners: owners.uid, compatibility: 'BACKWARD' }), 201);
    const narrowed = expectStatus(await upload({ type: 'JSON_SCHEMA', schema: j({ id: { type: 'string', maxLength: 3 } }), version: '2' }), 422);
    expect(narrowed.body.errors.slice(1)).toEqual([expect.stringMatching(/^reading data of 1: id: .*\(MAX_LENGTH_ADDED\)$/)]);
  });

  it('is changed by the owners with PATCH, audited; a stranger gets 403, an unknown mode 400 naming the field', async () => {
    const s = await schemaWith(undefined, [{ name: 'id', type: 'long' }]);
    expectStatus(await call(app, 'PATCH', `/schemas/${s.uid}`, { token: owner.token, body: { compatibility: 'FULL_TRANSITIVE' } }), 200);
    const [updated] = (await auditOf(app, s.uid)).filter((e) => e.action === 'UPDATED');
    expect(updated.details).toEqual({ compatibility: { old: 'NONE', new: 'FULL_TRANSITIVE' } });
    expectStatus(await call(app, 'PATCH', `/schemas/${s.uid}`, { token: stranger.token, body: { compatibility: 'NONE' } }), 403);
    const bad = expectStatus(await call(app, 'PATCH', `/schemas/${s.uid}`, { token: owner.token, body: { compatibility: 'SOMETIMES' } }), 400);
    expect(JSON.stringify(bad.body)).toContain('compatibility');
    // PUT without the field keeps the mode.
    expectStatus(await call(app, 'PUT', `/schemas/${s.uid}`, { token: owner.token, body: { description: 'kept', owners: owners.uid } }), 200);
    expect(expectStatus(await call(app, 'GET', `/schemas/${s.uid}`, { token: owner.token }), 200).body.compatibility).toBe('FULL_TRANSITIVE');
    // An upload naming another mode than the schema's is refused, not taken in passing.
    const other = expectStatus(await upload({ schema: record(s.name, [{ name: 'id', type: 'long' }]), version: '2', compatibility: 'NONE' }), 422);
    expect(other.body.message).toMatch(/is FULL_TRANSITIVE, not NONE/);
  });
});

describe('the service default for new schemas', () => {
  it('is SCHEMA_COMPATIBILITY_DEFAULT (NONE unless set), read in any case, refused when unknown', async () => {
    expect(loadConfig({}).schemaCompatibilityDefault).toBe('NONE');
    expect(loadConfig({ SCHEMA_COMPATIBILITY_DEFAULT: ' backward ' }).schemaCompatibilityDefault).toBe('BACKWARD');
    expect(() => loadConfig({ SCHEMA_COMPATIBILITY_DEFAULT: 'STRICT' })).toThrow(/SCHEMA_COMPATIBILITY_DEFAULT must be one of BACKWARD/);
    const strict = await startTestApp({ schemaCompatibilityDefault: 'BACKWARD' });
    try {
      const tenant = await createTenant(strict, 'gatedefault');
      const res = expectStatus(await upload({ schema: record('Defaulted', [{ name: 'id', type: 'long' }]), version: '1' }, tenant.admin.token, strict), 201);
      expect(expectStatus(await call(strict, 'GET', `/schemas/${res.body.schemaUid}`, { token: tenant.admin.token }), 200).body.compatibility).toBe('BACKWARD');
      expectStatus(await upload({ schema: record('Defaulted', [{ name: 'id', type: 'long' }, { name: 'x', type: 'int' }]), version: '2' }, tenant.admin.token, strict), 422);
    } finally {
      await strict.stop();
    }
  });
});
