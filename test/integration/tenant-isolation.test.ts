/**
 * docs/contract.md §7 and issue 4: nothing of another tenant is visible or reachable on any path. This walks EVERY
 * operation of the OpenAPI document with tenant B's tokens (its TENANT_ADMIN, and a SUPER_ADMIN of B) against
 * tenant A's data: an id of A answers 404 (never 403, never 400 that would confirm it), and no answer — lists,
 * searches, counts, links — carries any uid of A. A new path or collection without a fixture here fails the test.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByCollection } from '../../handlers/resources';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call, created, lastSegment } from '../support/http';

const spec = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Array<{ name?: string; in?: string; $ref?: string }> }>>;
};
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** A's fixture uid for each collection, and for each association rel the collection it points into. */
const A: Record<string, string> = {};
const A_NAMES: Record<string, string> = {};
/** The passwords of A's credentials, shown once at creation: no answer to B may carry them. */
const A_PASSWORDS: string[] = [];
const KSML_DEFINITION = 'streams:\n  payments:\n    topic: a-only\n    keyType: string\n    valueType: string\npipelines:\n  main:\n    from: payments\n    forEach:\n      code: log.info("x")\n';
const REL_TARGET: Record<string, string> = {
  members: 'users', managers: 'users', resourceManagers: 'users', clusters: 'clusters', instance: 'instances',
  owners: 'groups', viewers: 'groups',
  supportTier: 'support_tiers', schema: 'schemas', keySchema: 'schemas', valueSchema: 'schemas',
  confidentiality: 'confidentialities', integrity: 'integrities',
  stream: 'streams', environment: 'environments', successor: 'environments', keySchemaVersion: 'schema_versions', valueSchemaVersion: 'schema_versions',
  application: 'applications', grants: 'application_access_grants',
};
/** The descriptor of a collection (handlers/resources.ts lists every one, access, principals, credentials and deployments included). */
const descriptorOf = (collection: string) => resourceByCollection(collection);

