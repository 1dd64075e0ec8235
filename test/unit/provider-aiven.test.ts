/** The AIVEN adapter (docs/contract.md §10, provider A) against a loopback fake of the Aiven REST API v1. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aivenAdapter } from '../../providers/aiven';
import { ProviderRejectedError, ProviderUnavailableError, type AivenConfig, type ProviderTopic } from '../../providers/types';
import { startFakeAiven, type FakeAiven, type FakeAivenData } from '../support/fake-aiven';

const TOKEN = 'tok-Sup3rSecret-aiven-0123456789';
const ORDERS_V3 = '{"type":"record","name":"Order","fields":[{"name":"id","type":"string"},{"name":"total","type":"double"}]}';
const PAYMENT_PROTO = 'syntax = "proto3"; message Payment { string id = 1; }';
const LOG_JSON = '{"type":"object","properties":{"line":{"type":"string"}}}';

const data: FakeAivenData = {
  token: TOKEN,
  forbiddenProjects: ['other-team'],
  projects: {
    'acme-prod': [
      {
        name: 'kafka-main',
        uri: 'kafka-main-acme.aivencloud.com:24949',
        schemaRegistry: true,
        components: [
          { component: 'kafka', host: 'kafka-main-acme.aivencloud.com', port: 24949 },
          { component: 'schema_registry', host: 'public-kafka-main-acme.aivencloud.com', port: 24960, route: 'public' },
          { component: 'schema_registry', host: 'kafka-main-acme.aivencloud.com', port: 24952 },
        ],
        topics: [
          { name: 'orders', partitions: 6, replication: 3, config: { retention_ms: 604_800_000, cleanup_policy: 'delete', min_insync_replicas: 2, compression_type: 'producer', unclean_leader_election_enable: false }, defaults: { segment_bytes: 1_073_741_824, max_message_bytes: 1_048_588 } },
          { name: 'payments', partitions: 3, replication: 2, config: { cleanup_policy: 'compact' }, retentionHours: 24 },
          { name: 'logs-app', partitions: 1, replication: 3, config: { retention_ms: -1 } },
          { name: '_schemas', partitions: 1, replication: 3 },
          { name: '__consumer_offsets', partitions: 50, replication: 3 },
        ],
        acl: [
          { username: 'avnadmin', topic: '*', permission: 'admin' },
          { username: 'orders-reader', topic: 'orders', permission: 'read' },
          { username: 'orders-writer', topic: 'orders', permission: 'write' },
          { username: 'payments-svc', topic: 'payments', permission: 'readwrite' },
          { username: 'log-shipper', topic: 'logs-*', permission: 'write' },
          { username: 'auditor', topic: '*', permission: 'read' },
          { username: 'ops-admin', topic: 'payments', permission: 'admin' },
          { username: 'orders-reader', topic: 'ord?rs', permission: 'read' },
          { username: 'orders-reader', topic: 'orders', permission: 'read' },
          { username: '*-team', topic: 'orders', permission: 'read' },
        ],
        subjects: [
          { name: 'orders-key', versions: [{ version: 1, schema: '"string"' }] },
          { name: 'orders-value', versions: [{ version: 1, schema: '{"type":"record","name":"Order","fields":[]}' }, { version: 3, schema: ORDERS_V3 }, { version: 2, schema: '{}' }] },
          { name: 'payments-value', versions: [{ version: 1, schema: PAYMENT_PROTO, schemaType: 'PROTOBUF' }] },
          { name: 'logs-app-value', versions: [{ version: 4, schema: LOG_JSON, schemaType: 'JSON' }] },
          { name: 'unrelated', versions: [{ version: 1, schema: '"int"' }] },
        ],
      },
      { name: 'pg-main', type: 'pg', uri: 'postgres://pg-main:5432' },
      {
        name: 'kafka-nosr',
        uri: 'kafka-nosr-acme.aivencloud.com:11111',
        schemaRegistry: false,
        components: [{ component: 'schema_registry', host: 'kafka-nosr-acme.aivencloud.com', port: 11112 }],
        topics: [{ name: 't1', partitions: 1, replication: 1, defaults: { retention_ms: 259_200_000, cleanup_policy: 'compact,delete', segment_ms: 604_800_000 } }, { name: '_internal', partitions: 1, replication: 1 }],
      },
    ],
    'acme lab': [],
  },
};

let fake: FakeAiven;
beforeAll(async () => { fake = await startFakeAiven(data); });
afterAll(async () => { await fake.close(); });
afterEach(() => { fake.fail(null); fake.requests.length = 0; });

const adapter = (over: Partial<AivenConfig> = {}, timeoutMs = 2000) =>
  aivenAdapter({ type: 'AIVEN', projectId: 'acme-prod', token: TOKEN, serviceName: 'kafka-main', ...over }, { aivenApiUrl: fake.url, confluentCloudApiUrl: 'http://127.0.0.1:9', timeoutMs });

/** The error `promise` rejects with, checked for class and message, and that it never echoes the token. */
async function rejection(promise: Promise<unknown>, kind: new (message: string) => Error, message?: string | RegExp): Promise<Error> {
  const err = await promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as Error);
  expect(err).toBeInstanceOf(kind);
  if (typeof message === 'string') expect(err.message).toBe(message);
  else if (message) expect(err.message).toMatch(message);
  expect(`${err.message} ${err.stack ?? ''}`).not.toContain(TOKEN);
  expect(err.message).not.toContain('aivenv1');
  return err;
}

