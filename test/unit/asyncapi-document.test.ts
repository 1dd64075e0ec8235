/**
 * assembleAsyncApi (docs/contract.md §9) from plain inputs: every part of the document, then a matrix of shapes that the
 * official AsyncAPI parser (v3 with the Avro schema parser) must read with zero errors and no unlisted warning.
 * The integration test covers the same rules through HTTP and the database; this one covers the combinations.
 */
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { assembleAsyncApi, pascalCase, type AsyncApiInput, type AuthMethod } from '../../asyncapi/document';
import { ExactNumber } from '../../asyncapi/exact-json';
import { AVRO_FORMAT, JSON_SCHEMA_FORMAT, avroRecordName, keyBinding, valueMessage, type Side } from '../../asyncapi/payloads';
import { avroPayload } from '../../asyncapi/avro-payload';
import { toYaml } from '../../asyncapi/yaml';
import { parseSchema } from '../../schema-formats';
import { parseAsyncApi, unjustified } from '../support/asyncapi';

type Cluster = AsyncApiInput['clusters'][number];
type Over = Partial<{ [K in keyof AsyncApiInput]: Partial<AsyncApiInput[K]> }> & { clusters?: Cluster[]; key?: Side; value?: Side };

const MTLS: AuthMethod = { rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' };
const SCRAM_256: AuthMethod = { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_256' };
const SCRAM_512: AuthMethod = { rank: 3, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' };
const OAUTH: AuthMethod = { rank: 4, protocol: 'SASL', mechanism: 'OAUTH_BEARER' };
const TOKEN_URL = 'https://auth.example.com/realms/acme/protocol/openid-connect/token';
const UID = '0b6a9f38-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

function cluster(name: string, over: Partial<Cluster> = {}): Cluster {
  return { name, description: null, location: null, bootstrapServers: [`${name.replace(/[^a-z0-9]/gi, '')}.example.com:9093`], schemaRegistryUrls: [], ...over };
}

/** A deployed stream: String key and value, one cluster with a registry, mTLS + SCRAM-512, delete policy. */
function input(over: Over = {}): AsyncApiInput {
  return {
    tenant: {
      shortName: 'acme',
      supportedAuthenticationMethods: [{ ...MTLS }, { ...SCRAM_512, rank: 2 }],
      properties: { 'replication.factor': '3' },
      ...over.tenant,
    },
    tokenUrl: over.tokenUrl ?? TOKEN_URL,
    streamConfig: { uid: UID, topicName: 'acme.orders.v1', partitions: 6, retentionTime: 86_400_000, properties: {}, ...over.streamConfig },
    stream: { name: 'orders.v1-raw', description: 'Orders of the web shop', retentionPolicy: 'delete', ...over.stream },
    environment: { name: 'Development', shortName: 'dev', ...over.environment },
    clusters: over.clusters ?? [cluster('eu west.1', { location: 'Amsterdam', bootstrapServers: ['b1.example.com:9093', 'b2.example.com:9093'], schemaRegistryUrls: ['https://sr.example.com'] })],
    key: over.key ?? { type: 'String', schema: null },
    value: over.value ?? { type: 'String', schema: null },
    pinnedValueVersion: over.pinnedValueVersion === undefined ? null : over.pinnedValueVersion,
  };
}

const side = (type: string, body?: unknown, version = '1'): Side => ({
  type, schema: body === undefined ? null : { version, body: typeof body === 'string' ? body : JSON.stringify(body) },
});

const doc = (over: Over = {}) => assembleAsyncApi(input(over)) as any;
const channel = (d: any) => Object.values(d.channels)[0] as any;
const message = (d: any) => Object.values(d.components.messages)[0] as any;
const BINARY = { type: 'string', format: 'binary' };

const ORDER = {
  type: 'record', name: 'Order', namespace: 'io.shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double', default: 0 },
    { name: 'lines', type: { type: 'array', items: { type: 'record', name: 'Line', fields: [{ name: 'sku', type: 'string' }] } } },
    { name: 'previous', type: ['null', 'Order'], default: null },
  ],
};
const ORDER_KEY = { type: 'record', name: 'OrderKey', namespace: 'io.shop', fields: [{ name: 'id', type: 'string' }] };
const INVOICE = {
  $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://example.com/invoice.json', type: 'object',
  properties: { billTo: { $ref: '#/definitions/address' }, total: { type: 'number', maximum: 1000 } },
  definitions: { address: { type: 'object', properties: { street: { type: 'string' } } } },
};
const TREE = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
const PROTO = 'syntax = "proto3";\npackage shop;\n\nmessage Shipment {\n  string id = 1;\n}\n';

describe('top-level fields', () => {
  it('asyncapi, id as a URN of tenant and config, default content type', () => {
    const d = doc();
    expect(d.asyncapi).toBe('2.6.0');
    expect(d.id).toBe(`urn:platform:acme:stream_config:${UID}`);
    expect(d.defaultContentType).toBe('application/octet-stream');
    expect(Object.keys(d)).toEqual(['asyncapi', 'id', 'info', 'defaultContentType', 'servers', 'channels', 'components']);
  });

  it('info.title is the stream name; version is the pinned value version, else 1.0.0', () => {
    expect(doc().info).toMatchObject({ title: 'orders.v1-raw', version: '1.0.0' });
    expect(doc({ pinnedValueVersion: '2.3.1' }).info.version).toBe('2.3.1');
    // A version name that YAML would read as a number stays the string it is.
    const text = toYaml(doc({ pinnedValueVersion: '1.0' }));
    expect((yaml.load(text) as any).info.version).toBe('1.0');
  });

  it('info.description: the stream description and the environment', () => {
    const d = doc({ stream: { description: 'Orders of the web shop' }, environment: { name: 'Production', shortName: 'prod' } });
    expect(d.info.description.startsWith('Orders of the web shop')).toBe(true);
    expect(d.info.description).toContain('Production');
    expect(d.info.description).toContain('prod');
  });

  it('info.description without a stream description still names the stream and environment', () => {
    for (const description of [null, '']) {
      const d = doc({ stream: { name: 'payments', description }, environment: { name: 'Staging', shortName: 'stg' } });
      expect(d.info.description).toContain('payments');
      expect(d.info.description).toContain('Staging');
      expect(d.info.description).not.toContain('null');
    }
  });
});

describe('servers', () => {
  it('one per bootstrap server of every cluster, in cluster then server order', () => {
    const d = doc({
      clusters: [
        cluster('alpha', { bootstrapServers: ['a1:9093', 'a2:9093', 'a3:9093'] }),
        cluster('beta', { bootstrapServers: ['b1:9093'] }),
        cluster('gamma', { bootstrapServers: ['g1:9093', 'g2:9093'] }),
      ],
    });
    expect(Object.keys(d.servers)).toEqual(['alpha-1', 'alpha-2', 'alpha-3', 'beta-1', 'gamma-1', 'gamma-2']);
    expect(Object.values(d.servers).map((s: any) => s.url)).toEqual(['a1:9093', 'a2:9093', 'a3:9093', 'b1:9093', 'g1:9093', 'g2:9093']);
  });

  it('the description names the cluster and its location', () => {
    const d = doc({ clusters: [cluster('eu west.1', { location: 'Amsterdam', bootstrapServers: ['x:1', 'y:2'] }), cluster('bare')] });
    expect(d.servers['eu_west_1-2'].description).toContain('eu west.1');
    expect(d.servers['eu_west_1-2'].description).toContain('Amsterdam');
    expect(d.servers['bare-1'].description).toContain('bare');
    expect(d.servers['bare-1'].description).not.toContain('null');
  });

  it('keys keep [A-Za-z0-9_-] and replace anything else with _', () => {
    const d = doc({ clusters: [cluster('EU west.1/ä:b', { bootstrapServers: ['x:1'] }), cluster('Ok_name-2', { bootstrapServers: ['y:1'] })] });
    expect(Object.keys(d.servers)).toEqual(['EU_west_1___b-1', 'Ok_name-2-1']);
  });

  it('cluster names that sanitise alike get a suffix: a.b and a_b → a_b-1, a_b_2-1', () => {
    const d = doc({ clusters: [cluster('a.b', { bootstrapServers: ['x:1'] }), cluster('a_b', { bootstrapServers: ['y:1', 'y:2'] })] });
    expect(Object.keys(d.servers)).toEqual(['a_b-1', 'a_b_2-1', 'a_b_2-2']);
    expect(d.servers['a_b-1'].url).toBe('x:1');
    expect(d.servers['a_b_2-2'].url).toBe('y:2');
  });

  it('no two servers share a key, however the cluster names collide', () => {
    const names = ['a.b', 'a b', 'a_b', 'a_b_2', 'a/b', 'a-b', 'a_b-1', 'a_b_3'];
    const clusters = names.map((name, i) => cluster(name, { bootstrapServers: Array.from({ length: i + 1 }, (_, j) => `h${i}-${j}:9093`) }));
    const d = doc({ clusters });
    const keys = Object.keys(d.servers);
    expect(keys).toHaveLength(clusters.reduce((n, c) => n + c.bootstrapServers.length, 0));
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    // Every bootstrap server is present exactly once.
    expect(Object.values(d.servers).map((s: any) => s.url).sort()).toEqual(clusters.flatMap((c) => c.bootstrapServers).sort());
    expect(keys.slice(0, 6)).toEqual(['a_b-1', 'a_b_2-1', 'a_b_2-2', 'a_b_3-1', 'a_b_3-2', 'a_b_3-3']);
  });

  it('protocol kafka-secure with security by rank; kafka and no security when the tenant has no methods', () => {
    const methods = [{ ...OAUTH, rank: 1 }, { ...MTLS, rank: 7 }, { ...SCRAM_256, rank: 3 }];
    const secure = doc({ tenant: { supportedAuthenticationMethods: methods } });
    for (const server of Object.values(secure.servers) as any[]) {
      expect(server.protocol).toBe('kafka-secure');
      expect(server.security).toEqual([{ SASL_OAUTH_BEARER: [] }, { SASL_SCRAM_SHA_256: [] }, { SSL_MUTUAL_TLS: [] }]);
    }
    const plain = doc({ tenant: { supportedAuthenticationMethods: [] } });
    for (const server of Object.values(plain.servers) as any[]) {
      expect(server.protocol).toBe('kafka');
      expect(server).not.toHaveProperty('security');
    }
    expect(plain.components).not.toHaveProperty('securitySchemes');
  });

  it('the schema registry binding only for a cluster with a registry URL, the first one', () => {
    const d = doc({
      clusters: [
        cluster('with', { schemaRegistryUrls: ['https://sr1.example.com', 'https://sr2.example.com'] }),
        cluster('without', { schemaRegistryUrls: [] }),
      ],
    });
    expect(d.servers['with-1'].bindings).toEqual({
      kafka: { schemaRegistryUrl: 'https://sr1.example.com', schemaRegistryVendor: 'confluent', bindingVersion: '0.4.0' },
    });
    expect(d.servers['without-1']).not.toHaveProperty('bindings');
  });

  it('no clusters (or clusters without bootstrap servers): no servers key and no security schemes', () => {
    for (const clusters of [[], [cluster('empty', { bootstrapServers: [] })]]) {
      const d = doc({ clusters, tenant: { supportedAuthenticationMethods: [MTLS, SCRAM_256, SCRAM_512, OAUTH] } });
      expect(d).not.toHaveProperty('servers');
      expect(d.components).not.toHaveProperty('securitySchemes');
      expect(Object.keys(d.components)).toEqual(['messages']);
    }
  });
});

describe('security schemes', () => {
  it.each([
    [MTLS, 'SSL_MUTUAL_TLS', { type: 'X509' }],
    [SCRAM_256, 'SASL_SCRAM_SHA_256', { type: 'scramSha256' }],
    [SCRAM_512, 'SASL_SCRAM_SHA_512', { type: 'scramSha512' }],
    [OAUTH, 'SASL_OAUTH_BEARER', { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_URL, scopes: {} } } }],
  ])('%o alone → %s', (method, name, scheme) => {
    const d = doc({ tenant: { supportedAuthenticationMethods: [method] } });
    expect(Object.keys(d.components.securitySchemes)).toEqual([name]);
    expect(d.components.securitySchemes[name]).toEqual({ ...scheme, description: expect.any(String) });
    expect(d.components.securitySchemes[name].description.length).toBeGreaterThan(0);
    expect(d.servers['eu_west_1-1'].security).toEqual([{ [name]: [] }]);
  });

  it('all four, listed by rank; the oauth2 token URL is the one given', () => {
    const tokenUrl = 'https://login.example.org/realms/other/protocol/openid-connect/token';
    const d = doc({ tokenUrl, tenant: { supportedAuthenticationMethods: [{ ...SCRAM_512, rank: 9 }, { ...OAUTH, rank: 2 }, { ...MTLS, rank: 5 }, { ...SCRAM_256, rank: 1 }] } });
    expect(Object.keys(d.components.securitySchemes)).toEqual(['SASL_SCRAM_SHA_256', 'SASL_OAUTH_BEARER', 'SSL_MUTUAL_TLS', 'SASL_SCRAM_SHA_512']);
    expect(d.components.securitySchemes.SASL_OAUTH_BEARER.flows.clientCredentials.tokenUrl).toBe(tokenUrl);
    expect(d.servers['eu_west_1-1'].security).toEqual([{ SASL_SCRAM_SHA_256: [] }, { SASL_OAUTH_BEARER: [] }, { SSL_MUTUAL_TLS: [] }, { SASL_SCRAM_SHA_512: [] }]);
  });

  it('only the methods the tenant has', () => {
    const d = doc({ tenant: { supportedAuthenticationMethods: [SCRAM_512] } });
    expect(Object.keys(d.components.securitySchemes)).toEqual(['SASL_SCRAM_SHA_512']);
  });
});

