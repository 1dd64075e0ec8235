/**
 * `GET /stream_configs/{id}/asyncapi` (docs/contract.md §9): every document the service makes is read by the official
 * AsyncAPI parser with zero errors; content negotiation; who may read it; the document follows every change of
 * the rows it is made of (stream, config, schema versions, environment, instance, clusters, tenant).
 */
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call, created, expectStatus } from '../support/http';
import { parseAsyncApi, unjustified } from '../support/asyncapi';

let app: TestApp;
let t: TestTenant;
let owner: TestUser;
let nobody: TestUser;
let owners: any;
let c1: any;
let c2: any;
let inst: any;
let dev: any;
let priv: any;
let n = 0;

const tok = () => t.admin.token;
const post = (path: string, body: unknown, token = tok()) => created(app, path, body, token);
const patch = async (path: string, body: unknown) => expectStatus(await call(app, 'PATCH', path, { token: tok(), body }), 200).body;
async function upload(schema: unknown, version: string, type = 'AVRO') {
  const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
  return post('/schemas/upload', { schema: text, version, type }, owner.token) as Promise<{ id: string; schemaUid: string }>;
}
async function stream(over: Record<string, unknown>) {
  n += 1;
  return post('/streams', { name: `aa-stream-${n}`, keyType: 'String', valueType: 'String', owners: owners.uid, ...over }, owner.token);
}
async function deploy(s: any, over: Record<string, unknown> = {}, env = dev) {
  return post('/stream_configs', { stream: s.uid, environment: env.uid, ...over }, owner.token);
}
async function documentOf(config: any, token = nobody.token): Promise<any> {
  const res = await call(app, 'GET', `/stream_configs/${config.uid}/asyncapi`, { token, headers: { Accept: 'application/yaml' } });
  expect(res.status, res.text).toBe(200);
  return { text: res.text, doc: yaml.load(res.text) as any };
}
/** The document of the config, which the official parser must read with no error and no unlisted warning. */
async function validDocument(config: any, justified: Record<string, string> = {}) {
  const { text, doc } = await documentOf(config);
  const parsed = await parseAsyncApi(text);
  expect(parsed.errors).toEqual([]);
  expect(unjustified(parsed, justified)).toEqual([]);
  return doc;
}
const message = (doc: any) => Object.values(doc.components.messages)[0] as any;

const ORDER = {
  type: 'record', name: 'Order', namespace: 'io.shop', doc: 'An order',
  fields: [
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'placed', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID', 'SHIPPED'] } },
    { name: 'customer', type: { type: 'record', name: 'Customer', fields: [{ name: 'name', type: 'string' }, { name: 'email', type: ['null', 'string'], default: null }] } },
    { name: 'lines', type: { type: 'array', items: { type: 'record', name: 'Line', fields: [{ name: 'sku', type: 'string' }, { name: 'qty', type: 'int' }] } } },
    { name: 'attributes', type: { type: 'map', values: 'string' } },
    { name: 'previous', type: ['null', 'Order'], default: null },
    { name: 'checksum', type: { type: 'fixed', name: 'Md5', size: 16 } },
  ],
};
const ORDER_KEY = { type: 'record', name: 'OrderKey', namespace: 'io.shop', fields: [{ name: 'id', type: 'string' }, { name: 'region', type: ['null', 'string'], default: null }] };
const INVOICE = {
  $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://example.com/invoice.json', title: 'Invoice', type: 'object',
  required: ['id', 'billTo'],
  properties: {
    id: { type: 'string' },
    billTo: { $ref: '#/definitions/address' },
    shipTo: { $ref: '#/definitions/address', description: 'Where it goes' },
    lines: { type: 'array', items: { $ref: '#/definitions/line' } },
  },
  definitions: {
    address: { type: 'object', properties: { street: { type: 'string' }, country: { $ref: '#/definitions/country' } } },
    country: { type: 'string', enum: ['NL', 'DE'] },
    line: { type: 'object', properties: { sku: { type: 'string' }, total: { type: 'number', maximum: 1000 } } },
  },
};
const TREE = { title: 'Tree', type: 'object', properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } };
const PROTO = 'syntax = "proto3";\npackage shop;\n\nmessage Shipment {\n  string id = 1;\n  repeated string parcels = 2;\n}\n';

