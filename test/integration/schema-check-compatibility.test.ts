/**
 * `POST /schemas/check-compatibility` (issue 45): a candidate judged against a schema's versions and, per
 * environment the caller sees, against the versions its stream configs pin there; nothing stored; bad input named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { call, created, expectStatus } from '../support/http';

let app: TestApp;
let t: TestTenant;
let member: TestUser;
let schemaUid: string;

const record = (fields: unknown[]) => JSON.stringify({ type: 'record', name: 'Payment', namespace: 'io.check', fields });
const v1 = record([{ name: 'id', type: 'long' }]);
const v2 = record([{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }]);
const breaking = record([{ name: 'id', type: 'long' }, { name: 'currency', type: 'string' }]);
/** Records nested `depth` deep (each level about four brackets). */
const nested = (depth: number, name = 'Payment') => {
  let type: unknown = 'long';
  for (let i = depth - 1; i > 0; i--) type = { type: 'record', name: `L${i}`, fields: [{ name: 'f', type }] };
  return JSON.stringify({ type: 'record', name, namespace: 'io.check', fields: [{ name: 'f', type }] });
};
const check = (body: Record<string, unknown>, token = member.token) => call(app, 'POST', '/schemas/check-compatibility', { token, body });

beforeAll(async () => {
  ({ app, t } = await startWithTenant('check'));
  member = await createUser(app, t, ['STREAM_AUTHOR'], 'member');
  const admin = t.admin.token;
  const group = await created(app, '/groups', { name: 'Check Team', members: [t.admin.user.uid] }, admin);
  const instance = await created(app, '/instances', { name: 'Check', shortName: 'chk' }, admin);
  const prod = await created(app, '/environments', { name: 'Production', shortName: 'prod', instance: instance.uid, owners: group.uid }, admin);
  const hidden = await created(app, '/environments', { name: 'Hidden', shortName: 'hidden', instance: instance.uid, owners: group.uid, visibility: 'Private', authorizationIssuer: 'Auto' }, admin);
  const first = expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: v1, version: '1', owners: group.uid } }), 201).body;
  schemaUid = first.schemaUid;
  const stream = await created(app, '/streams', { name: 'payments', keyType: 'String', valueType: 'AVRO', valueSchema: schemaUid, owners: group.uid }, admin);
  await created(app, '/stream_configs', { stream: stream.uid, environment: prod.uid, valueSchemaVersion: first.id }, admin);
  await created(app, '/stream_configs', { stream: stream.uid, environment: hidden.uid, valueSchemaVersion: first.id }, admin);
  expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: v2, version: '2' } }), 201);
});
afterAll(async () => app?.stop());