describe('channel', () => {
  it('one channel named after the topic, with description, publish and subscribe', () => {
    const d = doc({ stream: { name: 'orders.v1-raw' }, streamConfig: { topicName: 'acme.orders.raw' } });
    expect(Object.keys(d.channels)).toEqual(['acme.orders.raw']);
    const c = d.channels['acme.orders.raw'];
    expect(c.description).toContain('orders.v1-raw');
    expect(c.publish).toEqual({ operationId: 'produceOrdersV1Raw', summary: expect.stringContaining('orders.v1-raw'), message: { $ref: '#/components/messages/OrdersV1RawMessage' } });
    expect(c.subscribe).toEqual({ operationId: 'consumeOrdersV1Raw', summary: expect.stringContaining('orders.v1-raw'), message: { $ref: '#/components/messages/OrdersV1RawMessage' } });
    expect(Object.keys(d.components.messages)).toEqual(['OrdersV1RawMessage']);
  });

  it('kafka binding: topic, partitions, replicas, topic configuration, binding version', () => {
    const d = doc({ streamConfig: { topicName: 't1', partitions: 12, retentionTime: 604_800_000, properties: { 'retention.bytes': '1073741824' } } });
    expect(channel(d).bindings).toEqual({
      kafka: {
        topic: 't1', partitions: 12, replicas: 3,
        topicConfiguration: { 'cleanup.policy': ['delete'], 'retention.ms': 604_800_000, 'retention.bytes': 1_073_741_824 },
        bindingVersion: '0.4.0',
      },
    });
  });

  it.each([
    ['1', 1], ['3', 3], ['10', 10], ['100000000', 100_000_000],
  ])('replicas from replication.factor %j', (factor, replicas) => {
    const kafka = channel(doc({ tenant: { properties: { 'replication.factor': factor } } })).bindings.kafka;
    expect(kafka.replicas).toBe(replicas);
    expect(Object.keys(kafka)).toEqual(['topic', 'partitions', 'replicas', 'topicConfiguration', 'bindingVersion']);
  });

  it.each([
    ['0', { 'replication.factor': '0' }], ['3.5', { 'replication.factor': '3.5' }], ['x', { 'replication.factor': 'x' }],
    ['-1', { 'replication.factor': '-1' }], ['empty', { 'replication.factor': '' }], ['absent', { 'min.insync.replicas': '2' }],
    ['null properties', null],
  ])('no replicas when replication.factor is %s', (_, properties) => {
    const kafka = channel(doc({ tenant: { properties } })).bindings.kafka;
    expect(kafka).not.toHaveProperty('replicas');
    expect(Object.keys(kafka)).toEqual(['topic', 'partitions', 'topicConfiguration', 'bindingVersion']);
  });

  it.each([
    ['delete', ['delete']], ['compact', ['compact']], ['compact,delete', ['compact', 'delete']],
  ])('cleanup.policy of %s is an array', (retentionPolicy, policy) => {
    expect(channel(doc({ stream: { retentionPolicy } })).bindings.kafka.topicConfiguration['cleanup.policy']).toEqual(policy);
  });

  it('topicConfiguration holds only cleanup.policy, retention.ms and retention.bytes', () => {
    const properties = { 'retention.bytes': '5000', 'min.insync.replicas': '2', 'max.message.bytes': '1048576', 'cleanup.policy': 'compact' };
    const tc = channel(doc({ streamConfig: { properties } })).bindings.kafka.topicConfiguration;
    expect(tc).toEqual({ 'cleanup.policy': ['delete'], 'retention.ms': 86_400_000, 'retention.bytes': 5000 });
  });

  it('retention.bytes absent unless set', () => {
    const tc = channel(doc({ streamConfig: { properties: {} } })).bindings.kafka.topicConfiguration;
    expect(Object.keys(tc)).toEqual(['cleanup.policy', 'retention.ms']);
  });

  it('retention.bytes beyond 2^53 stays exact in the YAML, as an integer', () => {
    const d = doc({ streamConfig: { properties: { 'retention.bytes': '9223372036854775807' } } });
    const bytes = channel(d).bindings.kafka.topicConfiguration['retention.bytes'];
    expect(bytes).toBeInstanceOf(ExactNumber);
    expect(bytes.text).toBe('9223372036854775807');
    const text = toYaml(d);
    expect(text).toContain('retention.bytes: 9223372036854775807\n');
    expect(typeof channel(yaml.load(text)).bindings.kafka.topicConfiguration['retention.bytes']).toBe('number');
  });

  it('partitions, replicas, retention.ms and retention.bytes are YAML integers, not strings', () => {
    const text = toYaml(doc({ streamConfig: { partitions: 6, retentionTime: 86_400_000, properties: { 'retention.bytes': '-1' } } }));
    expect(text).toMatch(/\n {8}partitions: 6\n/);
    expect(text).toMatch(/\n {8}replicas: 3\n/);
    expect(text).toMatch(/\n {10}retention\.ms: 86400000\n/);
    expect(text).toMatch(/\n {10}retention\.bytes: -1\n/);
  });
});