beforeAll(async () => {
  ({ app, t } = await startWithTenant('aapi'));
  owner = await createUser(app, t, ['STREAM_AUTHOR', 'SCHEMA_AUTHOR'], 'owner');
  nobody = await createUser(app, t, [], 'nobody');
  owners = await post('/groups', { name: 'AsyncAPI Owners', members: [owner.user.uid] });
  c1 = await post('/clusters', { name: 'eu west.1', location: 'Amsterdam', bootstrapServers: ['b1.example.com:9093', 'b2.example.com:9093'], schemaRegistryUrls: ['https://sr.example.com', 'https://sr2.example.com'] });
  c2 = await post('/clusters', { name: 'eu_west_1', bootstrapServers: ['c1.example.com:9093'] });
  inst = await post('/instances', { name: 'AsyncAPI Instance', shortName: 'aapi', clusters: [c1.uid, c2.uid] });
  dev = await post('/environments', { name: 'aapi-dev', shortName: 'dev', instance: inst.uid, owners: owners.uid, partitions: 6, retentionTime: 86400000 });
  priv = await post('/environments', { name: 'aapi-private', shortName: 'priv', instance: inst.uid, owners: owners.uid, visibility: 'Private', authorizationIssuer: 'Auto' });
});
afterAll(async () => app?.stop());

