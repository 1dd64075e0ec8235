/**
 * The typed client (client/) drives README's "First ten minutes" against the real service, step by step as the
 * walkthrough does with curl: sign in through the embedded issuer, create a cluster, an instance, a group, an
 * environment, upload a schema, create a stream and deploy it, create an application and its credential, request
 * access and approve it, read the AsyncAPI document and the audit history. Every call is typed from the generated
 * document; a wrong body would not compile (test/types/client.type-test.ts proves that part).
 */
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient, passwordToken, type PlatformClient } from '../../client/src/index';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { WALKTHROUGH_AUDIT } from '../support/walkthrough-audit';

/** The roles of the admin that `npm start` creates on its first start. */
const DEMO_ADMIN_ROLES = ['SUPER_ADMIN', 'TENANT_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'];

interface Outcome<T> { data?: T; error?: unknown; response: Response }

/** The body of a call that must answer `status`; otherwise fails with what the service answered. */
function expectData<T>(outcome: Outcome<T>, status: number): T {
  const { data, error, response } = outcome;
  if (response.status !== status || data === undefined) {
    throw new Error(`${response.url}: ${status} expected, got ${response.status} ${JSON.stringify(error)}`);
  }
  return data;
}

let app: TestApp;
let t: TestTenant;
let admin: TestUser;
let client: PlatformClient;
let tokens = 0;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'typed');
  admin = await createUser(app, t, DEMO_ADMIN_ROLES, 'admin');
  const token = await passwordToken({ authUrl: app.authUrl, realm: t.shortName, username: admin.email, password: admin.password });
  client = createPlatformClient({ baseUrl: app.api, realm: t.shortName, getToken: () => { tokens++; return token; } });
});
afterAll(async () => app?.stop());

describe('README: First ten minutes, through the typed client', () => {
  const ids = { cluster: '', instance: '', me: '', group: '', env: '', schema: '', version: '', stream: '', config: '', app: '', grant: '' };

  it('signs in and reads the caller', async () => {
    const me = expectData(await client.GET('/user'), 200);
    expect(me.fullName).toBe('Test admin');
    expect(me.roles.map((r) => r.name).sort()).toEqual([...DEMO_ADMIN_ROLES].sort());
    expect(tokens).toBe(1);
    ids.me = me.uid;
  });

  it('creates a cluster and an instance on it', async () => {
    ids.cluster = expectData(await client.POST('/clusters', { body: { name: 'local', bootstrapServers: ['localhost:9092'] } }), 201).uid;
    const instance = await client.POST('/instances', { body: { name: 'Local', shortName: 'local', clusters: [ids.cluster] } });
    ids.instance = expectData(instance, 201).uid;
    expect(instance.response.headers.get('location')).toBe(`${app.api}/instances/${ids.instance}`);
  });

  it('creates a group with the caller as member, and an environment it owns', async () => {
    const group = expectData(await client.POST('/groups', { body: { name: 'Orders team', members: [ids.me] } }), 201);
    expect(group.name).toBe('Orders team');
    ids.group = group.uid;
    const env = expectData(await client.POST('/environments', {
      body: { name: 'dev', shortName: 'dev', instance: ids.instance, owners: ids.group },
    }), 201);
    expect(env.authorizationIssuer).toBe('Stream owner');
    ids.env = env.uid;
  });

  it('uploads an Avro schema', async () => {
    const schema = JSON.stringify({
      type: 'record', name: 'Order', namespace: 'io.shop', fields: [{ name: 'id', type: 'string' }, { name: 'amount', type: 'double' }],
    });
    const upload = expectData(await client.POST('/schemas/upload', { body: { type: 'AVRO', version: '1.0.0', schema } }), 201);
    expect(upload).toMatchObject({ fullName: 'io.shop.Order', version: '1.0.0' });
    ids.schema = upload.schemaUid;
    ids.version = upload.id;
  });

  it('creates a stream and deploys it to the environment with the schema version pinned', async () => {
    ids.stream = expectData(await client.POST('/streams', {
      body: { name: 'orders', keyType: 'String', valueType: 'AVRO', valueSchema: ids.schema, owners: ids.group },
    }), 201).uid;
    const deployed = expectData(await client.POST('/stream_configs', {
      body: { stream: ids.stream, environment: ids.env, valueSchemaVersion: ids.version },
    }), 201);
    expect(deployed.topicName).toBe(`${t.shortName}-local-dev-orders`);
    expect(deployed._embedded?.valueSchemaVersion).toMatchObject({ version: '1.0.0' });
    ids.config = deployed.uid;
  });

  it('creates an application and shows its generated credential once', async () => {
    ids.app = expectData(await client.POST('/applications', {
      body: { applicationId: 'io.shop.billing', name: 'Billing', shortName: 'billing', applicationType: 'Custom', type: 'Java', owners: ids.group },
    }), 201).uid;
    const [credential] = expectData(await client.POST('/application_authentications', {
      body: { applicationId: ids.app, environmentId: ids.env, target: 'KAFKA' },
    }), 201);
    expect(credential.authData).toMatchObject({ username: expect.stringMatching(/^billing-dev-[0-9a-f]{8}$/), provider: 'apache-kafka', clusters: 'local' });
    expect(credential.authData.password).toMatch(/^.{32}$/);
  });

  it('requests access (Pending) and approves it (Approved)', async () => {
    const requested = expectData(await client.POST('/application_access_grants', {
      body: { applicationId: ids.app, streamId: ids.stream, environmentId: ids.env, accessType: 'CONSUMER' },
    }), 201);
    ids.grant = requested.uid;
    const path = { id: ids.grant };
    expect(expectData(await client.GET('/application_access_grants/{id}', { params: { path } }), 200).status).toBe('Pending');
    expect(expectData(await client.PUT('/application_access_grants/{id}', { params: { path } }), 200).status).toBe('Approved');
  });

  it('reads the AsyncAPI document of the stream config, as YAML and wrapped in JSON', async () => {
    const path = { id: ids.config };
    const text = expectData(await client.GET('/stream_configs/{id}/asyncapi', { params: { path }, headers: { Accept: 'application/yaml' }, parseAs: 'text' }), 200);
    const doc = yaml.load(text) as { asyncapi: string; channels: Record<string, unknown> };
    expect(doc.asyncapi).toBe('2.6.0');
    expect(Object.keys(doc.channels)).toEqual([`${t.shortName}-local-dev-orders`]);
    const wrapped = expectData(await client.GET('/stream_configs/{id}/asyncapi', { params: { path } }), 200);
    expect(wrapped.asyncApiSpec).toBe(text);
  });

  it('reads every step back from the audit history, newest first', async () => {
    const history = expectData(await client.GET('/audit-history', { params: { query: { size: 20 } } }), 200);
    expect(history._embedded.events.map((e) => `${e.action} ${e.resourceType} ${e.resourceName}`)).toEqual(WALKTHROUGH_AUDIT);
  });
});

