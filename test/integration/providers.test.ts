/**
 * docs/contract.md §10, issue 14: the provider endpoints over HTTP, each provider against the closest real thing here —
 * loopback Aiven and Confluent Cloud APIs, librdkafka's mock Kafka cluster (real Kafka protocol) for the
 * self-managed cluster — with good and bad credentials, 5xx and hanging providers, every refusal, and the
 * credentials nowhere in logs or the audit history.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '../../core/logger';
import { createUser, passwordToken, startTestApp, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call } from '../support/http';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { startFakeConfluentCloud, type FakeConfluentCloud } from '../support/fake-confluent-cloud';
import { startLogCapture, type LogCapture } from '../support/log-capture';
import { startMockKafka, type MockKafka } from '../support/mock-kafka';

const AIVEN_TOKEN = 'aiven-token-secret-0001';
/** Shaped as Confluent Cloud issues them: a 16-character key ID and a 64-character secret. */
const CC_KEY = 'CCKEY00000000001';
const CC_SECRET = `ccSecretValue0001${'s'.repeat(47)}`;
const SASL_PASSWORD = 'sasl-password-secret-0001';

let app: TestApp;
let aiven: FakeAiven;
let cloud: FakeConfluentCloud;
let kafka: MockKafka;
let silent: Server;
let silentPort = 0;
const held = new Set<Socket>();
let t: TestTenant;
let author: TestUser;
let capture: LogCapture;

