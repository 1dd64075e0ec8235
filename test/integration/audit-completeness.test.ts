/**
 * Issue 13 / docs/contract.md §8: every mutation of the API is in the audit history, with the action and resource its table
 * names. The walk performs every mutating operation of generated/openapi.json (associations once per rel and
 * method) and compares the entries each request wrote with the table; an operation the walk does not perform fails
 * the suite, so a future endpoint cannot ship without its audit. Refusals and reads must write nothing, and no
 * secret the walk handled may appear in any entry.
 */
import { s256 } from '../../auth/pkce';
import { FormBrowser, signInThrough } from '../support/browser-form';
import { readFileSync } from 'node:fs';
import { Op } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByCollection } from '../../handlers/resources';
import type { AuditEventRow } from '../../models/audit-event';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call, created, lastSegment, type CallOptions, type CallResult } from '../support/http';
import { certificateKit, type CertificateKit } from '../support/certificates';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { tokenRequest } from '../support/token-endpoint';

const spec = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string }>>;
};
const WRITES = ['post', 'put', 'patch', 'delete'] as const;
/** POSTs that change nothing: the schema parse check, and the provider questions that only read the provider. */
const READ_ONLY_POSTS = new Set(['checkSchema', 'checkSchemaCompatibility', 'validateProviderCredentials', 'discoverProviderResources', 'getWizardTopicsInfo']);

/** The audit resource type of each collection's own entries (docs/contract.md §8: reference data under the tenant). */
const KIND: Record<string, string> = {
  tenants: 'Tenant', users: 'User', groups: 'Group', clusters: 'Cluster', instances: 'Instance', environments: 'Environment',
  streams: 'Topic', stream_configs: 'Topic', schemas: 'Schema', applications: 'Application', application_access: 'Application',
  confidentialities: 'Tenant', integrities: 'Tenant', support_tiers: 'Tenant', connect_plugins: 'Tenant', webhooks: 'Tenant',
};

/** An id the walk cannot know (the first admin a tenant creation makes). */
const ANY = '*';

interface Expected { action: string; type: string; id: string; sub?: [key: string, uid: string] }
interface Performed { op: string; rel?: string; status: number; method: string; path: string; body?: unknown; headers?: Record<string, string> }

let app: TestApp;
let t: TestTenant;
let actor: TestUser;
let kit: CertificateKit;
const performed: Performed[] = [];
const failures: string[] = [];
/** Everything secret the walk sent or was shown once: none may reach an entry. */
const secrets: string[] = [];
let lastSeq = 0n;

const uidOfLocation = (res: CallResult) => lastSegment(res.headers.get('location'));
const e = (action: string, type: string, id: string, sub?: [string, string]): Expected => ({ action, type, id, ...(sub ? { sub } : {}) });

async function newEntries(): Promise<AuditEventRow[]> {
  const rows = await app.models.AuditEvent.findAll({ where: { seq: { [Op.gt]: lastSeq.toString() } }, order: [['seq', 'ASC']] });
  if (rows.length > 0) lastSeq = BigInt(rows[rows.length - 1].seq);
  return rows;
}

const shown = (x: { action: string; resourceType?: string; type?: string; resourceId?: string | null; id?: string }) =>
  `${x.action} ${x.resourceType ?? x.type} ${x.resourceId ?? x.id}`;

/**
 * One request of the walk: it must succeed, and the entries it wrote must be exactly `expected` (any order), each
 * by the walk's actor in its tenant, with the sub-resource uid in `details` where the table files it under the
 * application. Answers the response for the next steps.
 */
async function step(op: string, method: string, path: string, o: { body?: unknown; headers?: Record<string, string>; rel?: string },
  expected: (res: CallResult) => Expected[]): Promise<CallResult> {
  await newEntries();
  const res = await call(app, method, path, { token: actor.token, body: o.body, headers: o.headers });
  if (res.status >= 400) throw new Error(`${op}${o.rel ? ` (${o.rel})` : ''}: ${method} ${path} → ${res.status} ${res.text}`);
  performed.push({ op, rel: o.rel, status: res.status, method, path, body: o.body, headers: o.headers });
  const rows = await newEntries();
  const want = expected(res);
  const label = `${op}${o.rel ? ` (${o.rel})` : ''}`;
  const unmatched = [...rows];
  const missing = want.filter((w) => {
    const i = unmatched.findIndex((r) => r.action === w.action && r.resourceType === w.type && (w.id === ANY || r.resourceId === w.id));
    if (i >= 0) unmatched.splice(i, 1);
    return i < 0;
  });
  if (missing.length + unmatched.length > 0) failures.push(`${label}: wrote [${rows.map(shown).join('; ')}], expected [${want.map(shown).join('; ')}]`);
  for (const row of rows) {
    if (row.actor !== actor.email || row.tenantUid === null) failures.push(`${label}: ${shown(row)} by ${row.actor} in ${row.tenant}`);
  }
  for (const w of want.filter((x) => x.sub)) {
    const row = rows.find((r) => r.action === w.action && r.resourceId === w.id);
    const [key, uid] = w.sub!;
    if (row && (row.details as Record<string, unknown> | null)?.[key] !== uid) failures.push(`${label}: ${w.action} details.${key} = ${JSON.stringify((row.details as any)?.[key])}, expected ${uid}`);
  }
  return res;
}

/** A refusal the walk expects (e.g. POST on a to-one association): 4xx, and nothing written. */
async function refused(op: string, method: string, path: string, o: { body?: unknown; headers?: Record<string, string>; rel?: string }, status: number) {
  await newEntries();
  const res = await call(app, method, path, { token: actor.token, body: o.body, headers: o.headers });
  if (res.status !== status) failures.push(`${op} (${o.rel}): ${method} ${path} → ${res.status}, expected ${status} ${res.text.slice(0, 200)}`);
  performed.push({ op, rel: o.rel, status: res.status, method, path, body: o.body, headers: o.headers });
  const rows = await newEntries();
  if (rows.length > 0) failures.push(`${op} (${o.rel}) refused with ${res.status} but wrote ${rows.map(shown).join('; ')}`);
}

/** A POST by the walking actor that must create; answers the created body. */
const createdByActor = (path: string, body: unknown): Promise<any> => created(app, path, body, actor.token);