describe('asyncapi: every shape is valid for the official parser', () => {
  it('Avro key and value with nested records, unions, enums, logical types; pinned version', async () => {
    const v1 = await upload(ORDER, '1.0.0');
    const v2 = await upload({ ...ORDER, fields: [...ORDER.fields, { name: 'note', type: 'string', default: '' }] }, '1.1.0');
    const k1 = await upload(ORDER_KEY, 'k1');
    const s = await stream({ keyType: 'AVRO', keySchema: k1.schemaUid, valueType: 'AVRO', valueSchema: v1.schemaUid, description: 'Orders of the web shop', retentionPolicy: 'compact,delete' });
    const config = await deploy(s, { valueSchemaVersion: v1.id, properties: { 'retention.bytes': '9223372036854775807' } });
    const doc = await validDocument(config);
    expect(doc).toMatchObject({
      asyncapi: '2.6.0', id: `urn:platform:${t.shortName}:stream_config:${config.uid}`, defaultContentType: 'application/octet-stream',
      info: { title: s.name, version: '1.0.0' },
    });
    expect(doc.info.description).toContain('Orders of the web shop');
    expect(doc.info.description).toContain('aapi-dev');
    const topic = config.topicName;
    expect(Object.keys(doc.channels)).toEqual([topic]);
    expect(doc.channels[topic].bindings.kafka).toEqual({
      topic, partitions: 6,
      topicConfiguration: { 'cleanup.policy': ['compact', 'delete'], 'retention.ms': 86400000, 'retention.bytes': 9223372036854775807 },
      bindingVersion: '0.4.0',
    });
    const { text } = await documentOf(config);
    expect(text).toContain('retention.bytes: 9223372036854775807\n');
    const pascal = `AaStream${n}`;
    expect(doc.channels[topic].publish).toMatchObject({ operationId: `produce${pascal}`, message: { $ref: '#/components/messages/Order' } });
    expect(doc.channels[topic].subscribe).toMatchObject({ operationId: `consume${pascal}`, message: { $ref: '#/components/messages/Order' } });
    expect(Object.keys(doc.components.messages)).toEqual(['Order']);
    const m = doc.components.messages.Order;
    expect(m).toMatchObject({ name: 'Order', contentType: 'avro/binary', schemaFormat: 'application/vnd.apache.avro;version=1.9.0' });
    expect(m).not.toHaveProperty('messageId');
    expect(m.payload).toEqual(ORDER);
    expect(m.bindings.kafka).toEqual({ key: ORDER_KEY, bindingVersion: '0.4.0' });
    void v2;
  });

  it('without a pinned version the latest upload is the payload and the version is 1.0.0', async () => {
    const a = await upload({ type: 'record', name: 'Reading', namespace: 'io.iot', fields: [{ name: 'v', type: 'double' }] }, '7');
    await upload({ type: 'record', name: 'Reading', namespace: 'io.iot', fields: [{ name: 'v', type: 'double' }, { name: 'unit', type: 'string', default: 'C' }] }, '8');
    const s = await stream({ valueType: 'AVRO', valueSchema: a.schemaUid });
    const doc = await validDocument(await deploy(s));
    expect(doc.info.version).toBe('1.0.0');
    expect(message(doc).payload.fields.map((f: any) => f.name)).toEqual(['v', 'unit']);
    expect(message(doc).bindings.kafka.key).toEqual({ type: 'string' });
  });

  it('an Avro value that is not a record names the message after the stream', async () => {
    const u = await upload({ type: 'enum', name: 'Colour', namespace: 'io.paint', symbols: ['RED', 'BLUE'] }, '1');
    const s = await stream({ name: 'paint.colours-v1', valueType: 'AVRO', valueSchema: u.schemaUid, keyType: 'Binary' });
    const doc = await validDocument(await deploy(s));
    expect(Object.keys(doc.components.messages)).toEqual(['PaintColoursV1Message']);
    expect(doc.channels[Object.keys(doc.channels)[0]].publish.operationId).toBe('producePaintColoursV1');
    expect(message(doc).bindings.kafka.key).toEqual({ type: 'string', format: 'binary' });
  });

  it('JSON Schema: local references inlined, $schema and $id dropped, numbers exact', async () => {
    // A bound no double holds: the text keeps its digits, and so must the document.
    const v = await upload(JSON.stringify(INVOICE).replace('"maximum":1000', '"maximum":12345678901234567890'), '1', 'JSON_SCHEMA');
    const s = await stream({ valueType: 'JSON_SCHEMA', valueSchema: v.schemaUid });
    const config = await deploy(s);
    const doc = await validDocument(config);
    const m = message(doc);
    expect(m).toMatchObject({ name: `AaStream${n}Message`, contentType: 'application/json', schemaFormat: 'application/schema+json;version=draft-07' });
    const address = { type: 'object', properties: { street: { type: 'string' }, country: { type: 'string', enum: ['NL', 'DE'] } } };
    expect(m.payload).toEqual({
      title: 'Invoice', type: 'object', required: ['id', 'billTo'],
      properties: {
        id: { type: 'string' }, billTo: address, shipTo: { allOf: [address], description: 'Where it goes' },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, total: { type: 'number', maximum: 12345678901234567000 } } } },
      },
    });
    expect((await documentOf(config)).text).toContain('maximum: 12345678901234567890\n');
    expect(m).not.toHaveProperty('x-json-schema');
  });

  it('a recursive JSON Schema: an object payload and the schema text in x-json-schema', async () => {
    const v = await upload(TREE, '1', 'JSON_SCHEMA');
    const s = await stream({ valueType: 'JSON_SCHEMA', valueSchema: v.schemaUid });
    const m = message(await validDocument(await deploy(s)));
    expect(m.payload).toEqual({ type: 'object' });
    expect(JSON.parse(m['x-json-schema'])).toEqual(TREE);
  });

  it('Protobuf: a binary payload with the schema text in x-protobuf-schema', async () => {
    const v = await upload(PROTO, '1', 'PROTOBUF');
    const s = await stream({ valueType: 'PROTOBUF', valueSchema: v.schemaUid, keyType: 'JSON' });
    const m = message(await validDocument(await deploy(s)));
    expect(m).toMatchObject({ contentType: 'application/x-protobuf', payload: { type: 'string', format: 'binary' }, 'x-protobuf-schema': PROTO });
    expect(m).not.toHaveProperty('schemaFormat');
    expect(m.bindings.kafka.key).toEqual({ type: 'string', format: 'binary' });
  });

  it.each([
    ['String', { type: 'string' }, 'text/plain'],
    ['Xml', { type: 'string' }, 'application/xml'],
    ['JSON', {}, 'application/json'],
    ['Binary', { type: 'string', format: 'binary' }, 'application/octet-stream'],
  ])('plain value type %s', async (valueType, payload, contentType) => {
    const s = await stream({ valueType, keyType: valueType });
    const m = message(await validDocument(await deploy(s)));
    expect(m).toMatchObject({ contentType, payload });
    expect(m).not.toHaveProperty('schemaFormat');
    expect(m.bindings.kafka.key).toEqual(valueType === 'String' ? { type: 'string' } : { type: 'string', format: 'binary' });
  });
});