let app: TestApp;
let a: TestTenant;
let b: TestTenant;
let bSuper: TestUser;

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenant(app, 'iso-a');
  b = await createTenant(app, 'iso-b');
  bSuper = await createUser(app, b, ['SUPER_ADMIN', 'TENANT_ADMIN'], 'super');
  const tok = a.admin.token;
  const post = async (path: string, body: Record<string, unknown>): Promise<string> => (await created(app, path, body, tok)).uid;
  const credential = async (applicationId: string, environmentId: string) => {
    const res = await call(app, 'POST', '/application_authentications', { token: tok, body: { applicationId, environmentId } });
    if (res.status !== 201) throw new Error(`/application_authentications: ${res.status} ${res.text}`);
    A_PASSWORDS.push(res.body[0].authData.password);
    return lastSegment(res.headers.get('location'));
  };
  const member = await createUser(app, a, ['STREAM_AUTHOR'], 'member');
  A.users = member.user.uid;
  A_NAMES.users = member.email;
  A.clusters = await post('/clusters', { name: 'a-only-cluster', bootstrapServers: ['a:9092'] });
  A_NAMES.clusters = 'a-only-cluster';
  A.instances = await post('/instances', { name: 'A Only Instance', shortName: 'aonly', clusters: [A.clusters] });
  A_NAMES.instances = 'A Only Instance';
  A.groups = await post('/groups', { name: 'A Only Group', members: [A.users], managers: [A.users] });
  A_NAMES.groups = 'A Only Group';
  A.environments = await post('/environments', { name: 'a-only-env', shortName: 'aonlyenv', instance: A.instances, owners: A.groups, viewers: [A.groups] });
  A_NAMES.environments = 'a-only-env';
  A.applications = await post('/applications', { applicationId: 'a.only.app', name: 'A Only App', shortName: 'a_only_app', applicationType: 'Custom', owners: A.groups, viewers: [A.groups] });
  A_NAMES.applications = 'A Only App';
  const upload = await call(app, 'POST', '/schemas/upload', { token: tok, body: { schema: '{"type":"record","name":"AOnly","namespace":"a.only","fields":[]}', version: '1', owners: A.groups } });
  if (upload.status !== 201) throw new Error(`/schemas/upload: ${upload.status} ${upload.text}`);
  A.schemas = upload.body.schemaUid;
  A_NAMES.schemas = 'a.only.AOnly';
  A.schema_versions = upload.body.id;
  for (const [c, name] of [['confidentialities', 'A Only Confidentiality'], ['integrities', 'A Only Integrity'], ['support_tiers', 'A Only Tier']]) {
    A[c] = await post(`/${c}`, { name, level: 7 });
    A_NAMES[c] = name;
  }
  A.streams = await post('/streams', { name: 'a-only-stream', keyType: 'String', valueType: 'AVRO', valueSchema: A.schemas, owners: A.groups, viewers: [A.groups], confidentiality: A.confidentialities, integrity: A.integrities });
  A_NAMES.streams = 'a-only-stream';
  A.stream_configs = await post('/stream_configs', { stream: A.streams, environment: A.environments, valueSchemaVersion: A.schema_versions });
  A.connect_plugins = await post('/connect_plugins', { pluginClass: 'com.example.AOnlyConnector', pluginType: 'SINK' });
  A_NAMES.connect_plugins = 'com.example.AOnlyConnector';
  // An access grant of A: its application authenticates in the environment where its stream is configured, with a
  // principal (a one-element array in, the new URI as a JSON string out) and a credential (`[{authData}]` out,
  // Location = the credential), both made through the API.
  const principal = await call(app, 'POST', '/application_principals', {
    token: tok, body: [{ principal: 'a-only-client', custom: true, application: A.applications, environment: A.environments }],
  });
  if (principal.status !== 201) throw new Error(`/application_principals: ${principal.status} ${principal.text}`);
  A.application_principals = lastSegment(principal.body);
  // `/application_authentications/{id}/activate` takes a principal's uid.
  A.application_authentications = A.application_principals;
  A.application_credentials = await credential(A.applications, A.environments);
  const grant = await call(app, 'POST', '/application_access_grants', {
    token: tok, body: { applicationId: A.applications, streamId: A.streams, environmentId: A.environments, accessType: 'CONSUMER' },
  });
  if (grant.status !== 201) throw new Error(`/application_access_grants: ${grant.status} ${grant.text}`);
  A.application_access_grants = grant.body.uid;
  const access = await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${grant.body.uid}`, { token: tok });
  if (access.status !== 200) throw new Error(`findByGrantsContaining: ${access.status} ${access.text}`);
  A.application_access = access.body.uid;
  // A deployment of A: a Ksml application with a credential and an approved grant where the stream is configured.
  A.ksmlApplication = await post('/applications', { applicationId: 'a.only.ksml', name: 'A Only Ksml', shortName: 'a_only_ksml', applicationType: 'Ksml', owners: A.groups });
  A.ksmlCredential = await credential(A.ksmlApplication, A.environments);
  const ksmlGrant = await call(app, 'POST', '/application_access_grants', {
    token: tok, body: { applicationId: A.ksmlApplication, streamId: A.streams, environmentId: A.environments, accessType: 'PRODUCER' },
  });
  if (ksmlGrant.status !== 201) throw new Error(`/application_access_grants (ksml): ${ksmlGrant.status} ${ksmlGrant.text}`);
  A.ksmlGrant = ksmlGrant.body.uid;
  const approved = await call(app, 'PUT', `/application_access_grants/${A.ksmlGrant}`, { token: tok });
  if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${approved.text}`);
  const deployment = await call(app, 'POST', '/application_deployments', {
    token: tok, body: { application: A.ksmlApplication, environment: A.environments, configs: { ksml_definition: KSML_DEFINITION } },
  });
  if (deployment.status !== 201) throw new Error(`/application_deployments: ${deployment.status} ${deployment.text}`);
  A.application_deployments = lastSegment(deployment.headers.get('location'));
  A.webhooks = await post('/webhooks', { url: 'https://hooks.example.com/a-only', events: ['access.requested'] });
  A.tenants = a.tenant.uid;
  A_NAMES.tenants = a.shortName;
});
afterAll(async () => app?.stop());

interface Probe { method: string; template: string; path: string; hasId: boolean }

/** Every operation, with A's ids filled in; associations once per rel of the collection's descriptor. */
function probes(): Probe[] {
  const out: Probe[] = [];
  for (const [template, ops] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      if (!ops[method]) continue;
      const collection = template.split('/')[1];
      const hasId = template.includes('{id}');
      const fills: string[] = [];
      if (template.includes('{rel}')) {
        const resource = descriptorOf(collection);
        if (!resource) throw new Error(`no descriptor for ${template}`);
        for (const assoc of resource.associations) {
          const target = REL_TARGET[assoc.rel];
          if (!target) throw new Error(`tenant-isolation test: no target collection for rel ${assoc.rel}`);
          fills.push(template.replace('{rel}', assoc.rel).replace('{propertyId}', A[target]));
        }
      } else if (template.includes('{collection}')) {
        fills.push(template.replace('{collection}', 'clusters'));
      } else {
        fills.push(template);
      }
      for (const filled of fills) {
        if (hasId && !A[collection]) throw new Error(`tenant-isolation test: no fixture of tenant A for /${collection}`);
        out.push({ method: method.toUpperCase(), template, path: filled.replace('{id}', A[collection] ?? ''), hasId });
      }
    }
  }
  return out;
}