describe('the typed client', () => {
  it('answers a refusal as the §7 error body in `error`', async () => {
    const duplicate = await client.POST('/groups', { body: { name: 'Orders team' } });
    expect(duplicate.data).toBeUndefined();
    expect(duplicate.response.status).toBe(409);
    expect(duplicate.error).toMatchObject({ status: expect.any(String), message: expect.any(String) });
  });

  it('reads HAL pages and follows their typed items', async () => {
    const page = expectData(await client.GET('/groups', { params: { query: { sort: ['name,asc'] } } }), 200);
    expect(page.page.totalElements).toBe(1);
    const [group] = page._embedded.groups;
    expect(expectData(await client.GET('/groups/{id}', { params: { path: { id: group.uid } } }), 200).name).toBe('Orders team');
  });

  it('sends the realm header, which the service checks against the token', async () => {
    const token = await passwordToken({ authUrl: app.authUrl, realm: t.shortName, username: admin.email, password: admin.password });
    const elsewhere = createPlatformClient({ baseUrl: app.api, token, realm: 'another-tenant' });
    const refused = await elsewhere.GET('/user');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ message: expect.any(String) });
  });

  it('reaches the public operations without a token, and nothing else', async () => {
    const sent: Request[] = [];
    const anonymous = createPlatformClient({ baseUrl: app.api, fetch: (request) => { sent.push(request); return fetch(request); } });
    expect(expectData(await anonymous.GET('/info'), 200).version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await anonymous.GET('/user')).response.status).toBe(401);
    expect(sent.map((r) => [r.url, r.headers.get('authorization')])).toEqual([[`${app.api}/info`, null], [`${app.api}/user`, null]]);
  });

  it('says why a sign-in failed, without the password', async () => {
    const wrong = passwordToken({ authUrl: app.authUrl, realm: t.shortName, username: admin.email, password: 'not-the-password' });
    await expect(wrong).rejects.toThrow(/: 401 invalid_grant Invalid user credentials$/);
    await expect(wrong).rejects.not.toThrow(/not-the-password/);
  });
});