describe('message', () => {
  it('named after the Avro value record (simple name), with name and title, no messageId', () => {
    const d = doc({ value: side('AVRO', ORDER) });
    expect(Object.keys(d.components.messages)).toEqual(['Order']);
    const m = d.components.messages.Order;
    expect(m).toMatchObject({ name: 'Order', title: expect.stringContaining('orders.v1-raw') });
    expect(m).not.toHaveProperty('messageId');
    expect(channel(d).publish.message).toEqual({ $ref: '#/components/messages/Order' });
    expect(channel(d).subscribe.message).toEqual({ $ref: '#/components/messages/Order' });
  });

  it('a record whose name holds its namespace is named by its last part', () => {
    expect(Object.keys(doc({ value: side('AVRO', { type: 'record', name: 'a.b.Rec', fields: [] }) }).components.messages)).toEqual(['Rec']);
  });

  it.each([
    ['an Avro enum', side('AVRO', { type: 'enum', name: 'Colour', symbols: ['RED'] })],
    ['an Avro fixed', side('AVRO', { type: 'fixed', name: 'Md5', size: 16 })],
    ['Avro without a version', side('AVRO')],
    ['JSON Schema with a title', side('JSON_SCHEMA', { title: 'Order', type: 'object' })],
    ['String', side('String')],
  ])('otherwise (%s) PascalCase stream name + Message', (_, value) => {
    const d = doc({ stream: { name: 'paint.colours-v1' }, value });
    expect(Object.keys(d.components.messages)).toEqual(['PaintColoursV1Message']);
    expect(channel(d).publish.operationId).toBe('producePaintColoursV1');
    expect(channel(d).subscribe.operationId).toBe('consumePaintColoursV1');
  });

  it('the key record does not name the message', () => {
    expect(Object.keys(doc({ key: side('AVRO', ORDER_KEY) }).components.messages)).toEqual(['OrdersV1RawMessage']);
  });

  it('AVRO: avro/binary, the Avro schema format, the schema as an object', () => {
    const m = message(doc({ value: side('AVRO', ORDER, '4.2.0'), pinnedValueVersion: '4.2.0' }));
    expect(m).toMatchObject({ contentType: 'avro/binary', schemaFormat: 'application/vnd.apache.avro;version=1.9.0' });
    expect(m.payload).toEqual(ORDER);
  });

  it('AVRO without a version: a binary payload and no schema format', () => {
    const m = message(doc({ value: side('AVRO') }));
    expect(m).toMatchObject({ contentType: 'avro/binary', payload: BINARY });
    expect(m).not.toHaveProperty('schemaFormat');
  });

  it('Avro numbers no double holds keep their digits in the YAML', () => {
    const body = '{"type":"record","name":"R","fields":[{"name":"pi","type":"double","default":3.141592653589793238}]}';
    const text = toYaml(doc({ value: side('AVRO', body) }));
    expect(text).toContain('default: 3.141592653589793238\n');
  });

  it('JSON_SCHEMA: application/json, draft-07 format, local refs inlined, $schema and $id dropped', () => {
    const m = message(doc({ value: side('JSON_SCHEMA', INVOICE) }));
    expect(m).toMatchObject({ contentType: 'application/json', schemaFormat: 'application/schema+json;version=draft-07' });
    expect(m.payload).toEqual({
      type: 'object',
      properties: { billTo: { type: 'object', properties: { street: { type: 'string' } } }, total: { type: 'number', maximum: 1000 } },
    });
    expect(m).not.toHaveProperty('x-json-schema');
  });

  it('JSON_SCHEMA that cannot be inlined: an object payload and the text in x-json-schema', () => {
    const body = JSON.stringify(TREE);
    const m = message(doc({ value: side('JSON_SCHEMA', body) }));
    expect(m).toMatchObject({ schemaFormat: 'application/schema+json;version=draft-07', payload: { type: 'object' }, 'x-json-schema': body });
  });

  it('JSON_SCHEMA without a version: an empty payload', () => {
    const m = message(doc({ value: side('JSON_SCHEMA') }));
    expect(m).toMatchObject({ contentType: 'application/json', payload: {} });
    expect(m).not.toHaveProperty('x-json-schema');
  });

  it('PROTOBUF: a binary payload and the text in x-protobuf-schema; none without a version', () => {
    const m = message(doc({ value: side('PROTOBUF', PROTO) }));
    expect(m).toMatchObject({ contentType: 'application/x-protobuf', payload: BINARY, 'x-protobuf-schema': PROTO });
    expect(m).not.toHaveProperty('schemaFormat');
    expect(message(doc({ value: side('PROTOBUF') }))).not.toHaveProperty('x-protobuf-schema');
  });

  it.each([
    ['JSON', 'application/json', {}],
    ['String', 'text/plain', { type: 'string' }],
    ['Xml', 'application/xml', { type: 'string' }],
    ['Binary', 'application/octet-stream', BINARY],
  ])('%s: %s, payload %o, no schema format', (type, contentType, payload) => {
    const m = message(doc({ value: side(type) }));
    expect(m).toMatchObject({ contentType, payload });
    expect(m.payload).toEqual(payload);
    expect(m).not.toHaveProperty('schemaFormat');
  });

  it.each([
    ['AVRO with a version', side('AVRO', ORDER_KEY), ORDER_KEY],
    ['AVRO primitive', side('AVRO', '"long"'), { type: 'long' }],
    ['AVRO without a version', side('AVRO'), BINARY],
    ['String', side('String'), { type: 'string' }],
    ['JSON', side('JSON'), BINARY],
    ['JSON_SCHEMA', side('JSON_SCHEMA', { type: 'string' }), BINARY],
    ['PROTOBUF', side('PROTOBUF', PROTO), BINARY],
    ['Binary', side('Binary'), BINARY],
    ['Xml', side('Xml'), BINARY],
  ])('key %s in the kafka message binding', (_, key, expected) => {
    expect(message(doc({ key })).bindings).toEqual({ kafka: { key: expected, bindingVersion: '0.4.0' } });
  });
});