const aivenFields = (o: Record<string, unknown> = {}) => ({ 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': AIVEN_TOKEN, 'Svc-Service-Name-A': 'kafka-prod', ...o });
const cloudFields = (o: Record<string, unknown> = {}) => ({ 'Svc-Provider-Type': 'CONFLUENT_CLOUD', 'Svc-Api-Key-C': CC_KEY, 'Svc-Secret-C': CC_SECRET, ...o });
const kafkaFields = (bootstrap: string, o: Record<string, unknown> = {}) => ({
  'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': bootstrap, 'Svc-Broker-Protocol-Type-B': 'SASL/SCRAM-SHA-512',
  'Svc-Broker-Security-Protocol-Type-B': 'SASL_PLAINTEXT', 'Svc-Broker-Username-B': 'importer', 'Svc-Broker-Password-B': SASL_PASSWORD, ...o,
});
const ask = (path: string, body: unknown, token = t.admin.token) => call(app, 'POST', path, { token, body });

beforeAll(async () => {
  aiven = await startFakeAiven({
    token: AIVEN_TOKEN,
    projects: {
      acme: [
        {
          name: 'kafka-prod', type: 'kafka', uri: 'kafka-prod-acme.aivencloud.com:12345', schemaRegistry: true,
          components: [{ component: 'kafka', host: 'kafka-prod-acme.aivencloud.com', port: 12345 }, { component: 'schema_registry', host: 'kafka-prod-acme.aivencloud.com', port: 12347 }],
          topics: [{ name: 'orders', partitions: 3, replication: 3 }, { name: 'payments', partitions: 1, replication: 3 }, { name: '_schemas', partitions: 1, replication: 3 }],
          acl: [{ username: 'orders-svc', topic: 'orders', permission: 'write' }, { username: 'billing', topic: '*', permission: 'read' }],
          subjects: [{ name: 'orders-value', versions: [{ version: 1, schema: '{"type":"string"}' }] }],
        },
        { name: 'pg-main', type: 'pg' },
      ],
    },
    forbiddenProjects: ['secret-project'],
  });
  cloud = await startFakeConfluentCloud({
    apiKey: CC_KEY, secret: CC_SECRET,
    environments: [{ id: 'env-1', kafkaClusters: [{ id: 'lkc-1', bootstrap: 'SASL_SSL://pkc-1.confluent.cloud:9092' }], schemaRegistries: [{ id: 'lsrc-1', httpEndpoint: 'https://psrc-1.confluent.cloud' }] }],
  });
  kafka = await startMockKafka(1, [{ name: 'orders', partitions: 2, replication: 1 }]);
  // Accepts connections and never answers: a provider that hangs.
  silent = createServer((socket) => { held.add(socket); socket.on('close', () => held.delete(socket)); });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;
  ({ app, t } = await startWithTenant('prov', { aivenApiUrl: aiven.url, confluentCloudApiUrl: cloud.url, providerTimeoutMs: 1500 }));
  author = await createUser(app, t, ['STREAM_ADMIN', 'APPLICATION_ADMIN', 'SCHEMA_ADMIN', 'ENVIRONMENT_ADMIN'], 'author');
  capture = startLogCapture();
  logger.info({ canary: 'providers-canary-line' }, 'capture check');
}, 120_000);

afterAll(async () => {
  capture?.stop();
  await app?.stop();
  for (const socket of held) socket.destroy();
  await Promise.all([aiven?.close(), cloud?.close(), kafka?.stop(), new Promise((r) => (silent ? silent.close(r) : r(undefined)))]);
});

describe('providers: AIVEN', () => {
  it('good credentials: the project as one environment, its Kafka services with their registries', async () => {
    const res = await ask('/providers/validateCredentials', aivenFields({ 'Svc-Service-Name-A': undefined }));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      credentialsValid: true, error: null,
      environments: [{ environmentId: 'acme', services: [{ kafkaCluster: { id: 'kafka-prod', url: 'kafka-prod-acme.aivencloud.com:12345' }, schemaRegistryClusters: [{ id: 'kafka-prod', url: 'https://kafka-prod-acme.aivencloud.com:12347' }] }] }],
    });
    expect(aiven.requests.at(-1)!.authorization).toBe(`aivenv1 ${AIVEN_TOKEN}`);
  });

  it('rejected credentials answer 200 with the reason; an unknown or forbidden project too', async () => {
    for (const [fields, reason] of [
      [aivenFields({ 'Svc-Auth-Token-A': 'wrong-token' }), /^AIVEN: .*401/],
      [aivenFields({ 'Svc-Project-Id-A': 'secret-project' }), /^AIVEN: .*403/],
      [aivenFields({ 'Svc-Project-Id-A': 'nowhere' }), /^AIVEN: .*nowhere/],
    ] as const) {
      const res = await ask('/providers/validateCredentials', fields);
      expect(res.status, res.text).toBe(200);
      expect(res.body.credentialsValid).toBe(false);
      expect(res.body.error).toMatch(reason);
      expect(res.body.environments).toBeNull();
    }
  });

  it('discovery counts topics (not internal ones), principals and subjects', async () => {
    const res = await ask('/providers/discoverResources', aivenFields());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ streams: 2, applications: 2, schemas: 1 });
    const refused = await ask('/providers/discoverResources', aivenFields({ 'Svc-Auth-Token-A': 'wrong' }));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^AIVEN: /);
  });

  it('topic details: partitions, schemas, ACLs and whether the stream exists', async () => {
    await ask('/streams', { name: 'payments', keyType: 'String', valueType: 'String', owners: (await ask('/groups', { name: 'Info Team' })).body.uid });
    const res = await ask('/wizard/topics/info', { providerConfigs: aivenFields() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.topics.map((x: any) => [x.name, x.partitions, x.replicationFactor, x.exists])).toEqual([['orders', 3, 3, false], ['payments', 1, 3, true]]);
    expect(res.body.topics[0].valueSchema).toEqual({ subject: 'orders-value', type: 'AVRO', version: 1 });
    expect(res.body.topics[0].keySchema).toBeNull();
    expect(res.body.topics[0].acls).toEqual(expect.arrayContaining([{ principal: 'orders-svc', operation: 'WRITE', patternType: 'LITERAL' }, { principal: 'billing', operation: 'READ', patternType: 'PREFIXED' }]));
  });

  it('a provider answering 5xx or not answering within the bound → 502 naming it', async () => {
    aiven.fail(500);
    try {
      const res = await ask('/providers/validateCredentials', aivenFields());
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ status: 'BAD_GATEWAY', subErrors: null });
      expect(res.body.message).toMatch(/^AIVEN: .*500/);
      aiven.fail('hang');
      const started = Date.now();
      const hung = await ask('/wizard/topics/info', { providerConfigs: aivenFields() });
      expect(hung.status).toBe(502);
      expect(hung.body.message).toMatch(/did not answer within 1.5 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      aiven.fail(null);
    }
    const gone = await startTestApp({ aivenApiUrl: 'http://127.0.0.1:1', providerTimeoutMs: 1500 });
    try {
      const token = await passwordToken(gone, t.shortName, t.admin.email, t.admin.password);
      const res = await call(gone, 'POST', '/providers/validateCredentials', { token, body: aivenFields() });
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/^AIVEN: 127.0.0.1:1 cannot be reached/);
    } finally {
      await gone.stop();
    }
  });
});

