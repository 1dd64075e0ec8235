/**
 * docs/contract.md §10, issue 14: the topic wizard against a loopback Aiven (the real AIVEN adapter and HTTP client): the
 * import into an empty tenant, the same import again (nothing duplicated), a dry run that writes nothing, one failing
 * topic that does not stop the rest, and the audit it writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { auditOf } from '../support/audit';
import { call, created } from '../support/http';
import { startFakeAiven, type FakeAiven, type FakeAivenService } from '../support/fake-aiven';

const TOKEN = 'wizard-aiven-token-abcdef';
const ORDER = '{"type":"record","name":"Order","namespace":"io.wizard","fields":[{"name":"id","type":"string"}]}';
const ORDER_V2 = '{"type":"record","name":"Order","namespace":"io.wizard","fields":[{"name":"id","type":"string"},{"name":"note","type":["null","string"],"default":null}]}';
const KEY = '{"type":"record","name":"OrderKey","namespace":"io.wizard","fields":[{"name":"id","type":"string"}]}';

const service: FakeAivenService = {
  name: 'kafka-prod', type: 'kafka', schemaRegistry: true,
  components: [{ component: 'kafka', host: 'kafka-prod.test', port: 12345 }, { component: 'schema_registry', host: 'kafka-prod.test', port: 12347 }],
  topics: [
    { name: 'orders', partitions: 6, replication: 3, config: { retention_ms: 604_800_000, cleanup_policy: 'delete', segment_ms: 3_600_000 } },
    { name: 'payments', partitions: 3, replication: 3, config: { retention_ms: -1, cleanup_policy: 'compact' } },
    { name: 'x', partitions: 1, replication: 1 },
    { name: '__consumer_offsets', partitions: 50, replication: 3 },
  ],
  acl: [
    { username: 'orders-svc', topic: 'orders', permission: 'write' },
    { username: 'billing', topic: 'orders', permission: 'read' },
    { username: 'billing', topic: 'pay*', permission: 'readwrite' },
  ],
  subjects: [
    { name: 'orders-value', versions: [{ version: 1, schema: ORDER }, { version: 2, schema: ORDER_V2 }] },
    { name: 'orders-key', versions: [{ version: 1, schema: KEY }] },
  ],
};

let app: TestApp;
let fake: FakeAiven;
let t: TestTenant;
let environment: string;
let owners: string;
const fields = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': TOKEN, 'Svc-Service-Name-A': 'kafka-prod' };

/** A tenant ready to import into: its admin, an owners group and an environment (on a cluster and instance). */
async function importTarget(prefix: string, tag: string): Promise<{ u: TestTenant; group: string; env: string; post: (path: string, body: unknown) => Promise<string> }> {
  const u = await createTenant(app, prefix);
  const post = async (path: string, body: unknown): Promise<string> => (await created(app, path, body, u.admin.token)).uid;
  const group = await post('/groups', { name: `${tag} Team` });
  const cluster = await post('/clusters', { name: `${tag}-cluster`, bootstrapServers: ['k:9092'] });
  const instance = await post('/instances', { name: tag, shortName: tag, clusters: [cluster] });
  const env = await post('/environments', { name: `${tag}-env`, shortName: tag, instance, owners: group });
  return { u, group, env, post };
}