describe('pascalCase', () => {
  it.each([
    ['orders.v1-raw', 'OrdersV1Raw'],
    ['orders', 'Orders'],
    ['my_stream name', 'MyStreamName'],
    ['ORDERS', 'ORDERS'],
    ['camelCase', 'CamelCase'],
    ['  a..b  ', 'AB'],
    ['1st-stream', '1stStream'],
    ['x', 'X'],
    ['---', ''],
    ['', ''],
  ])('%j → %j', (name, expected) => {
    expect(pascalCase(name)).toBe(expected);
  });

  it('its result is always an identifier-safe [A-Za-z0-9]*', () => {
    for (const name of ['a/b\\c', 'ä-ö', 'ορδερς', 'a b\tc\nd', 'x$y%z']) expect(pascalCase(name)).toMatch(/^[A-Za-z0-9]*$/);
  });
});

describe('payloads helpers', () => {
  it('avroPayload: a bare primitive name becomes {type}, anything else is the parsed JSON', () => {
    expect(avroPayload('"string"')).toEqual({ schema: { type: 'string' }, loss: null });
    expect(avroPayload('["null","string"]')).toEqual({ schema: ['null', 'string'], loss: null });
    expect(avroPayload(JSON.stringify(ORDER))).toEqual({ schema: ORDER, loss: null });
  });

  it.each([
    [side('AVRO', ORDER), 'Order'],
    [side('AVRO', { type: 'record', name: 'a.b.Rec', fields: [] }), 'Rec'],
    [side('AVRO', { type: 'record', name: 'Rec', namespace: 'x.y', fields: [] }), 'Rec'],
    [side('AVRO', { type: 'enum', name: 'E', symbols: ['A'] }), null],
    [side('AVRO', '["null","string"]'), null],
    [side('AVRO', '"string"'), null],
    [side('AVRO'), null],
    [side('JSON_SCHEMA', { type: 'record', name: 'Rec' }), null],
  ])('avroRecordName(%o) = %s', (s, expected) => {
    expect(avroRecordName(s)).toBe(expected);
  });

  it('valueMessage and keyBinding return fresh objects: changing one result never changes the next', () => {
    const a = valueMessage(side('Binary'));
    (a.payload as any).format = 'changed';
    expect(valueMessage(side('Binary')).payload).toEqual(BINARY);
    const k = keyBinding(side('Xml')).key as any;
    k.format = 'changed';
    expect(keyBinding(side('Xml')).key).toEqual(BINARY);
  });

  it('exported format constants are the contract values', () => {
    expect(AVRO_FORMAT).toBe('application/vnd.apache.avro;version=1.9.0');
    expect(JSON_SCHEMA_FORMAT).toBe('application/schema+json;version=draft-07');
  });
});

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('determinism', () => {
  const rich = (): AsyncApiInput => input({
    tenant: { supportedAuthenticationMethods: [{ ...OAUTH, rank: 1 }, { ...MTLS, rank: 0 }, { ...SCRAM_256, rank: 5 }] },
    clusters: [cluster('a.b', { bootstrapServers: ['x:1', 'x:2'], schemaRegistryUrls: ['https://sr'] }), cluster('a_b')],
    key: side('AVRO', ORDER_KEY),
    value: side('AVRO', ORDER),
    streamConfig: { properties: { 'retention.bytes': '9223372036854775807' } },
  });

  it('the same input gives the same YAML text, key order included', () => {
    const first = toYaml(assembleAsyncApi(rich()));
    const second = toYaml(assembleAsyncApi(rich()));
    expect(second).toBe(first);
    const same = rich();
    expect(toYaml(assembleAsyncApi(same))).toBe(toYaml(assembleAsyncApi(same)));
  });

  it('the input is not mutated (a deeply frozen input works and equals its copy afterwards)', () => {
    const frozen = deepFreeze(rich());
    const copy = structuredClone(rich());
    expect(() => assembleAsyncApi(frozen)).not.toThrow();
    expect(frozen).toEqual(copy);
    // Ranks out of order stay out of order in the caller's list.
    expect(frozen.tenant.supportedAuthenticationMethods.map((m) => m.rank)).toEqual([1, 0, 5]);
  });

  it('servers sharing one security list print without YAML anchors or aliases', () => {
    const text = toYaml(assembleAsyncApi(rich()));
    expect(text).not.toMatch(/[&*]ref_/);
    const loaded = yaml.load(text) as any;
    for (const s of Object.values(loaded.servers) as any[]) expect(s.security).toEqual([{ SSL_MUTUAL_TLS: [] }, { SASL_OAUTH_BEARER: [] }, { SASL_SCRAM_SHA_256: [] }]);
  });
});