describe('validate', () => {
  it('lists the project as one environment with its Kafka services and their schema registries', async () => {
    expect(await adapter().validate()).toEqual([
      {
        environmentId: 'acme-prod',
        services: [
          {
            kafkaCluster: { id: 'kafka-main', url: 'kafka-main-acme.aivencloud.com:24949' },
            // the `dynamic` route's component, not the public one listed first
            schemaRegistryClusters: [{ id: 'kafka-main', url: 'https://kafka-main-acme.aivencloud.com:24952' }],
          },
          // a schema_registry component without user_config.schema_registry on is no registry
          { kafkaCluster: { id: 'kafka-nosr', url: 'kafka-nosr-acme.aivencloud.com:11111' }, schemaRegistryClusters: [] },
        ],
      },
    ]);
    expect(fake.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['GET', '/v1/project/acme-prod', `aivenv1 ${TOKEN}`],
      ['GET', '/v1/project/acme-prod/service', `aivenv1 ${TOKEN}`],
    ]);
  });

  it('encodes the project as a path segment', async () => {
    expect(await adapter({ projectId: 'acme lab' }).validate()).toEqual([{ environmentId: 'acme lab', services: [] }]);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/project/acme%20lab', '/v1/project/acme%20lab/service']);
  });

  it('rejects a wrong token (401), a project the token may not read (403) and an unknown project (404)', async () => {
    await rejection(adapter({ token: 'wrong-token' }).validate(), ProviderRejectedError, 'AIVEN: the token is not valid (401)');
    await rejection(adapter({ projectId: 'other-team' }).validate(), ProviderRejectedError, 'AIVEN: the token has no access to project other-team (403)');
    await rejection(adapter({ projectId: 'nope' }).validate(), ProviderRejectedError, 'AIVEN: project nope does not exist (404)');
  });

  it('rejects with the reason when only the service list refuses', async () => {
    fake.fail(403, /\/service$/);
    await rejection(adapter().validate(), ProviderRejectedError, 'AIVEN: the token has no access to project acme-prod (403)');
  });

  it('reports a 5xx as unavailable', async () => {
    fake.fail(500);
    await rejection(adapter().validate(), ProviderUnavailableError, /^AIVEN: 127\.0\.0\.1:\d+ answered 500$/);
  });

  it('gives up on a provider that never answers within the bound', async () => {
    fake.fail('hang');
    const started = Date.now();
    await rejection(adapter({}, 300).validate(), ProviderUnavailableError, /^AIVEN: .* did not answer within 0\.3 s$/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports an unreachable API as unavailable', async () => {
    const gone = aivenAdapter({ type: 'AIVEN', projectId: 'p', token: TOKEN }, { aivenApiUrl: 'http://127.0.0.1:9', confluentCloudApiUrl: '', timeoutMs: 2000 });
    await rejection(gone.validate(), ProviderUnavailableError, /cannot be reached/);
  });
});

describe('discover', () => {
  it('counts non-internal topics, distinct application principals and distinct subjects', async () => {
    // principals: orders-reader, orders-writer, payments-svc, log-shipper, auditor, ops-admin; not avnadmin nor `*-team`
    expect(await adapter().discover()).toEqual({ streams: 3, applications: 6, schemas: 5 });
    const paths = fake.requests.map((r) => r.path).sort();
    expect(paths).toEqual([
      '/v1/project/acme-prod/service/kafka-main',
      '/v1/project/acme-prod/service/kafka-main/acl',
      '/v1/project/acme-prod/service/kafka-main/kafka/schema/subjects',
      '/v1/project/acme-prod/service/kafka-main/topic',
    ]);
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set([`aivenv1 ${TOKEN}`]));
  });

  it('does not ask a service without a registry for subjects', async () => {
    expect(await adapter({ serviceName: 'kafka-nosr' }).discover()).toEqual({ streams: 1, applications: 0, schemas: 0 });
    expect(fake.requests.some((r) => r.path.includes('/kafka/schema'))).toBe(false);
  });

  it('rejects an unknown service, a service that is not Kafka, a missing service name and a wrong token', async () => {
    await rejection(adapter({ serviceName: 'ghost' }).discover(), ProviderRejectedError, 'AIVEN: service ghost does not exist in project acme-prod (404)');
    await rejection(adapter({ serviceName: 'pg-main' }).discover(), ProviderRejectedError, /^AIVEN: service pg-main of project acme-prod is not a Kafka service/);
    await rejection(adapter({ serviceName: undefined }).discover(), ProviderRejectedError, /service name is required/);
    await rejection(adapter({ token: 'nope' }).discover(), ProviderRejectedError, 'AIVEN: the token is not valid (401)');
    await rejection(adapter({ projectId: 'other-team' }).discover(), ProviderRejectedError, 'AIVEN: the token has no access to service kafka-main of project other-team (403)');
  });

  it('names the missing permission when the token may read the service but not its data', async () => {
    fake.fail(403, /\/(topic|acl)$/);
    await rejection(adapter().discover(), ProviderRejectedError,
      'AIVEN: the token may not read the topics, ACLs and schemas of service kafka-main of project acme-prod: that needs the service:data:write permission (403)');
  });

  it('reports a 5xx of any one call as unavailable', async () => {
    fake.fail(500, /\/acl$/);
    await rejection(adapter().discover(), ProviderUnavailableError, /answered 500/);
  });
});