const AIVEN_TOKEN = 'walk-aiven-token-0123456789';
let fakeAiven: FakeAiven;

beforeAll(async () => {
  kit = certificateKit();
  fakeAiven = await startFakeAiven({
    token: AIVEN_TOKEN,
    projects: {
      'walk-project': [{
        name: 'walk-kafka', type: 'kafka', schemaRegistry: true,
        components: [{ component: 'kafka', host: 'walk-kafka.test', port: 12345 }, { component: 'schema_registry', host: 'walk-kafka.test', port: 12347 }],
        topics: [{ name: 'walk-imported', partitions: 3, replication: 2, config: { retention_ms: 86_400_000, cleanup_policy: 'delete' } }],
        acl: [{ username: 'walk-importer', topic: 'walk-imported', permission: 'readwrite' }],
        subjects: [{ name: 'walk-imported-value', versions: [{ version: 1, schema: '{"type":"record","name":"Imported","namespace":"io.walk","fields":[{"name":"id","type":"string"}]}' }] }],
      }],
    },
  });
  ({ app, t } = await startWithTenant('walk', { aivenApiUrl: fakeAiven.url }));
  actor = await createUser(app, t, ['SUPER_ADMIN', 'TENANT_ADMIN'], 'walker');
}, 120_000);
afterAll(async () => {
  kit?.cleanup();
  await app?.stop();
  await fakeAiven?.close();
});

/** URIs of the walk's fixtures, by collection, for association writes. */
const pool: Record<string, string[]> = {};
const uri = (collection: string, uid: string) => `${app.api}/${collection}/${uid}`;
const put = (collection: string, uid: string) => { (pool[collection] ??= []).push(uid); return uid; };