describe('checking a new version without storing it', () => {
  it('answers every reason against the versions and against what each visible environment pins, storing nothing', async () => {
    const res = expectStatus(await check({ schema: breaking, name: 'io.check.Payment' }), 200);
    expect(res.body).toMatchObject({ schema: { uid: schemaUid, name: 'io.check.Payment', type: 'AVRO', compatibility: 'NONE' }, mode: 'BACKWARD', compatible: false });
    expect(res.body.problems).toEqual([expect.objectContaining({ against: '2', direction: 'reads', path: 'currency', rule: 'FIELD_NO_DEFAULT' })]);
    // The member sees Production, not the Private environment.
    expect(res.body.environments).toEqual([{
      environment: expect.objectContaining({ shortName: 'prod' }), compatible: false,
      pinned: [expect.objectContaining({ side: 'value', version: '1', compatible: false, problems: [expect.objectContaining({ path: 'currency', rule: 'FIELD_NO_DEFAULT' })] })],
    }]);
    expect(await app.models.SchemaVersion.count({ where: { schemaUid } })).toBe(2);
    const admin = expectStatus(await check({ schema: breaking, schemaId: schemaUid }, t.admin.token), 200);
    expect(admin.body.environments.map((e: any) => e.environment.shortName)).toEqual(['hidden', 'prod']);
  });

  it('judges in the mode asked, transitively against every version', async () => {
    const ok = expectStatus(await check({ schema: record([{ name: 'id', type: 'long' }]), name: 'io.check.Payment', mode: 'FORWARD' }), 200);
    expect(ok.body).toMatchObject({ mode: 'FORWARD', compatible: true, problems: [] });
    const full = expectStatus(await check({ schema: breaking, name: 'io.check.Payment', mode: 'FULL_TRANSITIVE' }), 200);
    expect(full.body.problems.map((p: any) => `${p.direction} ${p.against}`)).toEqual(['reads 2', 'reads 1']);
    expect(full.body.environments[0].pinned[0].problems.map((p: any) => p.direction)).toEqual(['reads']);
  });

  it('narrows the environments to those named, listing one without pins, and refuses one the caller cannot see as unknown', async () => {
    const prod = (await app.models.Environment.findOne({ where: { tenantUid: t.tenant.uid, shortNameKey: 'prod' } }))!;
    await created(app, '/environments', { name: 'Acceptance', shortName: 'acc', instance: prod.instanceUid, owners: prod.ownersUid }, t.admin.token);
    const res = expectStatus(await check({ schema: breaking, name: 'io.check.Payment', environments: ['ACC', 'prod'] }), 200);
    expect(res.body.environments).toEqual([
      { environment: expect.objectContaining({ shortName: 'acc' }), compatible: true, pinned: [] },
      expect.objectContaining({ environment: expect.objectContaining({ shortName: 'prod' }), compatible: false }),
    ]);
    for (const unseen of ['hidden', 'nowhere']) {
      const refused = expectStatus(await check({ schema: breaking, name: 'io.check.Payment', environments: ['prod', unseen] }), 400);
      expect(refused.body.errors).toEqual([`environments: unknown environment ${unseen}`]);
    }
  });

  it.each([
    [{ schema: v1 }, 400, 'name: give either name or schemaId'],
    [{ schema: v1, name: 'io.check.Payment', schemaId: 'x' }, 400, 'name: give either name or schemaId'],
    [{ schema: v1, name: 'io.check.Nothing' }, 400, 'name: unknown schema io.check.Nothing'],
    [{ schema: v1, schemaId: '0'.repeat(32) }, 400, `schemaId: unknown schema ${'0'.repeat(32)}`],
    [{ schema: '{"type": "record", "name": ', name: 'io.check.Payment' }, 400, 'Invalid schema'],
    [{ schema: '{"title":"X","type":"object"}', type: 'JSON_SCHEMA', name: 'io.check.Payment' }, 422, 'Schema io.check.Payment is AVRO; a JSON_SCHEMA document cannot be a version of it'],
  ])('refuses %j with %i', async (body, status, text) => {
    const res = expectStatus(await check(body), status);
    expect(JSON.stringify(res.body)).toContain(text);
  });

  it('refuses a document past a bound with 400 naming the bound, before judging it', async () => {
    const res = expectStatus(await check({ schema: nested(300), name: 'io.check.Payment' }), 400);
    expect(res.body.errors).toEqual([expect.stringMatching(/^schema: line 1, column \d+: nesting deeper than 256 levels of '\{' and '\['$/)]);
  });

  it('answers 422, not a 500, when a stored version cannot be judged; the upload stores it only with force, audited', async () => {
    // A version stored before the bounds on documents existed, past one of them.
    const admin = t.admin.token;
    const first = expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: nested(2, 'Old'), version: '1', compatibility: 'BACKWARD' } }), 201).body;
    const stale = await app.models.SchemaVersion.create({ tenantUid: t.tenant.uid, schemaUid: first.schemaUid, versionName: '2', schemaBody: nested(300, 'Old'), createdBy: 'test', modifiedBy: 'test' });
    const refused = expectStatus(await check({ schema: nested(2, 'Old'), schemaId: first.schemaUid }), 422);
    expect(refused.body.message).toMatch(/^version 2 of schema io\.check\.Old cannot be judged \(line 1, column \d+: nesting deeper than 256 levels/);
    const upload = (force: boolean) => call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: nested(3, 'Old'), version: '3', force } });
    expect(expectStatus(await upload(false), 422).body.message).toMatch(/cannot be judged .*; upload with force=true$/);
    expectStatus(await upload(true), 201);
    const uploaded = (await auditOf(app, first.schemaUid)).filter((e) => e.action === 'SCHEMA_VERSION_UPLOADED').pop()!;
    expect(uploaded.details.compatibility).toEqual({ mode: 'BACKWARD', forced: true, problems: [expect.stringMatching(/^not judged: version 2 of schema io\.check\.Old cannot be judged/)] });
    // Replacing a pinned version by it is judged too.
    const prod = (await app.models.Environment.findOne({ where: { tenantUid: t.tenant.uid, shortNameKey: 'prod' } }))!;
    const stream = await created(app, '/streams', { name: 'olds', keyType: 'String', valueType: 'AVRO', valueSchema: first.schemaUid, owners: prod.ownersUid }, admin);
    const config = await created(app, '/stream_configs', { stream: stream.uid, environment: prod.uid, valueSchemaVersion: first.id }, admin);
    const repin = (force: boolean) => call(app, 'PATCH', `/stream_configs/${config.uid}`, { token: admin, body: { valueSchemaVersion: stale.uid, force } });
    expect(expectStatus(await repin(false), 422).body.message).toMatch(/^Schema versions 1 and 2 cannot be judged \(line 1, column \d+: nesting deeper than 256 levels.*\); retry with force=true$/);
    expectStatus(await repin(true), 200);
  });

  it('refuses a transitive judgement that would read more than 8 MiB of versions, and judges the latest alone', async () => {
    const admin = t.admin.token;
    const body = (doc: string) => JSON.stringify({ type: 'record', name: 'Large', namespace: 'io.check', doc, fields: [{ name: 'id', type: 'long' }] });
    const first = expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: body('v1'), version: '1' } }), 201).body;
    for (let v = 2; v <= 9; v++) await app.models.SchemaVersion.create({ tenantUid: t.tenant.uid, schemaUid: first.schemaUid, versionName: String(v), schemaBody: body('x'.repeat(1024 * 1024)), createdBy: 'test', modifiedBy: 'test' });
    const refused = expectStatus(await check({ schema: body('next'), name: 'io.check.Large', mode: 'FULL_TRANSITIVE' }), 422);
    expect(refused.body.message).toBe('the versions to judge against total 8.1 MiB, more than the 8 MiB one judgement reads; judge in a non-transitive mode');
    expect(expectStatus(await check({ schema: body('next'), name: 'io.check.Large', mode: 'FULL' }), 200).body.compatible).toBe(true);
  });

  it('refuses an unknown mode naming the field', async () => {
    const res = expectStatus(await check({ schema: v1, name: 'io.check.Payment', mode: 'SOMETIMES' }), 400);
    expect(JSON.stringify(res.body.subErrors ?? res.body.errors)).toContain('mode');
  });
});