describe('providers: CONFLUENT_CLOUD', () => {
  it('validates key and secret: one environment per Confluent environment with its clusters and registries', async () => {
    const res = await ask('/providers/validateCredentials', cloudFields());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      credentialsValid: true, error: null,
      environments: [{ environmentId: 'env-1', services: [{ kafkaCluster: { id: 'lkc-1', url: 'SASL_SSL://pkc-1.confluent.cloud:9092' }, schemaRegistryClusters: [{ id: 'lsrc-1', url: 'https://psrc-1.confluent.cloud' }] }] }],
    });
    const bad = await ask('/providers/validateCredentials', cloudFields({ 'Svc-Secret-C': 'n'.repeat(64) }));
    expect(bad.body).toMatchObject({ credentialsValid: false, environments: null });
    expect(bad.body.error).toMatch(/^CONFLUENT_CLOUD: .*401/);
  });

  it('discovery and the wizard are not supported: 422', async () => {
    const res = await ask('/providers/discoverResources', cloudFields());
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('discoverResources is not supported for CONFLUENT_CLOUD');
    expect((await ask('/wizard/topics/info', { providerConfigs: cloudFields() })).status).toBe(422);
  });
});

describe('providers: APACHE_KAFKA (librdkafka mock cluster)', () => {
  it('a broker that refuses the SASL handshake: 200, credentials not valid, the reason named', async () => {
    const res = await ask('/providers/validateCredentials', kafkaFields(kafka.bootstrap));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ credentialsValid: false, environments: null });
    expect(res.body.error).toMatch(/^APACHE_KAFKA: /);
    expect(res.body.error).not.toContain(SASL_PASSWORD);
  });

  it('nothing listening, or a listener that never answers → 502', async () => {
    const closed = await ask('/providers/validateCredentials', kafkaFields('127.0.0.1:1'));
    expect(closed.status, closed.text).toBe(502);
    expect(closed.body.message).toMatch(/^APACHE_KAFKA: /);
    const hung = await ask('/providers/discoverResources', kafkaFields(`127.0.0.1:${silentPort}`));
    expect(hung.status, hung.text).toBe(502);
  });
});

