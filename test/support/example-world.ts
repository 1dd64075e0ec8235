/**
 * One resource of every collection, made through the API, for the documented-examples test: an example's path
 * `{id}` is a placeholder the tenant does not hold, and the service answers an unknown target 404 before it looks
 * at the body (docs/contract.md §2), so the test sends each example to a real item of the operation's collection.
 * Also another tenant (the examples' tenant writes may rename or delete it) and a second user (the examples'
 * role writes may not touch the caller's own roles).
 */
import type { TestApp, TestTenant } from './app';
import { createTenant } from './app';
import { created, call, expectStatus, lastSegment } from './http';

/** Collection (the path's first segment) → the uid of an item of it. */
export type World = Record<string, string>;

const avro = (name: string) => JSON.stringify({ type: 'record', name, namespace: 'io.example', fields: [{ name: 'id', type: 'string' }] });

/** `certificate`: a PEM chain for the world's principal, a certificate one as the examples' principal is. */
export async function exampleWorld(app: TestApp, token: string, callerUid: string, certificate: string): Promise<World> {
  const post = (path: string, body: unknown) => created(app, path, body, token);
  const other: TestTenant = await createTenant(app, 'exother');
  const user = (await post('/users', { firstName: 'Example', lastName: 'User', emailAddress: { email: 'example.user@example.test' } })).uid;
  const group = (await post('/groups', { name: 'Example Team', members: [callerUid] })).uid;
  const cluster = (await post('/clusters', { name: 'example-cluster', bootstrapServers: ['broker.example.test:9092'] })).uid;
  const instance = (await post('/instances', { name: 'Example Instance', shortName: 'exinst', clusters: [cluster] })).uid;
  const environment = (await post('/environments', { name: 'example-env', shortName: 'exenv', instance, owners: group })).uid;
  const key = await post('/schemas/upload', { schema: avro('ExampleKey'), version: '1', owners: group });
  const stream = (await post('/streams', { name: 'example-stream', keyType: 'AVRO', keySchema: key.schemaUid, valueType: 'String', owners: group })).uid;
  const config = (await post('/stream_configs', { stream, environment, keySchemaVersion: key.id })).uid;
  const application = (await post('/applications', { applicationId: 'io.example.app', name: 'Example App', shortName: 'example_app', applicationType: 'Custom', owners: group })).uid;
  const principal = lastSegment(await post('/application_principals', [{ principal: certificate, application, environment }]));
  const credential = expectStatus(await call(app, 'POST', '/application_authentications', { token, body: { applicationId: application, environmentId: environment } }), 201);
  const access = (await post('/application_access', { application, stream, accessType: 'PRODUCER' })).uid;
  const grant = (await post('/application_access_grants', { applicationId: application, streamId: stream, environmentId: environment, accessType: 'CONSUMER' })).uid;
  const ksml = (await post('/applications', { applicationId: 'io.example.ksml', name: 'Example Ksml', shortName: 'example_ksml', applicationType: 'Ksml', owners: group })).uid;
  expectStatus(await call(app, 'POST', '/application_authentications', { token, body: { applicationId: ksml, environmentId: environment } }), 201);
  // A deployment needs the application's approved access to a stream in the environment.
  const ksmlGrant = (await post('/application_access_grants', { applicationId: ksml, streamId: stream, environmentId: environment, accessType: 'PRODUCER' })).uid;
  expectStatus(await call(app, 'PUT', `/application_access_grants/${ksmlGrant}`, { token }), 200);
  const definition = 'streams:\n  s:\n    topic: example-stream\n    keyType: string\n    valueType: string\npipelines:\n  main:\n    from: s\n    forEach:\n      code: log.info("x")\n';
  const deployment = expectStatus(await call(app, 'POST', '/application_deployments', { token, body: { application: ksml, environment, configs: { ksml_definition: definition } } }), 201);
  const reference = async (collection: string) => (await post(`/${collection}`, { name: `Example ${collection}`, level: 42 })).uid;
  return {
    tenants: other.tenant.uid, users: user, groups: group, clusters: cluster, instances: instance, environments: environment,
    schemas: key.schemaUid, schema_versions: key.id, streams: stream, stream_configs: config,
    applications: application, application_principals: principal, application_authentications: principal,
    application_credentials: lastSegment(credential.headers.get('location')), application_access: access,
    application_access_grants: grant, application_deployments: lastSegment(deployment.headers.get('location')),
    confidentialities: await reference('confidentialities'), integrities: await reference('integrities'), support_tiers: await reference('support_tiers'),
    connect_plugins: (await post('/connect_plugins', { pluginClass: 'io.example.ExampleSink', pluginType: 'SINK' })).uid,
  };
}