beforeAll(async () => {
  fake = await startFakeAiven({ token: TOKEN, projects: { acme: [service] } });
  app = await startTestApp({ aivenApiUrl: fake.url });
  const target = await importTarget('wizard', 'prod');
  t = target.u;
  owners = target.group;
  environment = target.env;
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

const importing = (body: Record<string, unknown>, token = t.admin.token) =>
  call(app, 'POST', '/wizard/topics/import', { token, body: { providerConfigs: fields, environment, owners, topics: ['orders', 'payments'], ...body } });

async function catalog() {
  const m = app.models;
  const where = { tenantUid: t.tenant.uid };
  return {
    streams: await m.Stream.count({ where }), configs: await m.StreamConfig.count({ where }), schemas: await m.Schema.count({ where }),
    versions: await m.SchemaVersion.count({ where }), applications: await m.Application.count({ where }),
    grants: await m.ApplicationAccessGrant.count({ where }), audit: await m.AuditEvent.count({ where }),
  };
}

describe('topic wizard: import', () => {
  it('a dry run plans the import and writes nothing, audit included', async () => {
    const before = await catalog();
    const res = await importing({ dryRun: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      dryRun: true,
      streams: { created: 2, existing: 0 }, streamConfigs: { created: 2, existing: 0 }, schemas: { created: 2, existing: 0 },
      schemaVersions: { created: 2, existing: 0 }, applications: { created: 2, existing: 0 }, grants: { created: 4, existing: 0 }, failures: [],
    });
    expect(await catalog()).toEqual(before);
  });

  it('imports into an empty tenant: streams, configs, latest schema versions, applications and approved grants', async () => {
    const res = await importing({});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      dryRun: false,
      streams: { created: 2, existing: 0 }, streamConfigs: { created: 2, existing: 0 }, schemas: { created: 2, existing: 0 },
      schemaVersions: { created: 2, existing: 0 }, applications: { created: 2, existing: 0 }, grants: { created: 4, existing: 0 }, failures: [],
    });
    const m = app.models;
    const orders = (await m.Stream.findOne({ where: { tenantUid: t.tenant.uid, name: 'orders' } }))!;
    expect(orders).toMatchObject({ keyType: 'AVRO', valueType: 'AVRO', retentionPolicy: 'delete', ownersUid: owners });
    const value = (await m.Schema.findOne({ where: { uid: orders.valueSchemaUid } }))!;
    expect(value.name).toBe('io.wizard.Order');
    const config = (await m.StreamConfig.findOne({ where: { streamUid: orders.uid } }))!;
    expect(config).toMatchObject({ partitions: 6, retentionTime: 604_800_000, topicName: 'orders', environmentUid: environment });
    expect(config.properties).toEqual({ 'segment.ms': '3600000' });
    const pinned = (await m.SchemaVersion.findOne({ where: { uid: config.valueSchemaVersionUid } }))!;
    expect(pinned).toMatchObject({ versionName: '2', schemaUid: value.uid });
    const payments = (await m.Stream.findOne({ where: { tenantUid: t.tenant.uid, name: 'payments' } }))!;
    expect(payments).toMatchObject({ keyType: 'String', valueType: 'String', retentionPolicy: 'compact' });
    // Unlimited retention (-1) takes the environment's default.
    const env = (await m.Environment.findOne({ where: { uid: environment } }))!;
    expect((await m.StreamConfig.findOne({ where: { streamUid: payments.uid } }))!.retentionTime).toBe(env.retentionTime);
    const apps = await m.Application.findAll({ where: { tenantUid: t.tenant.uid }, order: [['shortName', 'ASC']] });
    expect(apps.map((a) => [a.shortName, a.applicationType, a.type, a.ownersUid])).toEqual([['billing', 'Custom', 'Other', owners], ['orders_svc', 'Custom', 'Other', owners]]);
    const grants = await m.ApplicationAccessGrant.findAll({ where: { tenantUid: t.tenant.uid } });
    const shown = grants.map((g) => `${apps.find((a) => a.uid === g.applicationUid)!.shortName} ${g.streamUid === orders.uid ? 'orders' : 'payments'} ${g.accessType} ${g.status}`).sort();
    expect(shown).toEqual(['billing orders CONSUMER Approved', 'billing payments CONSUMER Approved', 'billing payments PRODUCER Approved', 'orders_svc orders PRODUCER Approved']);
    expect((await m.Tenant.findOne({ where: { uid: t.tenant.uid } }))!.wizardCompleted).toBe(true);
  });

  it('a second run creates nothing and reports what exists; its dry run says the same', async () => {
    const before = await catalog();
    const same = {
      streams: { created: 0, existing: 2 }, streamConfigs: { created: 0, existing: 2 }, schemas: { created: 0, existing: 2 },
      schemaVersions: { created: 0, existing: 2 }, applications: { created: 0, existing: 2 }, grants: { created: 0, existing: 4 }, failures: [],
    };
    const dry = await importing({ dryRun: true });
    expect(dry.body).toEqual({ dryRun: true, ...same });
    const again = await importing({});
    expect(again.body).toEqual({ dryRun: false, ...same });
    const after = await catalog();
    // Only the run's summary entry was added.
    expect(after).toEqual({ ...before, audit: before.audit + 1 });
  });

  it('a topic that cannot be imported is listed in failures; the others go on', async () => {
    const res = await importing({ topics: ['x', 'nope', '__consumer_offsets', 'orders'] });
    expect(res.status).toBe(200);
    expect(res.body.failures).toEqual([
      { topic: 'x', message: 'topic name x is not a valid stream name (3–180 characters)' },
      { topic: 'nope', message: 'AIVEN has no topic nope' },
      { topic: '__consumer_offsets', message: 'AIVEN has no topic __consumer_offsets' },
    ]);
    expect(res.body.streams).toEqual({ created: 0, existing: 1 });
  });

  it('another tenant\'s environment or group is not found: 400 naming it, nothing written', async () => {
    const u = await createTenant(app, 'wizard-other');
    const group = await call(app, 'POST', '/groups', { token: u.admin.token, body: { name: 'Other' } });
    const before = await app.models.AuditEvent.count();
    const res = await call(app, 'POST', '/wizard/topics/import', {
      token: u.admin.token, body: { providerConfigs: fields, environment, owners: group.body.uid, topics: ['orders'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^environment: /);
    expect(res.text).not.toContain(t.shortName);
    expect(await app.models.AuditEvent.count()).toBe(before);
  });

  it('without ACLs and schemas: streams (String types) and configs only', async () => {
    const { u, group, env } = await importTarget('wizard-bare', 'bare');
    const res = await call(app, 'POST', '/wizard/topics/import', {
      token: u.admin.token, body: { providerConfigs: fields, environment: env, owners: group, topics: ['orders'], importAcls: false, importSchemas: false },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ streams: { created: 1, existing: 0 }, streamConfigs: { created: 1, existing: 0 }, schemas: { created: 0, existing: 0 }, applications: { created: 0, existing: 0 }, grants: { created: 0, existing: 0 } });
    const stream = (await app.models.Stream.findOne({ where: { tenantUid: u.tenant.uid, name: 'orders' } }))!;
    expect(stream).toMatchObject({ keyType: 'String', valueType: 'String', keySchemaUid: null, valueSchemaUid: null });
    expect(await app.models.Application.count({ where: { tenantUid: u.tenant.uid } })).toBe(0);
  });

  it('two imports at once: nothing duplicated; what one could not make is a failure to re-run, not an error', async () => {
    const { u, group, env } = await importTarget('wizard-race', 'race');
    const body = { providerConfigs: fields, environment: env, owners: group, topics: ['orders', 'payments'] };
    const both = await Promise.all([1, 2].map(() => call(app, 'POST', '/wizard/topics/import', { token: u.admin.token, body })));
    for (const res of both) expect(res.status, res.text).toBe(200);
    const where = { tenantUid: u.tenant.uid };
    const counts = async () => [await app.models.Stream.count({ where }), await app.models.StreamConfig.count({ where }), await app.models.Schema.count({ where }),
      await app.models.SchemaVersion.count({ where }), await app.models.Application.count({ where }), await app.models.ApplicationAccessGrant.count({ where })];
    const afterRace = await counts();
    // A third run completes whatever a lost race left out, then everything exists exactly once.
    const third = await call(app, 'POST', '/wizard/topics/import', { token: u.admin.token, body });
    expect(third.body.failures).toEqual([]);
    expect(await counts()).toEqual([2, 2, 2, 2, 2, 4]);
    expect(afterRace.every((n, i) => n <= [2, 2, 2, 2, 2, 4][i])).toBe(true);
  });

  it('a tenant with data classification: the import asks for confidentiality and integrity, and uses them', async () => {
    const { u, group, env, post } = await importTarget('wizard-class', 'classy');
    const secret = await post('/confidentialities', { name: 'Top Secret', level: 9 });
    const high = await post('/integrities', { name: 'Very High', level: 9 });
    await app.models.Tenant.update({ dataClassificationEnabled: true }, { where: { uid: u.tenant.uid } });
    const body = { providerConfigs: fields, environment: env, owners: group, topics: ['payments'], importAcls: false };
    const without = await call(app, 'POST', '/wizard/topics/import', { token: u.admin.token, body });
    expect(without.status).toBe(200);
    expect(without.body.failures).toHaveLength(1);
    expect(without.body.failures[0].message).toMatch(/confidentiality/);
    const bad = await call(app, 'POST', '/wizard/topics/import', { token: u.admin.token, body: { ...body, confidentiality: '0123456789abcdef0123456789abcdef', integrity: high } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^confidentiality: /);
    const res = await call(app, 'POST', '/wizard/topics/import', { token: u.admin.token, body: { ...body, confidentiality: secret, integrity: high } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.failures).toEqual([]);
    expect(await app.models.Stream.findOne({ where: { tenantUid: u.tenant.uid, name: 'payments' } })).toMatchObject({ confidentialityUid: secret, integrityUid: high });
  });

  it('only a tenant admin may import (403, nothing written)', async () => {
    const author = await createUser(app, t, ['STREAM_AUTHOR', 'APPLICATION_AUTHOR', 'SCHEMA_ADMIN'], 'author');
    const before = await catalog();
    const res = await importing({ topics: ['orders'] }, author.token);
    expectError(res, 403);
    // The refusal comes first, whatever the body holds.
    expect((await call(app, 'POST', '/wizard/topics/import', { token: author.token, body: { topics: 'nope' } })).status).toBe(403);
    expect(await catalog()).toEqual(before);
  });
});

describe('topic wizard: its audit', () => {
  it('CREATED per entity under its kind, and one SYNCHRONIZED summary with the counts', async () => {
    const rows = await auditOf(app, { tenantUid: t.tenant.uid, actor: t.admin.email });
    const summaries = rows.filter((r) => r.action === 'SYNCHRONIZED');
    expect(summaries.length).toBe(3);
    expect(summaries[0]).toMatchObject({ resourceType: 'Tenant', resourceId: t.tenant.uid });
    expect(summaries[0].details).toMatchObject({ wizard: 'topics', provider: 'AIVEN', environment: 'prod', streams: { created: 2, existing: 0 }, failures: 0 });
    const created = rows.filter((r) => r.action === 'CREATED' && r.resourceType !== 'Group' && r.resourceType !== 'Cluster' && r.resourceType !== 'Instance' && r.resourceType !== 'Environment');
    const kinds = created.map((r) => r.resourceType).sort();
    // 2 schemas + 2 versions, 2 streams + 2 configs, 2 applications + 4 grants.
    expect(kinds).toEqual([...Array(6).fill('Application'), ...Array(4).fill('Schema'), ...Array(4).fill('Topic')]);
    expect(JSON.stringify(rows.map((r) => r.get({ plain: true })))).not.toContain(TOKEN);
  });
});