describe('audit completeness: every mutating operation writes the entries of docs/contract.md §8', () => {
  it('walks every mutating operation of the spec', async () => {
    const T = t.tenant.uid;
    // --- tenants (a SUPER_ADMIN's), users, roles, contact -------------------------------------------------------
    const tenantPassword = 'walk-tenant-admin-pw-1';
    secrets.push(tenantPassword);
    const made = await step('createTenant', 'POST', '/tenants', { body: { name: 'Walk Other', shortName: 'walkother', admin: { firstName: 'Wal', lastName: 'Ker', emailAddress: 'wal@walkother.test', password: tenantPassword } } },
      (res) => [e('CREATED', 'Tenant', res.body.uid), e('CREATED', 'User', ANY)]);
    const other = made.body.uid as string;
    await step('replaceTenant', 'PUT', `/tenants/${other}`, { body: { name: 'Walk Other 2', shortName: 'walkother' } }, () => [e('UPDATED', 'Tenant', other)]);
    await step('patchTenant', 'PATCH', `/tenants/${T}`, { body: { logo: 'https://walk.test/logo.png' } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('replaceTenantContact', 'PUT', `/tenants/${T}/contact`, { body: { type: 'BUSINESS', name: 'Walk Contact', emailAddress: { email: 'c@walk.test' } } }, () => [e('CREATED', 'Tenant', T)]);
    await step('replaceTenantContact', 'PUT', `/tenants/${T}/contact`, { body: { type: 'BUSINESS', name: 'Walk Contact 2', emailAddress: { email: 'c@walk.test' } } }, () => [e('UPDATED', 'Tenant', T)]);

    const userPassword = 'walk-user-password-1';
    secrets.push(userPassword);
    const user = (await step('createUser', 'POST', '/users', { body: { firstName: 'Walk', lastName: 'User', emailAddress: { email: 'user@walk.test' }, password: userPassword } },
      (res) => [e('CREATED', 'User', res.body.uid)])).body.uid as string;
    put('users', user);
    const secondPassword = 'walk-user-password-2';
    secrets.push(secondPassword);
    await step('replaceUser', 'PUT', `/users/${user}`, { body: { firstName: 'Walk', lastName: 'User2', emailAddress: { email: 'user@walk.test' }, password: secondPassword } }, () => [e('UPDATED', 'User', user)]);
    await step('patchUser', 'PATCH', `/users/${user}`, { body: { middleName: 'Q' } }, () => [e('UPDATED', 'User', user)]);
    await step('replaceUserRoles', 'PUT', `/users/${user}/roles`, { body: [{ name: 'STREAM_AUTHOR' }] }, () => [e('UPDATED', 'User', user)]);
    await step('patchUserRoles', 'PATCH', `/users/${user}/roles`, { body: ['APPLICATION_AUTHOR'] }, () => [e('UPDATED', 'User', user)]);
    // A failed sign-in gives the user a lockout count to clear.
    await tokenRequest(app.authUrl, t.shortName, { grant_type: 'password', client_id: 'self-service', username: 'user@walk.test', password: 'not-the-password' });
    await step('deleteUserLockout', 'DELETE', `/users/${user}/lockout`, {}, () => [e('UPDATED', 'User', user)]);
    // A browser sign-in gives the user a session to end.
    const issuer = `${app.authUrl}/realms/${t.shortName}`;
    const authorize = `${issuer}/protocol/openid-connect/auth?${new URLSearchParams({
      client_id: 'self-service', redirect_uri: `${app.url}${app.config.basePath}/docs/oauth2-redirect.html`, response_type: 'code',
      code_challenge: s256('v'.repeat(43)), code_challenge_method: 'S256',
    })}`;
    await signInThrough(new FormBrowser(new URL(issuer).origin), authorize, 'user@walk.test', secondPassword);
    await step('deleteUserSessions', 'DELETE', `/users/${user}/sessions`, {}, () => [e('UPDATED', 'User', user)]);
    const clientSecret = 'walk-client-secret-1';
    secrets.push(clientSecret);
    const robot = (await step('createUser', 'POST', '/users', { body: { clientId: 'walk-robot', clientSecret } }, (res) => [e('CREATED', 'User', res.body.uid)])).body.uid as string;
    put('users', robot);
    for (const extra of ['one', 'two']) put('users', (await createdByActor('/users', { firstName: 'Pool', lastName: extra, emailAddress: { email: `${extra}@walk.test` } })).uid);
    put('users', actor.user.uid);

    // --- groups, clusters, instances, environments -------------------------------------------------------------
    const group = (await step('createGroup', 'POST', '/groups', { body: { name: 'Walk Team', members: [actor.user.uid] } }, (res) => [e('CREATED', 'Group', res.body.uid)])).body.uid as string;
    put('groups', group);
    await step('replaceGroup', 'PUT', `/groups/${group}`, { body: { name: 'Walk Team', members: [actor.user.uid, user] } }, () => [e('UPDATED', 'Group', group)]);
    await step('patchGroup', 'PATCH', `/groups/${group}`, { body: { phoneNumber: '+31 20 000' } }, () => [e('UPDATED', 'Group', group)]);
    for (const name of ['Walk Second', 'Walk Third', 'Walk Fourth']) put('groups', (await createdByActor('/groups', { name, members: [actor.user.uid] })).uid);

    const cluster = (await step('createCluster', 'POST', '/clusters', { body: { name: 'walk-cluster', bootstrapServers: ['w:9092'] } }, (res) => [e('CREATED', 'Cluster', res.body.uid)])).body.uid as string;
    put('clusters', cluster);
    await step('patchCluster', 'PATCH', `/clusters/${cluster}`, { body: { schemaRegistryUrls: ['https://registry.walk.test'] } },
      () => [e('UPDATED', 'Cluster', cluster), e('SCHEMA_REGISTRY_CONFIGURED', 'Cluster', cluster)]);
    await step('replaceCluster', 'PUT', `/clusters/${cluster}`, { body: { name: 'walk-cluster', bootstrapServers: ['w:9092'] } },
      () => [e('UPDATED', 'Cluster', cluster), e('SCHEMA_REGISTRY_UNCONFIGURED', 'Cluster', cluster)]);
    const registered = (await step('createCluster', 'POST', '/clusters', { body: { name: 'walk-registered', bootstrapServers: ['r:9092'], schemaRegistryUrls: ['https://r.walk.test'] } },
      (res) => [e('CREATED', 'Cluster', res.body.uid), e('SCHEMA_REGISTRY_CONFIGURED', 'Cluster', res.body.uid)])).body.uid as string;
    put('clusters', registered);
    for (const name of ['walk-pool-1', 'walk-pool-2', 'walk-pool-3']) put('clusters', (await createdByActor('/clusters', { name, bootstrapServers: ['p:9092'] })).uid);

    const instance = (await step('createInstance', 'POST', '/instances', { body: { name: 'Walk Instance', shortName: 'walkinst', clusters: [cluster] } },
      (res) => [e('CREATED', 'Instance', res.body.uid), e('CLUSTER_ADDED', 'Instance', res.body.uid)])).body.uid as string;
    put('instances', instance);
    await step('replaceInstance', 'PUT', `/instances/${instance}`, { body: { name: 'Walk Instance', shortName: 'walkinst', clusters: [registered] } },
      () => [e('UPDATED', 'Instance', instance), e('CLUSTER_ADDED', 'Instance', instance), e('CLUSTER_REMOVED', 'Instance', instance)]);
    await step('patchInstance', 'PATCH', `/instances/${instance}`, { body: { granularBrowsePermission: true } }, () => [e('UPDATED', 'Instance', instance)]);
    put('instances', (await createdByActor('/instances', { name: 'Walk Instance 2', shortName: 'walkinst2' })).uid);

    const environment = (await step('createEnvironment', 'POST', '/environments', { body: { name: 'walk-env', shortName: 'walkenv', instance, owners: group } },
      (res) => [e('CREATED', 'Environment', res.body.uid)])).body.uid as string;
    put('environments', environment);
    await step('replaceEnvironment', 'PUT', `/environments/${environment}`, { body: { name: 'walk-env', shortName: 'walkenv', instance, owners: group, description: 'put' } }, () => [e('UPDATED', 'Environment', environment)]);
    await step('patchEnvironment', 'PATCH', `/environments/${environment}`, { body: { description: 'patched' } }, () => [e('UPDATED', 'Environment', environment)]);
    put('environments', (await createdByActor('/environments', { name: 'walk-env-2', shortName: 'walkenv2', instance, owners: group })).uid);
    const promotedTo = put('environments', (await createdByActor('/environments', { name: 'walk-env-3', shortName: 'walkenv3', instance, owners: group })).uid);
    await step('synchronizeEnvironment', 'POST', `/environments/${environment}/synchronize`, {}, () => [e('SYNCHRONIZED', 'Environment', environment)]);

    // --- reference data: filed under the tenant ---------------------------------------------------------------
    for (const [collection, create, replace, patch, remove] of [
      ['confidentialities', 'createConfidentiality', 'replaceConfidentiality', 'patchConfidentiality', 'deleteConfidentiality'],
      ['integrities', 'createIntegrity', 'replaceIntegrity', 'patchIntegrity', 'deleteIntegrity'],
      ['support_tiers', 'createSupportTier', 'replaceSupportTier', 'patchSupportTier', 'deleteSupportTier'],
    ] as const) {
      const uid = (await step(create, 'POST', `/${collection}`, { body: { name: `Walk ${collection}`, level: 9 } }, () => [e('CREATED', 'Tenant', T)])).body.uid as string;
      await step(replace, 'PUT', `/${collection}/${uid}`, { body: { name: `Walk ${collection}`, level: 8 } }, () => [e('UPDATED', 'Tenant', T)]);
      await step(patch, 'PATCH', `/${collection}/${uid}`, { body: { description: 'walked' } }, () => [e('UPDATED', 'Tenant', T)]);
      await step(remove, 'DELETE', `/${collection}/${uid}`, {}, () => [e('DELETED', 'Tenant', T)]);
      for (const name of ['A', 'B']) put(collection, (await createdByActor(`/${collection}`, { name: `Pool ${collection} ${name}`, level: 20 + name.charCodeAt(0) })).uid);
    }
    const plugin = (await step('createConnectPlugin', 'POST', '/connect_plugins', { body: { pluginClass: 'com.walk.WalkSink', pluginType: 'SINK' } }, () => [e('CREATED', 'Tenant', T)])).body.uid as string;
    await step('replaceConnectPlugin', 'PUT', `/connect_plugins/${plugin}`, { body: { pluginClass: 'com.walk.WalkSink', pluginType: 'SINK', pluginVersion: '2' } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('patchConnectPlugin', 'PATCH', `/connect_plugins/${plugin}`, { body: { pluginVersion: '3' } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('deleteConnectPlugin', 'DELETE', `/connect_plugins/${plugin}`, {}, () => [e('DELETED', 'Tenant', T)]);
    const hook = (await step('createWebhook', 'POST', '/webhooks', { body: { url: 'https://hooks.example.com/walk', events: ['access.requested'] } }, () => [e('CREATED', 'Tenant', T)])).body.uid as string;
    await step('replaceWebhook', 'PUT', `/webhooks/${hook}`, { body: { url: 'https://hooks.example.com/walk2', events: ['access.approved'] } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('patchWebhook', 'PATCH', `/webhooks/${hook}`, { body: { active: false } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('rotateWebhookSecret', 'POST', `/webhooks/${hook}/secret`, { body: { overlap: 'PT1H' } }, () => [e('UPDATED', 'Tenant', T)]);
    await step('deleteWebhook', 'DELETE', `/webhooks/${hook}`, {}, () => [e('DELETED', 'Tenant', T)]);

    // --- schemas and versions ---------------------------------------------------------------------------------
    const avro = (name: string, extra = '') => JSON.stringify({ type: 'record', name, namespace: 'io.walk', fields: [{ name: 'id', type: 'string' }, ...(extra ? [{ name: extra, type: ['null', 'string'], default: null }] : [])] });
    // A new description with a later version changes the schema itself: UPDATED beside the upload.
    const upload = async (name: string, version: string, extra = '', description?: string) => step('uploadSchema', 'POST', '/schemas/upload', { body: { schema: avro(name, extra), version, owners: group, description } },
      (res) => [...(version === '1' ? [e('CREATED', 'Schema', res.body.schemaUid)] : description ? [e('UPDATED', 'Schema', res.body.schemaUid)] : []), e('SCHEMA_VERSION_UPLOADED', 'Schema', res.body.schemaUid)]);
    const keyV1 = (await upload('WalkKey', '1')).body;
    const keyV2 = (await upload('WalkKey', '2', 'more')).body;
    const valueV1 = (await upload('WalkValue', '1')).body;
    const valueV2 = (await upload('WalkValue', '2', 'more', 'Values, described later')).body;
    put('schemas', keyV1.schemaUid);
    put('schemas', valueV1.schemaUid);
    const spare = (await upload('WalkSpare', '1')).body;
    const spareV2 = (await upload('WalkSpare', '2', 'more')).body;
    await step('deleteSchemaVersion', 'DELETE', `/schema_versions/${spareV2.id}`, {}, () => [e('SCHEMA_VERSION_DELETED', 'Schema', spare.schemaUid)]);
    await step('patchSchema', 'PATCH', `/schemas/${spare.schemaUid}`, { body: { description: 'walked' } }, () => [e('UPDATED', 'Schema', spare.schemaUid)]);
    await step('patchSchema', 'PATCH', `/schemas/${spare.schemaUid}`, { body: { owners: pool.groups[1] } }, () => [e('SCHEMA_OWNERSHIP_TRANSFERRED', 'Schema', spare.schemaUid)]);
    await step('replaceSchema', 'PUT', `/schemas/${spare.schemaUid}`, { body: { description: 'put', owners: group } }, () => [e('UPDATED', 'Schema', spare.schemaUid), e('SCHEMA_OWNERSHIP_TRANSFERRED', 'Schema', spare.schemaUid)]);
    const checked = await call(app, 'POST', '/schemas/check-parse', { token: actor.token, body: { schema: avro('WalkCheck'), type: 'AVRO' } });
    expect(checked.status, checked.text).toBeLessThan(400);
    expect(await newEntries()).toEqual([]);

    // --- streams, stream configs, browse permissions ------------------------------------------------------------
    const streamBody = { name: 'walk-stream', keyType: 'AVRO', keySchema: keyV1.schemaUid, valueType: 'AVRO', valueSchema: valueV1.schemaUid, owners: group };
    const stream = (await step('createStream', 'POST', '/streams', { body: streamBody }, (res) => [e('CREATED', 'Topic', res.body.uid)])).body.uid as string;
    put('streams', stream);
    await step('replaceStream', 'PUT', `/streams/${stream}`, { body: { ...streamBody, description: 'put' } }, () => [e('UPDATED', 'Topic', stream)]);
    await step('patchStream', 'PATCH', `/streams/${stream}`, { body: { description: 'patched' } }, () => [e('UPDATED', 'Topic', stream)]);
    const config = (await step('createStreamConfig', 'POST', '/stream_configs', { body: { stream, environment, keySchemaVersion: keyV1.id, valueSchemaVersion: valueV1.id } },
      () => [e('TOPIC_CONFIGURED', 'Topic', stream)])).body.uid as string;
    await step('replaceStreamConfig', 'PUT', `/stream_configs/${config}`, { body: { stream, environment, retentionTime: 3600000, keySchemaVersion: keyV1.id, valueSchemaVersion: valueV1.id } }, () => [e('TOPIC_CONFIGURED', 'Topic', stream)]);
    await step('patchStreamConfig', 'PATCH', `/stream_configs/${config}`, { body: { retentionTime: 7200000 } }, () => [e('TOPIC_CONFIGURED', 'Topic', stream)]);
    await step('promoteStreamConfig', 'POST', `/stream_configs/${config}/promote`, { body: { environment: promotedTo, dryRun: true } }, () => []);
    await step('promoteStreamConfig', 'POST', `/stream_configs/${config}/promote`, { body: { environment: promotedTo } }, () => [e('TOPIC_CONFIGURED', 'Topic', stream)]);
    const browse = { type: 'browse', users: [user], groups: [] };
    await step('addStreamConfigPermissions', 'POST', `/stream_configs/${config}/permissions`, { body: browse }, () => [e('BROWSE_PERMISSION_GRANTED', 'Topic', stream)]);
    await step('deleteStreamConfigPermissions', 'DELETE', `/stream_configs/${config}/permissions`, { body: browse }, () => [e('BROWSE_PERMISSION_REVOKED', 'Topic', stream)]);
    pool.schema_versions = [keyV1.id, keyV2.id, valueV1.id, valueV2.id];

    // --- applications, principals, credentials ----------------------------------------------------------------
    const appBody = { applicationId: 'io.walk.app', name: 'Walk App', shortName: 'walk_app', applicationType: 'Custom', owners: group };
    const application = (await step('createApplication', 'POST', '/applications', { body: appBody }, (res) => [e('CREATED', 'Application', res.body.uid)])).body.uid as string;
    put('applications', application);
    await step('replaceApplication', 'PUT', `/applications/${application}`, { body: { ...appBody, description: 'put' } }, () => [e('UPDATED', 'Application', application)]);
    await step('patchApplication', 'PATCH', `/applications/${application}`, { body: { description: 'patched' } }, () => [e('UPDATED', 'Application', application)]);

    const connector = put('applications', (await createdByActor('/applications', { applicationId: 'io.walk.sink', name: 'Walk Sink', shortName: 'walk_sink', applicationType: 'Connector', type: 'SINK', applicationClass: 'org.apache.kafka.connect.file.FileStreamSinkConnector', owners: group })).uid as string);
    const leaf = kit.leaf('/C=NL/O=Walk/CN=walk-sink');
    secrets.push(leaf.key.trim(), leaf.key.split('\n')[1]);
    const principalRes = await step('createApplicationPrincipal', 'POST', '/application_principals', { body: [{ principal: leaf.chain, privateKey: leaf.key, application: connector, environment }] },
      (res) => [e('AUTHENTICATION_CONFIGURED', 'Application', connector, ['principal', lastSegment(res.body)])]);
    const certPrincipal = lastSegment(principalRes.body);
    const second = kit.leaf('/C=NL/O=Walk/CN=walk-sink-2');
    secrets.push(second.key.split('\n')[1]);
    await step('patchApplicationPrincipal', 'PATCH', `/application_principals/${certPrincipal}`, { body: { principal: second.chain, privateKey: second.key } },
      () => [e('AUTHENTICATION_CONFIGURED', 'Application', connector, ['principal', certPrincipal])]);
    await step('activateApplicationPrincipal', 'POST', `/application_authentications/${certPrincipal}/activate`, {},
      () => [e('AUTHENTICATION_CONFIGURED', 'Application', connector, ['principal', certPrincipal])]);
    const spareRes = await createdByActor('/application_principals', [{ principal: 'walk-spare-client', custom: true, application: connector, environment }]);
    await step('deleteApplicationPrincipal', 'DELETE', `/application_principals/${lastSegment(spareRes)}`, {},
      () => [e('AUTHENTICATION_UNCONFIGURED', 'Application', connector, ['principal', lastSegment(spareRes)])]);

    const credential = await step('createApplicationAuthentication', 'POST', '/application_authentications', { body: { applicationId: application, environmentId: environment } },
      (res) => [e('AUTHENTICATION_CONFIGURED', 'Application', application, ['credential', uidOfLocation(res)])]);
    secrets.push(credential.body[0].authData.password);
    const credentialUid = uidOfLocation(credential);
    await step('patchApplicationCredential', 'PATCH', `/application_credentials/${credentialUid}`, { body: { description: 'walked' } },
      () => [e('UPDATED', 'Application', application, ['credential', credentialUid])]);
    const extra = await call(app, 'POST', '/application_authentications', { token: actor.token, body: { applicationId: application, environmentId: environment } });
    secrets.push(extra.body[0].authData.password);
    await step('deleteApplicationCredential', 'DELETE', `/application_credentials/${uidOfLocation(extra)}`, {},
      () => [e('AUTHENTICATION_UNCONFIGURED', 'Application', application, ['credential', uidOfLocation(extra)])]);
    const third = await call(app, 'POST', '/application_authentications', { token: actor.token, body: { applicationId: application, environmentId: environment } });
    secrets.push(third.body[0].authData.password);
    await step('deleteApplicationAuthentication', 'DELETE', '/application_authentications', { body: { applicationId: application, environmentId: environment, configs: { username: third.body[0].authData.username } } },
      () => [e('AUTHENTICATION_UNCONFIGURED', 'Application', application, ['credential', uidOfLocation(third)])]);

    // --- access and grants ------------------------------------------------------------------------------------
    const access = (await step('createApplicationAccess', 'POST', '/application_access', { body: { application, stream, accessType: 'PRODUCER' } },
      (res) => [e('CREATED', 'Application', application, ['applicationAccess', res.body.uid])])).body.uid as string;
    put('application_access', access);
    await step('replaceApplicationAccess', 'PUT', `/application_access/${access}`, { body: { application, stream, accessType: 'PRODUCER' } }, () => []);
    await step('patchApplicationAccess', 'PATCH', `/application_access/${access}`, { body: { accessType: 'PRODUCER' } }, () => []);
    const grant = (res: CallResult) => res.body.uid as string;
    const request = async (accessType: string) => step('createApplicationAccessGrant', 'POST', '/application_access_grants', { body: { applicationId: application, streamId: stream, environmentId: environment, accessType } },
      (res) => [e('APPLICATION_ACCESS_REQUESTED', 'Application', application, ['grant', grant(res)])]);
    const consumer = grant(await request('CONSUMER'));
    await step('approveApplicationAccessGrant', 'PUT', `/application_access_grants/${consumer}`, {}, () => [e('APPLICATION_ACCESS_APPROVED', 'Application', application, ['grant', consumer])]);
    await step('revokeApplicationAccessGrant', 'POST', `/application_access_grants/${consumer}/revoke`, { body: { reason: 'walked' } }, () => [e('APPLICATION_ACCESS_REVOKED', 'Application', application, ['grant', consumer])]);
    const denied = grant(await request('CONSUMER'));
    await step('denyApplicationAccessGrant', 'POST', `/application_access_grants/${denied}/deny`, { body: { reason: 'no' } }, () => [e('APPLICATION_ACCESS_DENIED', 'Application', application, ['grant', denied])]);
    const cancelled = grant(await request('CONSUMER'));
    await step('cancelApplicationAccessGrant', 'DELETE', `/application_access_grants/${cancelled}`, {}, () => [e('APPLICATION_ACCESS_CANCELLED', 'Application', application, ['grant', cancelled])]);
    // The access's own grant requests: POST one, PUT/PATCH one per environment, DELETE revokes or cancels.
    const requested = async (op: string, method: string, rel = 'grants') => step(op, method, `/application_access/${access}/grants`, { rel, body: { environment } },
      () => [e('APPLICATION_ACCESS_REQUESTED', 'Application', application)]);
    const cancelGrant = (op: string) => step(op, 'DELETE', `/application_access/${access}/grants`, { rel: 'grants', body: { environment, reason: 'walked' } },
      () => [e('APPLICATION_ACCESS_CANCELLED', 'Application', application)]);
    await requested('addApplicationAccessAssociationTargets', 'POST');
    await cancelGrant('deleteApplicationAccessAssociation');
    await requested('replaceApplicationAccessAssociation', 'PUT');
    await cancelGrant('deleteApplicationAccessAssociation');
    await requested('patchApplicationAccessAssociation', 'PATCH');

    // --- deployments ------------------------------------------------------------------------------------------
    const ksml = (await createdByActor('/applications', { applicationId: 'io.walk.ksml', name: 'Walk Ksml', shortName: 'walk_ksml', applicationType: 'Ksml', owners: group })).uid as string;
    const ksmlCredential = await call(app, 'POST', '/application_authentications', { token: actor.token, body: { applicationId: ksml, environmentId: environment } });
    secrets.push(ksmlCredential.body[0].authData.password);
    const ksmlGrant = (await createdByActor('/application_access_grants', { applicationId: ksml, streamId: stream, environmentId: environment, accessType: 'PRODUCER' })).uid as string;
    await call(app, 'PUT', `/application_access_grants/${ksmlGrant}`, { token: actor.token });
    const definition = 'streams:\n  s:\n    topic: walk-stream\n    keyType: string\n    valueType: string\npipelines:\n  main:\n    from: s\n    forEach:\n      code: log.info("x")\n';
    const deployment = uidOfLocation(await step('createApplicationDeployment', 'POST', '/application_deployments', { body: { application: ksml, environment, configs: { ksml_definition: definition } } },
      (res) => [e('APPLICATION_CONFIGURED', 'Application', ksml, ['deployment', uidOfLocation(res)])]));
    await step('replaceApplicationDeployment', 'PUT', `/application_deployments/${deployment}`, { body: { configs: { ksml_definition: definition, ksml_deployment_size: 'M' } } },
      () => [e('APPLICATION_CONFIGURED', 'Application', ksml, ['deployment', deployment])]);
    await step('patchApplicationDeployment', 'PATCH', `/application_deployments/${deployment}`, { body: { configs: { ksml_definition: definition, ksml_deployment_size: 'L' } } },
      () => [e('APPLICATION_CONFIGURED', 'Application', ksml, ['deployment', deployment])]);
    for (const [action, audit] of [['START', 'APPLICATION_STARTED'], ['RESTART', 'APPLICATION_RESTARTED'], ['STOP', 'APPLICATION_STOPPED'], ['RESET', 'APPLICATION_RESET']]) {
      await step('operateApplicationDeployment', 'PUT', `/application_deployments/${deployment}/operation`, { body: { action } }, () => [e(audit, 'Application', ksml, ['deployment', deployment])]);
    }
    // Reads are not operations: they answer and write nothing.
    await step('operateApplicationDeployment', 'PUT', `/application_deployments/${deployment}/operation`, { body: { action: 'VIEW_STATUS' } }, () => []);
    await step('deleteApplicationDeployment', 'DELETE', `/application_deployments/${deployment}`, {}, () => [e('APPLICATION_UNCONFIGURED', 'Application', ksml, ['deployment', deployment])]);

    // --- associations: every rel of every collection, every method ---------------------------------------------
    for (const [collection, id] of [['groups', group], ['instances', instance], ['environments', environment], ['schemas', spare.schemaUid],
      ['streams', put('streams', (await createdByActor('/streams', { ...streamBody, name: 'walk-unpinned' })).uid)], ['stream_configs', config], ['applications', application], ['application_access', access]] as const) {
      await walkAssociations(collection, id);
    }

    // --- external providers and the topic wizard (a loopback Aiven) ---------------------------------------------
    const aiven = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'walk-project', 'Svc-Auth-Token-A': AIVEN_TOKEN, 'Svc-Service-Name-A': 'walk-kafka' };
    secrets.push(AIVEN_TOKEN);
    await step('validateProviderCredentials', 'POST', '/providers/validateCredentials', { body: aiven }, () => []);
    await step('discoverProviderResources', 'POST', '/providers/discoverResources', { body: aiven }, () => []);
    await step('getWizardTopicsInfo', 'POST', '/wizard/topics/info', { body: { providerConfigs: aiven } }, () => []);
    const wizard = { providerConfigs: aiven, environment, owners: group, topics: ['walk-imported'] };
    await step('importWizardTopics', 'POST', '/wizard/topics/import', { body: { ...wizard, dryRun: true } }, () => []);
    await step('importWizardTopics', 'POST', '/wizard/topics/import', { body: wizard }, () => [
      e('CREATED', 'Schema', ANY), e('CREATED', 'Schema', ANY), e('CREATED', 'Topic', ANY), e('CREATED', 'Topic', ANY),
      e('CREATED', 'Application', ANY), e('CREATED', 'Application', ANY), e('CREATED', 'Application', ANY), e('SYNCHRONIZED', 'Tenant', T),
    ]);

    // --- deletes last -----------------------------------------------------------------------------------------
    const loneStream = (await createdByActor('/streams', { name: 'walk-lone', keyType: 'String', valueType: 'String', owners: group })).uid as string;
    const loneConfig = (await createdByActor('/stream_configs', { stream: loneStream, environment })).uid as string;
    await step('deleteStreamConfig', 'DELETE', `/stream_configs/${loneConfig}`, {}, () => [e('TOPIC_UNCONFIGURED', 'Topic', loneStream)]);
    await step('deleteStream', 'DELETE', `/streams/${loneStream}`, {}, () => [e('DELETED', 'Topic', loneStream)]);
    await step('deleteSchema', 'DELETE', `/schemas/${spare.schemaUid}`, {}, () => [e('DELETED', 'Schema', spare.schemaUid)]);
    const loneApp = (await createdByActor('/applications', { applicationId: 'io.walk.lone', name: 'Walk Lone', shortName: 'walk_lone', applicationType: 'Custom', owners: group })).uid as string;
    await step('deleteApplication', 'DELETE', `/applications/${loneApp}`, {}, () => [e('DELETED', 'Application', loneApp)]);
    const loneEnv = (await createdByActor('/environments', { name: 'walk-lone', shortName: 'walklone', instance, owners: group })).uid as string;
    await step('deleteEnvironment', 'DELETE', `/environments/${loneEnv}`, {}, () => [e('DELETED', 'Environment', loneEnv)]);
    const loneInstance = (await createdByActor('/instances', { name: 'Walk Lone', shortName: 'walklone', clusters: [cluster] })).uid as string;
    await step('deleteInstance', 'DELETE', `/instances/${loneInstance}`, {}, () => [e('DELETED', 'Instance', loneInstance)]);
    const loneCluster = (await createdByActor('/clusters', { name: 'walk-lone', bootstrapServers: ['l:9092'] })).uid as string;
    await step('deleteCluster', 'DELETE', `/clusters/${loneCluster}`, {}, () => [e('DELETED', 'Cluster', loneCluster)]);
    const loneGroup = (await createdByActor('/groups', { name: 'Walk Lone' })).uid as string;
    await step('deleteGroup', 'DELETE', `/groups/${loneGroup}`, {}, () => [e('DELETED', 'Group', loneGroup)]);
    await step('deleteUser', 'DELETE', `/users/${pool.users[2]}`, {}, () => [e('DELETED', 'User', pool.users[2])]);
    await step('deleteTenant', 'DELETE', `/tenants/${other}`, {}, () => [e('DELETED', 'Tenant', other)]);

    expect(failures).toEqual([]);
  }, 300_000);

  it('performed every mutating operation of the spec, associations once per rel', () => {
    const done = new Set(performed.filter((p) => p.status < 400).map((p) => p.op));
    const missing: string[] = [];
    for (const [template, ops] of Object.entries(spec.paths)) {
      for (const method of WRITES) {
        const op = ops[method]?.operationId;
        if (!op || READ_ONLY_POSTS.has(op)) continue;
        if (!performed.some((p) => p.op === op)) missing.push(`${op} (${method.toUpperCase()} ${template}) was never performed`);
        // Association writes a collection's rels can never take (DELETE of a to-many list, POST to a to-one) are
        // walked as refusals that must write nothing; every other operation must have written its entries.
        else if (!done.has(op) && !template.includes('{rel}')) missing.push(`${op} (${method.toUpperCase()} ${template}) never succeeded`);
        if (!template.includes('{rel}')) continue;
        const collection = template.split('/')[1];
        for (const assoc of resourceByCollection(collection)!.associations) {
          if (!performed.some((p) => p.op === op && p.rel === assoc.rel)) missing.push(`${op} with rel ${assoc.rel} was never performed`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});


/**
 * Every association write of one item, per rel: to-many rels take POST (append), PUT (replace), PATCH (append) and
 * DELETE of one member, and refuse DELETE of the whole list (405); to-one rels take PUT and PATCH of another
 * target, refuse POST (405), and DELETE unless required (422). Immutable rels refuse a change (422). A change is
 * UPDATED of the item's own kind, with the extras of the table (instance clusters, stream config → the stream).
 */
async function walkAssociations(collection: string, id: string) {
  const resource = resourceByCollection(collection)!;
  const ops = (suffix: string) => Object.fromEntries(WRITES.map((m) => [m, spec.paths[`/${collection}/{id}/{rel}${suffix}`]?.[m]?.operationId]));
  const [onRel, onMember] = [ops(''), ops('/{propertyId}')];
  for (const assoc of resource.associations) {
    if (assoc.reverse) continue; // an access's grants: walked above through the grant requests
    const base = `/${collection}/${id}/${assoc.rel}`;
    const target = assoc.target().collection;
    const linked = async () => {
      const res = await call(app, 'GET', base, { token: actor.token, headers: { Accept: 'text/uri-list' } });
      return res.status === 200 ? res.text.split('\n').filter(Boolean).map(lastSegment) : [];
    };
    const fresh = async () => {
      const now = await linked();
      const candidates = (pool[target] ?? []).filter((uid) => !now.includes(uid) && fits(collection, assoc.rel, uid) && !(assoc.rel === 'successor' && uid === id));
      if (candidates.length === 0) throw new Error(`no fixture of ${target} to link as ${collection}.${assoc.rel}`);
      return candidates[0];
    };
    const uriList = { 'Content-Type': 'text/uri-list' };
    const expectChange = (extra: Expected[] = []) => () => [...ownChange(collection, id), ...extra];
    const o = (body?: string) => ({ rel: assoc.rel, body, headers: body === undefined ? undefined : uriList });
    if (assoc.immutable) {
      for (const m of ['put', 'patch'] as const) if (onRel[m]) await refused(onRel[m]!, m.toUpperCase(), base, o(uri(target, await fresh())), 422);
      if (onRel.post) await refused(onRel.post, 'POST', base, o(uri(target, await fresh())), assoc.many ? 422 : 405);
      if (onRel.delete) await refused(onRel.delete, 'DELETE', base, o(), assoc.many ? 405 : 422);
      if (onMember.delete) await refused(onMember.delete, 'DELETE', `${base}/${(await linked())[0]}`, o(), 422);
      continue;
    }
    if (assoc.many) {
      const clusters = collection === 'instances' && assoc.rel === 'clusters';
      const added = () => (clusters ? [e('CLUSTER_ADDED', 'Instance', id)] : []);
      const removed = (n: number) => (clusters ? Array.from({ length: n }, () => e('CLUSTER_REMOVED', 'Instance', id)) : []);
      if (onRel.post) await step(onRel.post, 'POST', base, o(uri(target, await fresh())), expectChange(added()));
      if (onRel.patch) await step(onRel.patch, 'PATCH', base, o(uri(target, await fresh())), expectChange(added()));
      const before = await linked();
      const replacement = await fresh();
      if (onRel.put) await step(onRel.put, 'PUT', base, o(uri(target, replacement)), expectChange([...added(), ...removed(before.length)]));
      if (onMember.delete) {
        if (onRel.post) await step(onRel.post, 'POST', base, o(uri(target, await fresh())), expectChange(added()));
        await step(onMember.delete, 'DELETE', `${base}/${replacement}`, o(), expectChange(removed(1)));
      }
      if (onRel.delete) await refused(onRel.delete, 'DELETE', base, o(), 405);
    } else {
      if (onRel.post) await refused(onRel.post, 'POST', base, o(uri(target, await fresh())), 405);
      if (onRel.put) await step(onRel.put, 'PUT', base, o(uri(target, await fresh())), expectChange());
      if (onRel.patch) await step(onRel.patch, 'PATCH', base, o(uri(target, await fresh())), expectChange());
      // DELETE of the rel and of its one member both unlink a to-one target.
      for (const [op, path] of [[onRel.delete, () => base], [onMember.delete, async () => `${base}/${(await linked())[0]}`]] as const) {
        if (!op) continue;
        const rule = DOMAIN_REFUSALS[`${collection}.${assoc.rel} DELETE`];
        if (assoc.required) await refused(op, 'DELETE', await path(), o(), 422);
        else if (rule) await refused(op, 'DELETE', await path(), o(), rule);
        else {
          if ((await linked()).length === 0) await step(onRel.put!, 'PUT', base, o(uri(target, await fresh())), expectChange());
          await step(op, 'DELETE', await path(), o(), expectChange());
        }
      }
    }
  }
}

/** Association writes a domain rule refuses for the walk's fixtures (the status); the same method succeeds on other rels. */
const DOMAIN_REFUSALS: Record<string, number> = {
  // An AVRO key or value needs its schema.
  'streams.keySchema DELETE': 400,
  'streams.valueSchema DELETE': 400,
};

/** The entry a changed association writes for its item. */
function ownChange(collection: string, id: string): Expected[] {
  if (collection === 'stream_configs') return [e('TOPIC_CONFIGURED', 'Topic', pool.streams[0])];
  if (collection === 'schemas') return [e('SCHEMA_OWNERSHIP_TRANSFERRED', 'Schema', id)];
  return [e('UPDATED', KIND[collection], id)];
}

/** Targets a domain rule would refuse: a stream config's versions are of the stream's own key and value schemas. */
function fits(collection: string, rel: string, uid: string): boolean {
  if (collection === 'stream_configs' && rel === 'keySchemaVersion') return pool.schema_versions.indexOf(uid) < 2;
  if (collection === 'stream_configs' && rel === 'valueSchemaVersion') return pool.schema_versions.indexOf(uid) >= 2;
  return true;
}

describe('audit completeness: what must write nothing', () => {
  /** Replays each request of the walk another way; whatever is refused must have written nothing. */
  async function replay(label: string, token: () => string, o: (p: Performed) => Pick<CallOptions, 'body' | 'headers' | 'raw'>) {
    const wrote: string[] = [];
    let refusals = 0;
    for (const p of performed) {
      await newEntries();
      const res = await call(app, p.method, p.path, { token: token(), ...o(p) });
      const rows = await newEntries();
      if (res.status >= 500) wrote.push(`${p.op} ${p.method} ${p.path} (${label}) → ${res.status} ${res.text.slice(0, 200)}`);
      if (res.status < 400) continue;
      refusals += 1;
      if (rows.length > 0) wrote.push(`${p.op} ${p.method} ${p.path} (${label}) → ${res.status} but wrote ${rows.map(shown).join('; ')}`);
    }
    return { wrote, refusals };
  }

  it('requests refused for want of a role write nothing', async () => {
    const nobody = await createUser(app, t, [], 'nobody');
    const { wrote, refusals } = await replay('no role', () => nobody.token, (p) => ({ body: p.body, headers: p.headers }));
    expect(wrote).toEqual([]);
    // A user without roles can change almost nothing: the replay is mostly refusals, or it proves little.
    expect(refusals).toBeGreaterThan(performed.length * 0.9);
  }, 300_000);

  it('malformed bodies and failed preconditions write nothing', async () => {
    // A body that does not parse; a DELETE without a body names a version the row does not have (If-Match → 412).
    const broken = (p: Performed): Pick<CallOptions, 'headers' | 'raw'> => (p.method === 'DELETE' && p.body === undefined
      ? { headers: { 'If-Match': '"987654"' } }
      : { raw: '{"oops', headers: { 'Content-Type': p.headers?.['Content-Type'] ?? 'application/json' } });
    const malformed = await replay('malformed', () => actor.token, broken);
    expect(malformed.wrote).toEqual([]);
    expect(malformed.refusals).toBeGreaterThan(performed.length * 0.5);
  }, 300_000);

  it('replaying the walk as its actor: every refusal (duplicates, wrong states, gone resources) writes nothing', async () => {
    const { wrote, refusals } = await replay('again', () => actor.token, (p) => ({ body: p.body, headers: p.headers }));
    expect(wrote).toEqual([]);
    expect(refusals).toBeGreaterThan(20);
  }, 300_000);

  it('reads write nothing: every GET of the spec', async () => {
    const before = await app.models.AuditEvent.count();
    const some = (collection: string) => pool[collection]?.[0] ?? '0123456789abcdef0123456789abcdef';
    let reads = 0;
    for (const [template, ops] of Object.entries(spec.paths)) {
      if (!(ops as Record<string, unknown>).get) continue;
      const collection = template.split('/')[1];
      const rel = template.includes('{rel}') ? resourceByCollection(collection)!.associations[0].rel : '';
      const path = template.replace('{id}', some(collection)).replace('{rel}', rel).replace('{propertyId}', some('users')).replace('{collection}', 'clusters');
      const res = await call(app, 'GET', path, { token: actor.token });
      expect(res.status, `GET ${path}`).toBeLessThan(500);
      reads += 1;
    }
    expect(reads).toBeGreaterThan(60);
    expect(await app.models.AuditEvent.count()).toBe(before);
  });

  it('no secret the walk sent or was shown appears in any entry', async () => {
    expect(secrets.length).toBeGreaterThan(8);
    const rows = await app.models.AuditEvent.findAll();
    const leaks: string[] = [];
    for (const row of rows) {
      const text = JSON.stringify(row.get({ plain: true }));
      for (const secret of secrets) if (text.includes(secret)) leaks.push(`${shown(row)} carries a secret`);
    }
    expect(leaks).toEqual([]);
    // The credential entries say a password was made without showing it.
    const configured = rows.filter((r) => r.action === 'AUTHENTICATION_CONFIGURED' && (r.details as any)?.credential);
    expect(configured.length).toBeGreaterThan(0);
    expect(configured.every((r) => (r.details as any).password === '***')).toBe(true);
  });
});