// ---- The official parser over a matrix of shapes ----

const VALUES: [string, Side][] = [
  ['AVRO record', side('AVRO', ORDER)],
  ['AVRO enum', side('AVRO', { type: 'enum', name: 'Colour', namespace: 'io.paint', symbols: ['RED', 'BLUE'] })],
  ['AVRO without version', side('AVRO')],
  ['JSON_SCHEMA', side('JSON_SCHEMA', JSON.stringify(INVOICE).replace('"maximum":1000', '"maximum":12345678901234567890'))],
  ['JSON_SCHEMA recursive', side('JSON_SCHEMA', TREE)],
  ['JSON_SCHEMA boolean', side('JSON_SCHEMA', 'true')],
  ['JSON_SCHEMA without version', side('JSON_SCHEMA')],
  ['PROTOBUF', side('PROTOBUF', PROTO)],
  ['PROTOBUF without version', side('PROTOBUF')],
  ['JSON', side('JSON')],
  ['String', side('String')],
  ['Binary', side('Binary')],
  ['Xml', side('Xml')],
];
const KEYS: [string, Side][] = [
  ['AVRO record', side('AVRO', ORDER_KEY)],
  ['AVRO without version', side('AVRO')],
  ['JSON_SCHEMA', side('JSON_SCHEMA', { type: 'string' })],
  ['PROTOBUF', side('PROTOBUF', PROTO)],
  ['JSON', side('JSON')],
  ['String', side('String')],
  ['Binary', side('Binary')],
  ['Xml', side('Xml')],
];
const CLUSTERS: Record<string, Cluster[]> = {
  '0 clusters': [],
  '1 cluster': [cluster('eu west.1', { location: 'Amsterdam', bootstrapServers: ['b1:9093', 'b2:9093'], schemaRegistryUrls: ['https://sr.example.com'] })],
  '2 clusters': [
    cluster('a.b', { bootstrapServers: ['b1:9093', 'b2:9093'], schemaRegistryUrls: ['https://sr.example.com', 'https://sr2.example.com'] }),
    cluster('a_b', { bootstrapServers: ['c1:9093'] }),
  ],
};
const AUTH: Record<string, AuthMethod[]> = {
  none: [], mTLS: [MTLS], 'SCRAM-256': [SCRAM_256], 'SCRAM-512': [SCRAM_512], OAuth: [OAUTH],
  all: [{ ...OAUTH, rank: 1 }, { ...SCRAM_512, rank: 2 }, { ...MTLS, rank: 3 }, { ...SCRAM_256, rank: 4 }],
};