describe('asyncapi: servers and security', () => {
  it('one server per bootstrap server of every cluster, registry binding only where a registry exists', async () => {
    const doc = await validDocument(await deploy(await stream({})));
    expect(Object.keys(doc.servers)).toEqual(['eu_west_1-1', 'eu_west_1-2', 'eu_west_1_2-1']);
    expect(doc.servers['eu_west_1-1']).toMatchObject({
      url: 'b1.example.com:9093', protocol: 'kafka-secure',
      security: [{ SSL_MUTUAL_TLS: [] }, { SASL_SCRAM_SHA_512: [] }],
      bindings: { kafka: { schemaRegistryUrl: 'https://sr.example.com', schemaRegistryVendor: 'confluent', bindingVersion: '0.4.0' } },
    });
    expect(doc.servers['eu_west_1-1'].description).toContain('eu west.1');
    expect(doc.servers['eu_west_1-2'].url).toBe('b2.example.com:9093');
    expect(doc.servers['eu_west_1_2-1']).not.toHaveProperty('bindings');
    expect(doc.components.securitySchemes).toEqual({
      SSL_MUTUAL_TLS: { type: 'X509', description: expect.any(String) },
      SASL_SCRAM_SHA_512: { type: 'scramSha512', description: expect.any(String) },
    });
  });

  it('each authentication method, by rank; none → plain kafka without security', async () => {
    const methods = [
      { rank: 3, protocol: 'SASL', mechanism: 'OAUTH_BEARER' },
      { rank: 1, protocol: 'SASL', mechanism: 'SCRAM_SHA_256' },
      { rank: 2, protocol: 'SSL', mechanism: 'MUTUAL_TLS' },
      { rank: 4, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' },
    ];
    const config = await deploy(await stream({}));
    try {
      await patch(`/tenants/${t.tenant.uid}`, { supportedAuthenticationMethods: methods });
      const doc = await validDocument(config);
      expect(doc.servers['eu_west_1-1'].security).toEqual([{ SASL_SCRAM_SHA_256: [] }, { SSL_MUTUAL_TLS: [] }, { SASL_OAUTH_BEARER: [] }, { SASL_SCRAM_SHA_512: [] }]);
      expect(Object.keys(doc.components.securitySchemes)).toEqual(['SASL_SCRAM_SHA_256', 'SSL_MUTUAL_TLS', 'SASL_OAUTH_BEARER', 'SASL_SCRAM_SHA_512']);
      expect(doc.components.securitySchemes.SASL_SCRAM_SHA_256.type).toBe('scramSha256');
      expect(doc.components.securitySchemes.SASL_OAUTH_BEARER).toMatchObject({
        type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${app.authUrl}/realms/${t.shortName}/protocol/openid-connect/token`, scopes: {} } },
      });
      await patch(`/tenants/${t.tenant.uid}`, { supportedAuthenticationMethods: [] });
      const none = await validDocument(config);
      expect(none.servers['eu_west_1-1'].protocol).toBe('kafka');
      expect(none.servers['eu_west_1-1']).not.toHaveProperty('security');
      expect(none.components).not.toHaveProperty('securitySchemes');
    } finally {
      await patch(`/tenants/${t.tenant.uid}`, { supportedAuthenticationMethods: [{ rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' }, { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' }] });
    }
  });

  it('an instance without clusters has no servers and is still valid', async () => {
    const bare = await post('/instances', { name: 'Bare Instance', shortName: 'bare' });
    const env = await post('/environments', { name: 'aapi-bare', shortName: 'bare', instance: bare.uid, owners: owners.uid });
    const doc = await validDocument(await deploy(await stream({}), {}, env), { 'asyncapi-servers': 'an instance without clusters has no server to name' });
    expect(doc).not.toHaveProperty('servers');
    expect(doc.components).not.toHaveProperty('securitySchemes');
  });
});

describe('asyncapi: content negotiation and access', () => {
  let config: any;
  beforeAll(async () => { config = await deploy(await stream({ valueType: 'JSON' })); });
  const get = (accept?: string, token = nobody.token) => call(app, 'GET', `/stream_configs/${config.uid}/asyncapi`, { token, headers: accept === undefined ? {} : { Accept: accept } });

  it('JSON form for JSON, HAL, */* and no Accept: the YAML text in asyncApiSpec, identical each time', async () => {
    const yamlText = (await get('application/yaml')).text;
    for (const accept of [undefined, 'application/json', '*/*', 'application/hal+json', 'application/vnd.hal+json', 'application/prs.hal-forms+json', 'application/*']) {
      const res = await get(accept);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(res.body)).toEqual(['asyncApiSpec']);
      expect(res.body.asyncApiSpec).toBe(yamlText);
    }
  });

  it('YAML form for application/yaml, application/x-yaml and text/yaml, honouring quality values', async () => {
    for (const accept of ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/html;q=0.9, text/yaml', 'application/json;q=0.5, application/yaml']) {
      const res = await get(accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
      expect((yaml.load(res.text) as any).asyncapi).toBe('2.6.0');
    }
    expect((await get('application/yaml;q=0.5, application/json')).headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('anything else is 406 in the error format', async () => {
    for (const accept of ['text/html', 'application/xml', 'application/json;q=0']) {
      const res = await get(accept);
      expect(res.status, accept).toBe(406);
      expect(res.body).toMatchObject({ status: 'NOT_ACCEPTABLE', subErrors: null });
      expect(res.body.errors[0]).toContain('application/yaml');
    }
  });

  it('ETag and If-None-Match: 304 for the same form, 200 for the other', async () => {
    const first = await get('application/yaml');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await call(app, 'GET', `/stream_configs/${config.uid}/asyncapi`, { token: nobody.token, headers: { Accept: 'application/yaml', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const json = await call(app, 'GET', `/stream_configs/${config.uid}/asyncapi`, { token: nobody.token, headers: { 'If-None-Match': etag } });
    expect(json.status).toBe(200);
    expect(json.headers.get('etag')).not.toBe(etag);
  });

  it('HEAD answers the headers of GET', async () => {
    const res = await call(app, 'HEAD', `/stream_configs/${config.uid}/asyncapi`, { token: nobody.token, headers: { Accept: 'text/yaml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(res.text).toBe('');
  });

  it('any user of the tenant reads it, even of a Private environment; others get 404 or 401', async () => {
    const hidden = await deploy(await stream({ visibility: 'Private' }), {}, priv);
    expect((await call(app, 'GET', `/stream_configs/${hidden.uid}`, { token: nobody.token })).status).toBe(404);
    expect((await call(app, 'GET', `/stream_configs/${hidden.uid}/asyncapi`, { token: nobody.token })).status).toBe(200);
    const other = await createTenant(app, 'aapi-other');
    const foreign = await call(app, 'GET', `/stream_configs/${hidden.uid}/asyncapi`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(hidden.topicName);
    expect((await call(app, 'GET', '/stream_configs/00000000000000000000000000000000/asyncapi', { token: nobody.token })).status).toBe(404);
    expect((await call(app, 'GET', '/stream_configs/not-a-uid/asyncapi', { token: nobody.token })).status).toBe(404);
    expect((await call(app, 'GET', `/stream_configs/${hidden.uid}/asyncapi`)).status).toBe(401);
  });
});

describe('asyncapi: the document follows every change of its rows', () => {
  it('stream, config, schema versions, environment, instance, clusters and tenant', async () => {
    const a1 = await upload({ type: 'record', name: 'Tick', namespace: 'io.cache', fields: [{ name: 'a', type: 'int' }] }, '1');
    const s = await stream({ valueType: 'AVRO', valueSchema: a1.schemaUid, description: 'first' });
    const cluster = await post('/clusters', { name: 'cache-cluster', bootstrapServers: ['k1.example.com:9092'] });
    const instance = await post('/instances', { name: 'Cache Instance', shortName: 'cache', clusters: [cluster.uid] });
    const env = await post('/environments', { name: 'cache-env', shortName: 'cache', instance: instance.uid, owners: owners.uid });
    const config = await deploy(s, {}, env);
    let before = (await documentOf(config)).doc;
    const changed = async (change: () => Promise<unknown>, see: (doc: any) => unknown, expected: unknown) => {
      expect(see(before)).not.toEqual(expected);
      await change();
      const after = (await documentOf(config)).doc;
      expect(see(after)).toEqual(expected);
      before = after;
    };
    await changed(() => patch(`/streams/${s.uid}`, { description: 'second' }), (d) => d.info.description.startsWith('second'), true);
    await changed(() => patch(`/stream_configs/${config.uid}`, { retentionTime: 3600000 }), (d) => Object.values<any>(d.channels)[0].bindings.kafka.topicConfiguration['retention.ms'], 3600000);
    await changed(() => upload({ type: 'record', name: 'Tick', namespace: 'io.cache', fields: [{ name: 'a', type: 'int' }, { name: 'b', type: 'int', default: 0 }] }, '2'),
      (d) => message(d).payload.fields.length, 2);
    await changed(() => patch(`/stream_configs/${config.uid}`, { valueSchemaVersion: a1.id, force: true }), (d) => [d.info.version, message(d).payload.fields.length], ['1', 1]);
    await changed(() => patch(`/environments/${env.uid}`, { name: 'cache-env-renamed' }), (d) => d.info.description.includes('cache-env-renamed'), true);
    await changed(() => patch(`/clusters/${cluster.uid}`, { bootstrapServers: ['k1.example.com:9092', 'k2.example.com:9092'] }), (d) => Object.keys(d.servers).length, 2);
    const extra = await post('/clusters', { name: 'cache-extra', bootstrapServers: ['x1.example.com:9092'] });
    await changed(() => patch(`/instances/${instance.uid}`, { clusters: [cluster.uid, extra.uid] }), (d) => Object.keys(d.servers), ['cache-cluster-1', 'cache-cluster-2', 'cache-extra-1']);
    await changed(() => patch(`/clusters/${extra.uid}`, { schemaRegistryUrls: ['https://registry.example.com'] }), (d) => d.servers['cache-extra-1'].bindings?.kafka.schemaRegistryUrl, 'https://registry.example.com');
    await changed(() => patch(`/tenants/${t.tenant.uid}`, { properties: { 'replication.factor': '3' } }), (d) => Object.values<any>(d.channels)[0].bindings.kafka.replicas, 3);
    await patch(`/tenants/${t.tenant.uid}`, { properties: null });
  });
});