/** Query parameters that name things get A's values: a search for A's name must find nothing. */
function queryFor(template: string): string {
  const collection = template.split('/')[1];
  const q = new URLSearchParams();
  if (template === '/auth') {
    q.set('action', 'CLUSTER_VIEW'); q.set('resourceType', 'CLUSTER'); q.set('resourceUid', A.clusters);
  } else if (template.includes('/search/')) {
    const op = spec.paths[template].get;
    for (const p of op?.parameters ?? []) {
      if (!p.name || p.in !== 'query') continue;
      if (p.name === 'instance') q.set(p.name, A.instances);
      else if (p.name === 'shortName') q.set(p.name, ({ tenants: a.shortName, instances: 'aonly', applications: 'a_only_app' } as Record<string, string>)[collection] ?? 'aonlyenv');
      // applications/findByApplicationId takes the application's applicationId; the grant search a reference.
      else if (p.name === 'applicationId') q.set(p.name, collection === 'applications' ? 'a.only.app' : A.applications);
      else if (p.name === 'application') q.set(p.name, A.applications);
      else if (p.name === 'applicationAccessGrant') q.set(p.name, A.application_access_grants);
      else if (p.name === 'streamId') q.set(p.name, A.streams);
      else if (p.name === 'environmentId') q.set(p.name, A.environments);
      else if (p.name === 'accessType') q.set(p.name, 'CONSUMER');
      // The credential searches' type: the one A's credentials hold.
      else if (p.name === 'type') q.set(p.name, 'SCRAM_SHA_512');
      else if (p.name === 'statuses') q.set(p.name, 'Pending');
      else if (p.name === 'owners') q.set(p.name, A.groups);
      else if (p.name === 'schema') q.set(p.name, A.schemas);
      else if (p.name === 'stream') q.set(p.name, A.streams);
      else if (p.name === 'environment') q.set(p.name, A.environments);
      else if (p.name === 'version') q.set(p.name, '1');
      else if (p.name === 'email') q.set(p.name, A_NAMES.users);
      else if (p.name === 'pluginClass') q.set(p.name, A_NAMES.connect_plugins);
      else if (p.name === 'name') q.set(p.name, A_NAMES[collection] ?? 'x');
    }
  } else if (template === '/group') {
    q.set('name', 'A Only');
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const aUids = () => Object.values(A).filter((uid) => uid !== undefined);

describe('tenant isolation on every path of the spec', () => {
  it('has a probe for every operation', () => {
    const all = probes();
    expect(all.length).toBeGreaterThan(40);
    expect(new Set(all.map((p) => `${p.method} ${p.template}`)).size)
      .toBe(Object.values(spec.paths).reduce((n, ops) => n + METHODS.filter((m) => ops[m]).length, 0));
  });

  for (const caller of ['tenant admin of B', 'SUPER_ADMIN of B'] as const) {
    it(`${caller}: A's ids answer 404 and nothing of A leaks`, async () => {
      const token = caller === 'tenant admin of B' ? b.admin.token : bSuper.token;
      const failures: string[] = [];
      for (const probe of probes()) {
        // A SUPER_ADMIN manages every tenant through /tenants (docs/contract.md §7): that is the one exception.
        const superTenants = caller === 'SUPER_ADMIN of B' && probe.template.startsWith('/tenants');
        if (superTenants) continue;
        const path = probe.path + (probe.method === 'GET' ? queryFor(probe.template) : '');
        const body = probe.method === 'GET' || probe.method === 'DELETE' ? undefined : {};
        const res = await call(app, probe.method, path, { token, body });
        const label = `${probe.method} ${probe.template} → ${res.status}`;
        if (probe.hasId || probe.template === '/auth') {
          if (res.status !== 404) failures.push(`${label} (expected 404)`);
        } else if (probe.template.includes('/search/') && res.status === 404) {
          // a single-result search that finds nothing: fine
        } else if (res.status >= 500) {
          failures.push(`${label} (server error)`);
        }
        const leaked = aUids().filter((uid) => res.text.includes(uid) && !path.includes(uid));
        if (leaked.length > 0) failures.push(`${label} leaks ${leaked.join(', ')}`);
        if (A_PASSWORDS.some((pw) => res.text.includes(pw))) failures.push(`${label} leaks a password of A`);
        // The credential searches answer a plain array: for B, never one with A's credentials in it.
        if (Array.isArray(res.body) && probe.template.includes('/search/') && res.body.length !== 0) {
          failures.push(`${label} answers ${res.body.length} of A's`);
        }
        if (res.body?.page && probe.template.includes('/search/') && res.body.page.totalElements !== 0) {
          failures.push(`${label} counts ${res.body.page.totalElements} of A's`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('the access searches answer 404 for each of A\'s references alone, and count nothing of A without them', async () => {
    const failures: string[] = [];
    const searches: Array<[string, Record<string, string>]> = [
      ['/application_access/search/findByGrantsContaining', { applicationAccessGrant: A.application_access_grants }],
      ['/application_access/search/findByGrantsContaining', { applicationAccessGrant: `${app.api}/application_access_grants/${A.application_access_grants}` }],
      ['/application_access/search/findByApplicationAndStream', { application: A.applications, stream: A.streams }],
      ['/application_access_grants/search/findByAttributes', { streamId: A.streams }],
      ['/application_access_grants/search/findByAttributes', { applicationId: A.applications }],
      ['/application_access_grants/search/findByAttributes', { environmentId: A.environments }],
      ['/application_access_grants/search/findByAttributes', { applicationId: A.applications, accessType: 'CONSUMER', statuses: 'Pending' }],
    ];
    for (const token of [b.admin.token, bSuper.token]) {
      for (const [path, query] of searches) {
        const res = await call(app, 'GET', `${path}?${new URLSearchParams(query)}`, { token });
        if (res.status !== 404) failures.push(`${path} ${JSON.stringify(query)} → ${res.status} (expected 404)`);
        const leaked = aUids().filter((uid) => res.text.includes(uid) && !Object.values(query).some((v) => v.includes(uid)));
        if (leaked.length > 0) failures.push(`${path} ${JSON.stringify(query)} leaks ${leaked.join(', ')}`);
      }
      // Filters that name nothing of A: B's (empty) world, never a count of A's grants.
      const filters: Array<Record<string, string>> = [{}, { accessType: 'CONSUMER' }, { statuses: 'Pending' }, { accessType: 'consumer', statuses: 'PENDING,Approved' }];
      for (const query of filters) {
        const res = await call(app, 'GET', `/application_access_grants/search/findByAttributes?${new URLSearchParams(query)}`, { token });
        if (res.status !== 200 || res.body.page?.totalElements !== 0 || res.body._embedded?.applicationAccessGrantResponses?.length !== 0) {
          failures.push(`findByAttributes ${JSON.stringify(query)} → ${res.status} ${res.text.slice(0, 300)}`);
        }
      }
      for (const path of ['/application_access', '/application_access_grants']) {
        const res = await call(app, 'GET', path, { token });
        if (res.status !== 200 || res.body.page?.totalElements !== 0) failures.push(`${path} → ${res.status} ${res.text.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("A's references in request bodies are answered as if they did not exist", async () => {
    // B's own application, stream and environment, ready for a grant, so that only A's reference can be refused.
    const tok = b.admin.token;
    const post = async (path: string, body: unknown): Promise<string> => (await created(app, path, body, tok)).uid;
    const group = await post('/groups', { name: 'B Access Team', members: [b.admin.user.uid] });
    const instance = await post('/instances', { name: 'B Access Instance', shortName: 'baccess' });
    const environment = await post('/environments', { name: 'b-access-env', shortName: 'baccessenv', instance, owners: group });
    const application = await post('/applications', { applicationId: 'b.access.app', name: 'B Access App', shortName: 'b_access_app', applicationType: 'Custom', owners: group });
    const stream = await post('/streams', { name: 'b-access-stream', keyType: 'String', valueType: 'String', owners: group });
    await post('/stream_configs', { stream, environment });
    const principal = await call(app, 'POST', '/application_principals', {
      token: tok, body: [{ principal: 'b-access-client', custom: true, application, environment }],
    });
    if (principal.status !== 201) throw new Error(`/application_principals: ${principal.status} ${principal.text}`);
    const bPrincipal = lastSegment(principal.body);
    const never = '0123456789abcdef0123456789abcdef';
    const mine = { applicationId: application, streamId: stream, environmentId: environment, accessType: 'PRODUCER' };
    const principalBody = { principal: 'b-other-client', custom: true, application, environment };
    const removal = { applicationId: application, environmentId: environment, configs: { username: 'b-access-nobody' } };
    // [method, path, body with A's reference in `field`, field]; bodies that are arrays carry it in their one element.
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/application_access_grants', { ...mine, applicationId: A.applications }, 'applicationId'],
      ['POST', '/application_access_grants', { ...mine, streamId: A.streams }, 'streamId'],
      ['POST', '/application_access_grants', { ...mine, environmentId: A.environments }, 'environmentId'],
      ['POST', '/application_access', { application: A.applications, stream, accessType: 'CONSUMER' }, 'application'],
      ['POST', '/application_access', { application, stream: A.streams, accessType: 'CONSUMER' }, 'stream'],
      ['POST', '/application_principals', [{ ...principalBody, application: A.applications }], 'application'],
      ['POST', '/application_principals', [{ ...principalBody, environment: A.environments }], 'environment'],
      ['POST', '/application_principals', { ...principalBody, environment: A.environments }, 'environment'],
      ['PATCH', `/application_principals/${bPrincipal}`, { principal: 'b-access-client', environment: A.environments }, 'environment'],
      ['POST', '/application_authentications', { applicationId: A.applications, environmentId: environment }, 'applicationId'],
      ['POST', '/application_authentications', { applicationId: application, environmentId: A.environments }, 'environmentId'],
      ['DELETE', '/application_authentications', { ...removal, applicationId: A.applications }, 'applicationId'],
      ['DELETE', '/application_authentications', { ...removal, environmentId: A.environments }, 'environmentId'],
      ['POST', '/application_deployments', { application: A.ksmlApplication, environment, configs: { ksml_definition: KSML_DEFINITION } }, 'application'],
      ['POST', '/application_deployments', { application, environment: A.environments, configs: {} }, 'environment'],
    ];
    const withField = (body: unknown, field: string, value: string): unknown =>
      (Array.isArray(body) ? body.map((e) => ({ ...e, [field]: value })) : { ...(body as Record<string, unknown>), [field]: value });
    const fieldOf = (body: unknown, field: string) => ((Array.isArray(body) ? body[0] : body) as Record<string, string>)[field];
    const failures: string[] = [];
    for (const [method, path, body, field] of cases) {
      const theirs = await call(app, method, path, { token: tok, body });
      const unknown = await call(app, method, path, { token: tok, body: withField(body, field, never) });
      const shown = (r: typeof theirs, uid: string) => `${r.status} ${JSON.stringify(r.body?.errors ?? r.text).replaceAll(uid, '<uid>')}`;
      if (theirs.status < 400 || shown(theirs, fieldOf(body, field)) !== shown(unknown, never)) {
        failures.push(`${method} ${path} with A's ${field}: ${shown(theirs, fieldOf(body, field))}; an unknown one: ${shown(unknown, never)}`);
      }
    }
    // A grant of B's own access in A's environment.
    const made = await call(app, 'POST', '/application_access_grants', { token: tok, body: mine });
    expect(made.status, made.text).toBe(201);
    const access = (await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${made.body.uid}`, { token: tok })).body.uid;
    for (const method of ['POST', 'PUT', 'PATCH'] as const) {
      const theirs = await call(app, method, `/application_access/${access}/grants`, { token: tok, body: { environment: A.environments } });
      const unknown = await call(app, method, `/application_access/${access}/grants`, { token: tok, body: { environment: never } });
      if (theirs.status < 400 || theirs.status !== unknown.status || JSON.stringify(theirs.body.errors).replaceAll(A.environments, '<uid>') !== JSON.stringify(unknown.body.errors).replaceAll(never, '<uid>')) {
        failures.push(`${method} {access}/grants with A's environment: ${theirs.status} ${theirs.text}; an unknown one: ${unknown.status} ${unknown.text}`);
      }
    }
    const revoke = await call(app, 'DELETE', `/application_access/${access}/grants`, { token: tok, body: { environment: A.environments, reason: 'x' } });
    const revokeUnknown = await call(app, 'DELETE', `/application_access/${access}/grants`, { token: tok, body: { environment: never, reason: 'x' } });
    if (revoke.status < 400 || revoke.status !== revokeUnknown.status) failures.push(`DELETE {access}/grants with A's environment: ${revoke.status} ${revoke.text}; an unknown one: ${revokeUnknown.status}`);
    expect(failures).toEqual([]);
  });

  it('/auth on A\'s grant, application, principal, credential and deployment answers 404, word for word as for a uid that never existed', async () => {
    const never = '00000000000000000000000000000000';
    const questions: Array<[string, string, string]> = [
      ['GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['GRANT_DENY', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['APPLICATION_ACCESS_GRANT_VIEW', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['APPLICATION_ACCESS_GRANT_EDIT', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['APPLICATION_ACCESS_GRANT_DELETE', 'APPLICATION_ACCESS_GRANT', A.application_access_grants],
      ['APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', A.applications],
      ['GRANT_REQUEST', 'APPLICATION', A.applications],
      ...['VIEW', 'EDIT', 'DELETE'].flatMap((verb): Array<[string, string, string]> => [
        [`APPLICATION_PRINCIPAL_${verb}`, 'APPLICATION_PRINCIPAL', A.application_principals],
        [`APPLICATION_CREDENTIAL_${verb}`, 'APPLICATION_CREDENTIAL', A.application_credentials],
        [`APPLICATION_DEPLOYMENT_${verb}`, 'APPLICATION_DEPLOYMENT', A.application_deployments],
      ]),
      ['DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', A.application_deployments],
      // A create under A's application: the parent is as unknown as one that never existed.
      ['APPLICATION_PRINCIPAL_CREATE', 'APPLICATION_PRINCIPAL', A.applications],
      ['APPLICATION_CREDENTIAL_CREATE', 'APPLICATION_CREDENTIAL', A.applications],
      ['APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', A.ksmlApplication],
    ];
    const failures: string[] = [];
    for (const token of [b.admin.token, bSuper.token]) {
      for (const [action, resourceType, resourceUid] of questions) {
        const res = await call(app, 'GET', `/auth?${new URLSearchParams({ action, resourceType, resourceUid })}`, { token });
        const control = await call(app, 'GET', `/auth?${new URLSearchParams({ action, resourceType, resourceUid: never })}`, { token });
        const theirs = `${res.status} ${JSON.stringify(res.body?.errors).replaceAll(resourceUid, '<uid>')}`;
        const unknown = `${control.status} ${JSON.stringify(control.body?.errors).replaceAll(never, '<uid>')}`;
        if (res.status !== 404 || theirs !== unknown) failures.push(`${action} on A's ${resourceType}: ${theirs}; never existed: ${unknown}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("A's data is intact after B's attempts", async () => {
    for (const collection of ['clusters', 'instances', 'groups', 'environments', 'users', 'applications', 'streams', 'application_access', 'application_access_grants',
      'application_principals', 'application_credentials', 'application_deployments']) {
      const res = await call(app, 'GET', `/${collection}/${A[collection]}`, { token: a.admin.token });
      expect(res.status, collection).toBe(200);
    }
    const principal = await call(app, 'GET', `/application_principals/${A.application_principals}`, { token: a.admin.token });
    expect(principal.body).toMatchObject({ principal: 'a-only-client', active: true });
    const deployment = await call(app, 'GET', `/application_deployments/${A.application_deployments}`, { token: a.admin.token });
    expect(deployment.body).toMatchObject({ state: 'Stopped', configs: [{ configKey: 'ksml_definition', configValue: KSML_DEFINITION }] });
    // Never written since creation (version 0).
    expect([principal.headers.get('etag'), deployment.headers.get('etag')]).toEqual(['"0"', '"0"']);
    const credentials = await call(app, 'GET', `/application_credentials/search/findByApplicationId?applicationId=${A.applications}`, { token: a.admin.token });
    expect(credentials.body.map((c: any) => c.uid)).toEqual([A.application_credentials]);
    const group = await call(app, 'GET', `/groups/${A.groups}/members`, { token: a.admin.token, headers: { Accept: 'text/uri-list' } });
    expect(group.text).toContain(A.users);
    const grant = await call(app, 'GET', `/application_access_grants/${A.application_access_grants}`, { token: a.admin.token });
    expect(grant.body).toMatchObject({ status: 'Pending', comment: null, processedBy: null });
    const access = await call(app, 'GET', `/application_access/${A.application_access}`, { token: a.admin.token });
    expect(access.body._embedded.grants.map((g: any) => g.uid)).toEqual([A.application_access_grants]);
  });
});