interface Shape { label: string; over: Over }
const SHAPES: Shape[] = [
  ...VALUES.map(([name, value]) => ({ label: `value ${name}`, over: { value } })),
  ...KEYS.map(([name, key]) => ({ label: `key ${name}`, over: { key } })),
  ...Object.entries(CLUSTERS).flatMap(([c, clusters]) => Object.entries(AUTH).map(([a, methods]) => ({
    label: `${c}, auth ${a}`, over: { clusters, tenant: { supportedAuthenticationMethods: methods } },
  }))),
  {
    label: 'everything: Avro key and value, pinned, 2 clusters, all auth, replicas, exact retention.bytes, compact,delete',
    over: {
      key: side('AVRO', ORDER_KEY), value: side('AVRO', ORDER, '3.0.0'), pinnedValueVersion: '3.0.0', clusters: CLUSTERS['2 clusters'],
      tenant: { supportedAuthenticationMethods: AUTH.all, properties: { 'replication.factor': '3' } },
      stream: { retentionPolicy: 'compact,delete', description: 'Everything: "quotes", colons: yes, # hashes' },
      streamConfig: { properties: { 'retention.bytes': '9223372036854775807' } },
    },
  },
  { label: 'no description, null tenant properties, compact', over: { stream: { description: null, retentionPolicy: 'compact' }, tenant: { properties: null } } },
  { label: 'stream name without letters', over: { stream: { name: '---' } } },
  { label: 'stream name starting with a digit', over: { stream: { name: '1st.stream' } } },
  { label: 'version names YAML could misread', over: { pinnedValueVersion: '1.0', value: side('AVRO', ORDER, '1.0') } },
];