describe('providers: who may ask, and what is refused', () => {
  it('only a tenant admin (403 before any validation)', async () => {
    for (const [path, body] of [['/providers/validateCredentials', aivenFields()], ['/providers/discoverResources', {}], ['/wizard/topics/info', 'not even json-ish']] as const) {
      const res = await ask(path, body, author.token);
      expect(res.status, path).toBe(403);
      expect(res.body.status).toBe('FORBIDDEN');
    }
    expect((await call(app, 'POST', '/providers/validateCredentials', { body: aivenFields() })).status).toBe(401);
  });

  it('missing and malformed fields → 400 naming each; secrets never echoed', async () => {
    const missing = await ask('/providers/discoverResources', { 'Svc-Provider-Type': 'AIVEN', 'Svc-Auth-Token-A': AIVEN_TOKEN });
    expect(missing.status).toBe(400);
    expect(missing.body.subErrors.map((s: any) => s.field).sort()).toEqual(['Svc-Project-Id-A', 'Svc-Service-Name-A']);
    const noTruststore = await ask('/providers/validateCredentials', kafkaFields(kafka.bootstrap, { 'Svc-Broker-CA-Validation-B': 'true' }));
    expect(noTruststore.status).toBe(400);
    expect(noTruststore.body.errors).toEqual(['Svc-Broker-Truststore-B: is required when Svc-Broker-CA-Validation-B is "true"']);
    const badPem = await ask('/providers/validateCredentials', kafkaFields(kafka.bootstrap, { 'Svc-Broker-Truststore-B': 'bm90IGEgY2VydA==' }));
    expect(badPem.status).toBe(400);
    expect(badPem.body.subErrors[0].field).toBe('Svc-Broker-Truststore-B');
    const wizard = await ask('/wizard/topics/info', { providerConfigs: { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': 12345 } });
    expect(wizard.status).toBe(400);
    expect(wizard.body.subErrors).toEqual(expect.arrayContaining([{ field: 'providerConfigs.Svc-Auth-Token-A', message: 'must be string' }]));
    expect(wizard.text).not.toContain('12345');
    const type = await ask('/providers/validateCredentials', { 'Svc-Provider-Type': 'KAFKA-ON-MARS' });
    expect(type.status).toBe(400);
    expect(type.body.subErrors[0]).toMatchObject({ field: 'Svc-Provider-Type', rejectedValue: 'KAFKA-ON-MARS' });
    const nothing = await call(app, 'POST', '/providers/validateCredentials', { token: t.admin.token, raw: '{"oops', headers: { 'Content-Type': 'application/json' } });
    expect(nothing.status).toBe(400);
  });

  it('a value outside its provider\'s shape or length → 400 naming it, and the provider is never called', async () => {
    const before = aiven.requests.length;
    const huge = await ask('/wizard/topics/info', { providerConfigs: aivenFields({ 'Svc-Service-Name-A': 'k'.repeat(100 * 1024) }) });
    expect(huge.status, huge.text.slice(0, 300)).toBe(400);
    expect(huge.body.subErrors.map((s: any) => s.field)).toEqual(['providerConfigs.Svc-Service-Name-A']);
    const cases: Array<[Record<string, unknown>, string]> = [
      [aivenFields({ 'Svc-Project-Id-A': 'acme/../../me' }), 'Svc-Project-Id-A'],
      [aivenFields({ 'Svc-Service-Name-A': 'Kafka_Prod' }), 'Svc-Service-Name-A'],
      [aivenFields({ 'Svc-Auth-Token-A': `${AIVEN_TOKEN}\r\nX-Injected: 1` }), 'Svc-Auth-Token-A'],
      [cloudFields({ 'Svc-Api-Key-C': 'cckey00000000001' }), 'Svc-Api-Key-C'],
      [cloudFields({ 'Svc-Secret-C': `${CC_SECRET}x` }), 'Svc-Secret-C'],
      [kafkaFields(Array.from({ length: 51 }, (_, i) => `b${i}:9092`).join(',')), 'Svc-Bootstrap-Server-B'],
      [kafkaFields(kafka.bootstrap, { 'Svc-Broker-Username-B': 'importer\u0000admin' }), 'Svc-Broker-Username-B'],
    ];
    for (const [fields, field] of cases) {
      const res = await ask('/providers/validateCredentials', fields);
      expect(res.status, `${field}: ${res.text.slice(0, 300)}`).toBe(400);
      expect(res.body.subErrors.map((s: any) => s.field), field).toContain(field);
      expect(res.text).not.toContain(AIVEN_TOKEN);
      expect(res.text).not.toContain(CC_SECRET);
    }
    expect(aiven.requests.length).toBe(before);
  });
});

describe('providers: credentials are never kept', () => {
  it('no token, secret or password in any log line, audit entry or stored row', async () => {
    capture.stop();
    const logged = capture.lines.join('');
    expect(logged).toContain('providers-canary-line');
    const rows = await app.models.AuditEvent.findAll({ where: { tenantUid: t.tenant.uid } });
    const audit = JSON.stringify(rows.map((r) => r.get({ plain: true })));
    for (const secret of [AIVEN_TOKEN, CC_SECRET, SASL_PASSWORD, Buffer.from(`${CC_KEY}:${CC_SECRET}`).toString('base64')]) {
      expect(logged).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
    // The questions themselves write nothing: the only entries are the group and stream made above.
    expect(rows.map((r) => `${r.action} ${r.resourceType}`).sort()).toEqual(['CREATED Group', 'CREATED Topic']);
  });
});