describe('topics', () => {
  const expected: ProviderTopic[] = [
    {
      name: 'logs-app', partitions: 1, replicationFactor: 3, retentionMs: -1, cleanupPolicy: 'delete', configs: {},
      keySchema: null,
      valueSchema: { subject: 'logs-app-value', type: 'JSON', version: 4, schema: LOG_JSON },
      acls: [
        { principal: 'log-shipper', operation: 'WRITE', patternType: 'PREFIXED' },
        { principal: 'auditor', operation: 'READ', patternType: 'PREFIXED' },
      ],
    },
    {
      name: 'orders', partitions: 6, replicationFactor: 3, retentionMs: 604_800_000, cleanupPolicy: 'delete',
      configs: { 'min.insync.replicas': '2', 'compression.type': 'producer', 'unclean.leader.election.enable': 'false' },
      keySchema: { subject: 'orders-key', type: 'AVRO', version: 1, schema: '"string"' },
      valueSchema: { subject: 'orders-value', type: 'AVRO', version: 3, schema: ORDERS_V3 },
      acls: [
        { principal: 'orders-reader', operation: 'READ', patternType: 'LITERAL' },
        { principal: 'orders-writer', operation: 'WRITE', patternType: 'LITERAL' },
        { principal: 'auditor', operation: 'READ', patternType: 'PREFIXED' },
      ],
    },
    {
      name: 'payments', partitions: 3, replicationFactor: 2, retentionMs: 86_400_000, cleanupPolicy: 'compact', configs: {},
      keySchema: null,
      valueSchema: { subject: 'payments-value', type: 'PROTOBUF', version: 1, schema: PAYMENT_PROTO },
      acls: [
        { principal: 'payments-svc', operation: 'READ', patternType: 'LITERAL' },
        { principal: 'payments-svc', operation: 'WRITE', patternType: 'LITERAL' },
        { principal: 'auditor', operation: 'READ', patternType: 'PREFIXED' },
        { principal: 'ops-admin', operation: 'READ', patternType: 'LITERAL' },
        { principal: 'ops-admin', operation: 'WRITE', patternType: 'LITERAL' },
      ],
    },
  ];

  it('details every non-internal topic with its settings, latest key/value schemas and ACLs', async () => {
    expect(await adapter().topics()).toEqual(expected);
  });

  it('lists subjects once, reads each topic once, and never reads internal topics', async () => {
    await adapter().topics();
    const paths = fake.requests.map((r) => r.path);
    const count = (p: string) => paths.filter((x) => x === p).length;
    const svc = '/v1/project/acme-prod/service/kafka-main';
    expect(count(`${svc}/kafka/schema/subjects`)).toBe(1);
    for (const t of ['orders', 'payments', 'logs-app']) expect(count(`${svc}/topic/${t}`)).toBe(1);
    expect(paths.filter((p) => p.includes('/topic/_'))).toEqual([]);
    // latest version of orders-value read by number after listing its versions
    expect(count(`${svc}/kafka/schema/subjects/orders-value/versions`)).toBe(1);
    expect(count(`${svc}/kafka/schema/subjects/orders-value/versions/3`)).toBe(1);
    expect(paths.filter((p) => p.includes('unrelated'))).toEqual([]);
    expect(paths.length).toBe(4 + 3 + 4 * 2);
    expect(new Set(fake.requests.map((r) => r.authorization))).toEqual(new Set([`aivenv1 ${TOKEN}`]));
  });

  it('gives no schemas for a service without a registry', async () => {
    expect(await adapter({ serviceName: 'kafka-nosr' }).topics()).toEqual([
      // retention and cleanup in effect even when inherited; inherited values are not the topic's own configs
      { name: 't1', partitions: 1, replicationFactor: 1, retentionMs: 259_200_000, cleanupPolicy: 'compact,delete', configs: {}, keySchema: null, valueSchema: null, acls: [] },
    ]);
  });

  it('refuses and fails like discover', async () => {
    await rejection(adapter({ serviceName: 'ghost' }).topics(), ProviderRejectedError, 'AIVEN: service ghost does not exist in project acme-prod (404)');
    fake.fail(500, /\/topic\/orders$/);
    await rejection(adapter().topics(), ProviderUnavailableError, /answered 500/);
    fake.fail('hang', /\/kafka\/schema\/subjects\/orders-value\/versions$/);
    await rejection(adapter({}, 300).topics(), ProviderUnavailableError, /did not answer within/);
  });
});