describe('the official AsyncAPI parser reads every shape with zero errors', () => {
  it.each(SHAPES.map((s) => [s.label, s] as const))('%s', async (_, shape) => {
    const d = assembleAsyncApi(input(shape.over));
    const parsed = await parseAsyncApi(toYaml(d));
    expect(parsed.errors).toEqual([]);
    const noServers = !('servers' in d);
    expect(unjustified(parsed, noServers ? { 'asyncapi-servers': 'an instance without clusters has no server to name' } : {})).toEqual([]);
    expect(parsed.document).toBeDefined();
  });
});

/**
 * Schemas an upload accepts (the product's own Avro parser says so) must give a document the official parser reads
 * with zero errors too: docs/contract.md §9 makes no exception for them.
 */
describe('the official parser reads documents of every accepted upload', () => {
  it.each([
    ['a record whose name is a full name', { type: 'record', name: 'io.shop.Order', fields: [{ name: 'id', type: 'string' }] }],
    ['a nested record whose name is a full name', { type: 'record', name: 'Order', fields: [{ name: 'line', type: { type: 'record', name: 'io.shop.Line', fields: [{ name: 'sku', type: 'string' }] } }] }],
    ['a record with a full-name alias', { type: 'record', name: 'Order', namespace: 'io.shop', aliases: ['io.legacy.Order'], fields: [{ name: 'id', type: 'string' }] }],
    ['an Avro error type at the top', { type: 'error', name: 'Failure', fields: [{ name: 'reason', type: 'string' }] }],
  ])('Avro value: %s', async (_, schema) => {
    const body = JSON.stringify(schema);
    expect(parseSchema(body, 'AVRO').type).toBe('AVRO');
    const parsed = await parseAsyncApi(toYaml(assembleAsyncApi(input({ value: side('AVRO', body) }))));
    expect(parsed.errors).toEqual([]);
    expect(unjustified(parsed)).toEqual([]);
  });

  it('a JSON Schema with a property named $ref', async () => {
    const body = JSON.stringify({ title: 'Link', type: 'object', properties: { $ref: { type: 'string' }, id: { type: 'string' } }, required: ['$ref'] });
    expect(parseSchema(body, 'JSON_SCHEMA').type).toBe('JSON_SCHEMA');
    const d = assembleAsyncApi(input({ value: side('JSON_SCHEMA', body) }));
    const parsed = await parseAsyncApi(toYaml(d));
    expect(parsed.errors).toEqual([]);
    expect(unjustified(parsed)).toEqual([]);
  });
});
