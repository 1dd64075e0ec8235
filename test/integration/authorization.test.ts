/**
 * GET /auth (docs/contract.md §7.1): parameter handling, 404 before any answer about invisible resources, allow/deny per
 * role and ownership, and agreement with the edit/delete links the same caller sees on the resource itself — for
 * every /auth type, principals, credentials and deployments included (their create under the application, a
 * principal's `activate`, a deployment's operation links).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { requestedGrant } from '../support/fixtures';
import { expectError } from '../support/errors';
import { call, created, expectStatus, lastSegment } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
const who: Record<string, TestUser> = {};
const uid: Record<string, string> = {};

const ask = (token: string, query: Record<string, string>) =>
  call(app, 'GET', `/auth?${new URLSearchParams(query)}`, { token });

const KSML_DEFINITION = 'streams:\n  payments:\n    topic: authz-payments\n    keyType: string\n    valueType: string\npipelines:\n  main:\n    from: payments\n    forEach:\n      code: log.info("x")\n';

/** One API call that must answer `status`; the reply. */
const must = async (method: string, path: string, token: string, status: number, body?: unknown) => expectStatus(await call(app, method, path, { token, body }), status);

/**
 * A Ksml application of the world's app team with a credential (through `POST /application_authentications`), an
 * Approved grant (the Auto environment) and a deployment there, Stopped (docs/contract.md §5.15).
 */
async function ksmlDeployment(w: AccessWorld, tag: string) {
  const token = w.appOwner.token;
  const application = (await must('POST', '/applications', token, 201, {
    applicationId: `io.${tag}.ksml`, name: `${tag} Ksml`, shortName: `${tag}_ksml`, applicationType: 'Ksml', owners: w.appTeam.uid,
  })).body.uid as string;
  const credential = lastSegment((await must('POST', '/application_authentications', token, 201, { applicationId: application, environmentId: w.auto.uid })).headers.get('location'));
  const grant = await must('POST', '/application_access_grants', token, 201, { applicationId: application, streamId: w.stream.uid, environmentId: w.auto.uid, accessType: 'PRODUCER' });
  if (grant.body.status !== 'Approved') throw new Error(`grant in the Auto environment: ${grant.text}`);
  const deployment = lastSegment((await must('POST', '/application_deployments', token, 201, {
    application, environment: w.auto.uid, configs: { ksml_definition: KSML_DEFINITION },
  })).headers.get('location'));
  return { application, credential, deployment };
}

/** The world application's principal (made by accessWorld) and credential, as its tenant's admin finds them. */
async function worldAuthentication(w: AccessWorld, adminToken: string) {
  const principals = await must('GET', `/application_principals/search/findByApplication?application=${w.application.uid}`, adminToken, 200);
  const credentials = await must('GET', `/application_credentials/search/findByApplicationId?applicationId=${w.application.uid}`, adminToken, 200);
  return { principal: principals.body._embedded.application_principals[0].uid as string, credential: credentials.body[0].uid as string };
}

beforeAll(async () => {
  ({ app, t } = await startWithTenant('authz'));
  other = await createTenant(app, 'authz-other');
  who.admin = t.admin;
  who.owner = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'owner');
  who.outsider = await createUser(app, t, ['ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'APPLICATION_AUTHOR'], 'outsider');
  who.envAdmin = await createUser(app, t, ['ENVIRONMENT_ADMIN'], 'envadmin');
  who.nobody = await createUser(app, t, [], 'nobody');
  const tok = t.admin.token;
  const post = async (path: string, body: unknown, token = tok): Promise<string> => (await created(app, path, body, token)).uid;
  uid.cluster = await post('/clusters', { name: 'authz-c', bootstrapServers: ['b:9092'] });
  uid.instance = await post('/instances', { name: 'Authz Inst', shortName: 'authz' });
  uid.owners = await post('/groups', { name: 'Authz Owners', members: [who.owner.user.uid] });
  uid.others = await post('/groups', { name: 'Authz Others' });
  uid.publicEnv = await post('/environments', { name: 'pub', shortName: 'pub', instance: uid.instance, owners: uid.owners }, who.owner.token);
  uid.privateEnv = await post('/environments', { name: 'priv', shortName: 'priv', instance: uid.instance, owners: uid.others, visibility: 'Private', authorizationIssuer: 'Auto' });
  uid.publicApp = await post('/applications', { applicationId: 'authz.pub', name: 'Authz Pub', shortName: 'authz_pub', applicationType: 'Custom', type: 'Java', owners: uid.owners });
  uid.privateApp = await post('/applications', { applicationId: 'authz.priv', name: 'Authz Priv', shortName: 'authz_priv', applicationType: 'Custom', owners: uid.others, visibility: 'Private' });
  uid.publicStream = await post('/streams', { name: 'authz-pub', keyType: 'String', valueType: 'String', owners: uid.owners });
  uid.privateStream = await post('/streams', { name: 'authz-priv', keyType: 'String', valueType: 'String', owners: uid.others, visibility: 'Private' });
  const upload = await call(app, 'POST', '/schemas/upload', { token: tok, body: { schema: '{"type":"record","name":"Authz","namespace":"io.authz","fields":[]}', version: '1', owners: uid.owners } });
  uid.schema = upload.body.schemaUid;
  uid.schemaVersion = upload.body.id;
  uid.streamConfig = await post('/stream_configs', { stream: uid.publicStream, environment: uid.publicEnv });
  uid.tenant = t.tenant.uid;
  uid.ownerUser = who.owner.user.uid;
  uid.adminUser = who.admin.user.uid;
  uid.otherTenant = other.tenant.uid;
  uid.otherCluster = await post('/clusters', { name: 'theirs', bootstrapServers: ['b:9092'] }, other.admin.token);

  // Access grants in every status: the application's owners request, the stream's owners decide.
  const w = await accessWorld(app, t, 'authz');
  who.appOwner = w.appOwner;
  who.streamOwner = w.streamOwner;
  uid.worldApp = w.application.uid;
  const grant = async (stream: any, environment: any, accessType: string, token = w.appOwner.token): Promise<string> =>
    (await requestedGrant(app, token, { application: w.application.uid, stream: stream.uid, environment: environment.uid, accessType })).uid;
  const act = async (method: string, path: string, token: string, expected: number) => {
    const res = await call(app, method, path, { token, body: method === 'DELETE' ? undefined : { reason: 'authz test' } });
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  };
  uid.pendingGrant = await grant(w.stream, w.managed, 'CONSUMER');
  uid.approvedGrant = await grant(w.stream, w.auto, 'CONSUMER');
  uid.rejectedGrant = await grant(w.other, w.managed, 'CONSUMER');
  await act('POST', `/application_access_grants/${uid.rejectedGrant}/deny`, w.streamOwner.token, 200);
  uid.cancelledGrant = await grant(w.other, w.managed, 'PRODUCER');
  await act('DELETE', `/application_access_grants/${uid.cancelledGrant}`, w.appOwner.token, 204);
  uid.revokedGrant = await grant(w.other, w.auto, 'CONSUMER');
  await act('POST', `/application_access_grants/${uid.revokedGrant}/revoke`, w.appOwner.token, 200);

  // Principals, credentials and deployments (docs/contract.md §5.11, §5.12, §5.15, §7): the world application's custom
  // principal (in the "Stream owner" environment, owned by the stream team) and credential (in the Auto one); a
  // Connector with an active and an inactive principal and a Running deployment; a Ksml application with a
  // credential and a Stopped deployment.
  Object.assign(uid, await worldAuthentication(w, tok));
  uid.connectorApp = (await must('POST', '/applications', w.appOwner.token, 201, {
    applicationId: 'io.authz.sink', name: 'authz Sink', shortName: 'authz_sink', applicationType: 'Connector', type: 'SINK',
    applicationClass: 'org.apache.kafka.connect.file.FileStreamSinkConnector', owners: w.appTeam.uid,
  })).body.uid;
  const principal = async (name: string) => lastSegment((await must('POST', '/application_principals', w.appOwner.token, 201, [
    { principal: name, custom: true, application: uid.connectorApp, environment: w.managed.uid },
  ])).body);
  uid.activePrincipal = await principal('authz-sink-active');
  uid.inactivePrincipal = await principal('authz-sink-inactive');
  await must('POST', `/application_authentications/${uid.activePrincipal}/activate`, w.appOwner.token, 200);
  const connectorGrant = await call(app, 'POST', '/application_access_grants', {
    token: w.appOwner.token, body: { applicationId: uid.connectorApp, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' },
  });
  if (connectorGrant.status !== 201) throw new Error(`connector grant: ${connectorGrant.status} ${connectorGrant.text}`);
  await must('PUT', `/application_access_grants/${connectorGrant.body.uid}`, w.streamOwner.token, 200);
  uid.runningDeployment = lastSegment((await must('POST', '/application_deployments', w.appOwner.token, 201, {
    application: uid.connectorApp, environment: w.managed.uid, configs: { topics: 'authz-payments', 'tasks.max': '2' },
  })).headers.get('location'));
  await must('PUT', `/application_deployments/${uid.runningDeployment}/operation?action=START`, w.appOwner.token, 200, { action: 'START' });
  const ksml = await ksmlDeployment(w, 'authz');
  uid.ksmlApp = ksml.application;
  uid.ksmlCredential = ksml.credential;
  uid.stoppedDeployment = ksml.deployment;

  const theirs = await accessWorld(app, other, 'authzo');
  const res = await call(app, 'POST', '/application_access_grants', {
    token: theirs.appOwner.token, body: { applicationId: theirs.application.uid, streamId: theirs.stream.uid, environmentId: theirs.managed.uid, accessType: 'CONSUMER' },
  });
  if (res.status !== 201) throw new Error(`other tenant's grant: ${res.status} ${res.text}`);
  uid.otherGrant = res.body.uid;
  uid.otherApp = theirs.application.uid;
  const theirAuthentication = await worldAuthentication(theirs, other.admin.token);
  uid.otherPrincipal = theirAuthentication.principal;
  uid.otherCredential = theirAuthentication.credential;
  const theirDeployment = await ksmlDeployment(theirs, 'authzo');
  uid.otherDeployment = theirDeployment.deployment;
  uid.otherKsmlApp = theirDeployment.application;
});
afterAll(async () => app?.stop());

describe('GET /auth', () => {
  it('needs a token', async () => {
    const res = await call(app, 'GET', '/auth?action=CLUSTER_VIEW&resourceType=CLUSTER');
    expect(res.status).toBe(401);
  });

  it.each([
    ['no action', { resourceType: 'CLUSTER' }, /^action: is required/],
    ['no resourceType', { action: 'CLUSTER_VIEW' }, /^resourceType: is required/],
    ['unknown action', { action: 'CLUSTER_FLY', resourceType: 'CLUSTER' }, /^action: unknown action 'CLUSTER_FLY'/],
    ['unknown type', { action: 'CLUSTER_VIEW', resourceType: 'SPACESHIP' }, /^resourceType: unknown resource type 'SPACESHIP'/],
    ['action of another type', { action: 'CLUSTER_EDIT', resourceType: 'ENVIRONMENT' }, /^action: CLUSTER_EDIT is not an action on ENVIRONMENT/],
    ['special action of another type', { action: 'GRANT_APPROVE', resourceType: 'APPLICATION' }, /^action: GRANT_APPROVE is not an action on APPLICATION/],
    ['no resourceUid for an item action', { action: 'CLUSTER_EDIT', resourceType: 'CLUSTER' }, /^resourceUid: is required for CLUSTER_EDIT/],
    ['a deployment action on a principal', { action: 'DEPLOYMENT_OPERATE', resourceType: 'APPLICATION_PRINCIPAL' }, /^action: DEPLOYMENT_OPERATE is not an action on APPLICATION_PRINCIPAL/],
    ['a principal action on a credential', { action: 'APPLICATION_PRINCIPAL_VIEW', resourceType: 'APPLICATION_CREDENTIAL' }, /^action: APPLICATION_PRINCIPAL_VIEW is not an action on APPLICATION_CREDENTIAL/],
    ['no resourceUid for an operation', { action: 'DEPLOYMENT_OPERATE', resourceType: 'APPLICATION_DEPLOYMENT' }, /^resourceUid: is required for DEPLOYMENT_OPERATE/],
  ])('400 for %s, naming the parameter', async (_name, query, message) => {
    const res = await ask(who.admin.token, query as Record<string, string>);
    expectError(res, 400);
    expect(res.body.errors[0]).toMatch(message);
  });

  it.each([
    ['an unknown uid', 'admin', 'CLUSTER_VIEW', 'CLUSTER', '0123456789abcdef0123456789abcdef'],
    ['a malformed uid', 'admin', 'CLUSTER_VIEW', 'CLUSTER', 'not-a-uid'],
    ["another tenant's cluster", 'admin', 'CLUSTER_VIEW', 'CLUSTER', 'otherCluster'],
    ["another tenant's cluster, asking to delete", 'admin', 'CLUSTER_DELETE', 'CLUSTER', 'otherCluster'],
    ["another tenant (not a SUPER_ADMIN)", 'admin', 'TENANT_VIEW', 'TENANT', 'otherTenant'],
    ['a Private environment the caller cannot see', 'outsider', 'ENVIRONMENT_EDIT', 'ENVIRONMENT', 'privateEnv'],
    ['a Private application the caller cannot see', 'outsider', 'APPLICATION_VIEW', 'APPLICATION', 'privateApp'],
    ['a Private stream the caller cannot see', 'outsider', 'STREAM_EDIT', 'STREAM', 'privateStream'],
    ['an unknown uid of a held kind', 'admin', 'STREAM_VIEW', 'STREAM', '0123456789abcdef0123456789abcdef'],
    ['an unknown principal', 'admin', 'APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL', '0123456789abcdef0123456789abcdef'],
    ['an unknown credential', 'admin', 'APPLICATION_CREDENTIAL_EDIT', 'APPLICATION_CREDENTIAL', '0123456789abcdef0123456789abcdef'],
    ['an unknown deployment', 'admin', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', '0123456789abcdef0123456789abcdef'],
    ['the parent of a create when it does not exist', 'admin', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', '0123456789abcdef0123456789abcdef'],
    ["another tenant's principal", 'admin', 'APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL', 'otherPrincipal'],
    ["another tenant's credential, asking to delete it", 'admin', 'APPLICATION_CREDENTIAL_DELETE', 'APPLICATION_CREDENTIAL', 'otherCredential'],
    ["another tenant's deployment, asking to operate it", 'admin', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'otherDeployment'],
    ["another tenant's deployment, asking to view it", 'admin', 'APPLICATION_DEPLOYMENT_VIEW', 'APPLICATION_DEPLOYMENT', 'otherDeployment'],
    ["another tenant's application as the parent of a principal", 'admin', 'APPLICATION_PRINCIPAL_CREATE', 'APPLICATION_PRINCIPAL', 'otherApp'],
    ["another tenant's application as the parent of a deployment", 'admin', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', 'otherKsmlApp'],
    // The environment's owners see principals and deployments there, never credentials (docs/contract.md §7).
    ["a credential in an environment the caller owns", 'streamOwner', 'APPLICATION_CREDENTIAL_VIEW', 'APPLICATION_CREDENTIAL', 'credential'],
    ['a principal of an application and an environment the caller does not own', 'outsider', 'APPLICATION_PRINCIPAL_EDIT', 'APPLICATION_PRINCIPAL', 'principal'],
    ['a deployment of an application and an environment the caller does not own', 'outsider', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'runningDeployment'],
    ['a Private application the caller cannot see as the parent of a credential', 'outsider', 'APPLICATION_CREDENTIAL_CREATE', 'APPLICATION_CREDENTIAL', 'privateApp'],
    ['an unknown grant', 'admin', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', '0123456789abcdef0123456789abcdef'],
    ["another tenant's grant", 'admin', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'otherGrant'],
    ["another tenant's grant, asking to view it", 'admin', 'APPLICATION_ACCESS_GRANT_VIEW', 'APPLICATION_ACCESS_GRANT', 'otherGrant'],
    ['a grant of applications, streams and environments the caller does not own', 'outsider', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'pendingGrant'],
    ['a grant the caller cannot see, asking to view it', 'owner', 'APPLICATION_ACCESS_GRANT_VIEW', 'APPLICATION_ACCESS_GRANT', 'approvedGrant'],
    ["another tenant's application as the parent of a grant", 'admin', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'otherApp'],
    ['an unknown application as the parent of a grant', 'appOwner', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', '0123456789abcdef0123456789abcdef'],
    ["another tenant's application, asking to request access for it", 'admin', 'GRANT_REQUEST', 'APPLICATION', 'otherApp'],
    ['a Private application the caller cannot see, asking to request access for it', 'outsider', 'GRANT_REQUEST', 'APPLICATION', 'privateApp'],
  ])('404 for %s', async (_name, caller, action, resourceType, target) => {
    const given = uid[target] ?? target;
    const res = await ask(who[caller].token, { action, resourceType, resourceUid: given });
    expectError(res, 404);
    // Word for word what a uid that never existed gets: nothing confirms that the resource is there.
    const never = '00000000000000000000000000000000';
    const control = await ask(who[caller].token, { action, resourceType, resourceUid: never });
    expect(res.body.errors.map((e: string) => e.replace(given, '<uid>'))).toEqual(control.body.errors.map((e: string) => e.replace(never, '<uid>')));
  });

  it.each([
    // caller, action, type, target, allowed
    ['admin', 'CLUSTER_CREATE', 'CLUSTER', undefined, true],
    ['owner', 'CLUSTER_CREATE', 'CLUSTER', undefined, false],
    ['owner', 'CLUSTER_VIEW', 'CLUSTER', 'cluster', true],
    ['owner', 'CLUSTER_EDIT', 'CLUSTER', 'cluster', false],
    ['admin', 'CLUSTER_DELETE', 'CLUSTER', 'cluster', true],
    ['owner', 'INSTANCE_EDIT', 'INSTANCE', 'instance', false],
    ['admin', 'INSTANCE_EDIT', 'INSTANCE', 'instance', true],
    ['owner', 'ENVIRONMENT_EDIT', 'ENVIRONMENT', 'publicEnv', true],
    ['owner', 'ENVIRONMENT_SYNCHRONIZE', 'ENVIRONMENT', 'publicEnv', true],
    ['outsider', 'ENVIRONMENT_VIEW', 'ENVIRONMENT', 'publicEnv', true],
    ['outsider', 'ENVIRONMENT_EDIT', 'ENVIRONMENT', 'publicEnv', false],
    ['outsider', 'ENVIRONMENT_SYNCHRONIZE', 'ENVIRONMENT', 'publicEnv', false],
    ['envAdmin', 'ENVIRONMENT_DELETE', 'ENVIRONMENT', 'privateEnv', true],
    ['admin', 'ENVIRONMENT_EDIT', 'ENVIRONMENT', 'privateEnv', true],
    ['owner', 'ENVIRONMENT_CREATE', 'ENVIRONMENT', undefined, true],
    ['nobody', 'ENVIRONMENT_CREATE', 'ENVIRONMENT', undefined, false],
    ['outsider', 'STREAM_CREATE', 'STREAM', undefined, true],
    ['outsider', 'TOPIC_CREATE', 'Topic', undefined, true],
    ['nobody', 'STREAM_CREATE', 'stream', undefined, false],
    ['admin', 'STREAM_CREATE', 'STREAM', undefined, true],
    ['outsider', 'APPLICATION_CREATE', 'APPLICATION', undefined, true],
    ['owner', 'APPLICATION_CREATE', 'APPLICATION', undefined, false],
    ['owner', 'APPLICATION_EDIT', 'APPLICATION', 'publicApp', true],
    ['outsider', 'APPLICATION_VIEW', 'APPLICATION', 'publicApp', true],
    ['outsider', 'APPLICATION_DELETE', 'APPLICATION', 'publicApp', false],
    ['admin', 'APPLICATION_DELETE', 'APPLICATION', 'privateApp', true],
    ['owner', 'STREAM_EDIT', 'STREAM', 'publicStream', true],
    ['outsider', 'TOPIC_EDIT', 'Topic', 'publicStream', false],
    ['owner', 'SCHEMA_EDIT', 'SCHEMA', 'schema', true],
    ['owner', 'SCHEMA_TRANSFER_OWNERSHIP', 'SCHEMA', 'schema', true],
    ['outsider', 'SCHEMA_DELETE', 'SCHEMA', 'schema', false],
    ['outsider', 'SCHEMA_VIEW', 'SCHEMA', 'schema', true],
    ['owner', 'SCHEMA_VERSION_DELETE', 'SCHEMA_VERSION', 'schemaVersion', true],
    ['outsider', 'SCHEMA_VERSION_DELETE', 'SCHEMA_VERSION', 'schemaVersion', false],
    ['nobody', 'SCHEMA_CREATE', 'SCHEMA', undefined, true],
    ['admin', 'TENANT_EDIT', 'TENANT', 'tenant', true],
    ['owner', 'TENANT_EDIT', 'TENANT', 'tenant', false],
    ['owner', 'TENANT_VIEW', 'TENANT', 'tenant', true],
    ['admin', 'TENANT_CREATE', 'TENANT', undefined, false],
    ['owner', 'GROUP_VIEW', 'GROUP', 'owners', true],
    ['admin', 'GROUP_DELETE', 'GROUP', 'owners', true],
    ['outsider', 'GROUP_EDIT', 'GROUP', 'owners', false],
    ['owner', 'USER_VIEW', 'USER', 'adminUser', true],
    ['owner', 'USER_EDIT', 'USER', 'ownerUser', true],
    ['owner', 'USER_EDIT', 'USER', 'adminUser', false],
    ['owner', 'USER_ASSIGN_ROLES', 'USER', 'ownerUser', false],
    ['admin', 'USER_ASSIGN_ROLES', 'USER', 'ownerUser', true],
    ['admin', 'USER_DELETE', 'USER', 'ownerUser', true],
    ['admin', 'USER_DELETE', 'USER', 'adminUser', false],
    ['nobody', 'USER_CREATE', 'USER', undefined, false],
    ['admin', 'GROUP_CREATE', 'GROUP', undefined, true],
    ['admin', 'TENANT_WIZARD', 'TENANT', 'tenant', true],
    ['owner', 'TENANT_WIZARD', 'TENANT', 'tenant', false],
    ['owner', 'cluster_view', 'cluster', 'cluster', true],
    ['owner', 'environment-edit', 'Environment', 'publicEnv', true],
    // Access grants (docs/contract.md §6.1, §7): the stream's editors approve and deny, the application's editors cancel,
    // both revoke; EDIT is approve (PUT) and DELETE is cancel.
    ['streamOwner', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['streamOwner', 'GRANT_DENY', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['streamOwner', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['streamOwner', 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['appOwner', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['appOwner', 'GRANT_DENY', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['appOwner', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['appOwner', 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['admin', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['admin', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['streamOwner', 'APPLICATION_ACCESS_GRANT_EDIT', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_EDIT', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_DELETE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['streamOwner', 'APPLICATION_ACCESS_GRANT_DELETE', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', false],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_VIEW', 'APPLICATION_ACCESS_GRANT', 'pendingGrant', true],
    ['streamOwner', 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', true],
    ['appOwner', 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', true],
    ['streamOwner', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', false],
    ['streamOwner', 'GRANT_DENY', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', false],
    ['appOwner', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', false],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_DELETE', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', false],
    ['streamOwner', 'APPLICATION_ACCESS_GRANT_EDIT', 'APPLICATION_ACCESS_GRANT', 'approvedGrant', false],
    ['admin', 'GRANT_REVOKE', 'APPLICATION_ACCESS_GRANT', 'revokedGrant', false],
    ['admin', 'GRANT_APPROVE', 'APPLICATION_ACCESS_GRANT', 'rejectedGrant', false],
    ['admin', 'GRANT_CANCEL', 'APPLICATION_ACCESS_GRANT', 'cancelledGrant', false],
    ['admin', 'APPLICATION_ACCESS_GRANT_VIEW', 'APPLICATION_ACCESS_GRANT', 'cancelledGrant', true],
    ['appOwner', 'grant-approve', 'application access grant', 'pendingGrant', false],
    ['streamOwner', 'grant_approve', 'Application_Access_Grant', 'pendingGrant', true],
    // Requests: the application's editors (its owners, APPLICATION_ADMIN, tenant admins).
    ['appOwner', 'GRANT_REQUEST', 'APPLICATION', 'worldApp', true],
    ['admin', 'GRANT_REQUEST', 'APPLICATION', 'worldApp', true],
    ['streamOwner', 'GRANT_REQUEST', 'APPLICATION', 'worldApp', false],
    ['outsider', 'GRANT_REQUEST', 'APPLICATION', 'worldApp', false],
    ['owner', 'GRANT_REQUEST', 'APPLICATION', 'publicApp', true],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'worldApp', true],
    ['admin', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'worldApp', true],
    ['streamOwner', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'worldApp', false],
    ['outsider', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'worldApp', false],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', 'publicApp', false],
    ['appOwner', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', undefined, true],
    ['nobody', 'APPLICATION_ACCESS_GRANT_CREATE', 'APPLICATION_ACCESS_GRANT', undefined, false],
    // Principals, credentials, deployments (docs/contract.md §7): the application's editors do everything; the
    // environment's owners see principals and deployments there (not credentials) and change nothing.
    ['appOwner', 'APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL', 'principal', true],
    ['appOwner', 'APPLICATION_PRINCIPAL_EDIT', 'APPLICATION_PRINCIPAL', 'principal', true],
    ['appOwner', 'APPLICATION_PRINCIPAL_DELETE', 'APPLICATION_PRINCIPAL', 'inactivePrincipal', true],
    ['streamOwner', 'APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL', 'principal', true],
    ['streamOwner', 'APPLICATION_PRINCIPAL_EDIT', 'APPLICATION_PRINCIPAL', 'principal', false],
    ['streamOwner', 'APPLICATION_PRINCIPAL_DELETE', 'APPLICATION_PRINCIPAL', 'activePrincipal', false],
    ['admin', 'APPLICATION_PRINCIPAL_DELETE', 'APPLICATION_PRINCIPAL', 'activePrincipal', true],
    ['appOwner', 'APPLICATION_CREDENTIAL_VIEW', 'APPLICATION_CREDENTIAL', 'credential', true],
    ['appOwner', 'APPLICATION_CREDENTIAL_EDIT', 'APPLICATION_CREDENTIAL', 'ksmlCredential', true],
    ['appOwner', 'APPLICATION_CREDENTIAL_DELETE', 'APPLICATION_CREDENTIAL', 'ksmlCredential', true],
    ['admin', 'APPLICATION_CREDENTIAL_DELETE', 'APPLICATION_CREDENTIAL', 'credential', true],
    ['appOwner', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'runningDeployment', true],
    ['appOwner', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'stoppedDeployment', true],
    ['admin', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'runningDeployment', true],
    ['streamOwner', 'APPLICATION_DEPLOYMENT_VIEW', 'APPLICATION_DEPLOYMENT', 'runningDeployment', true],
    ['streamOwner', 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', 'runningDeployment', false],
    ['streamOwner', 'APPLICATION_DEPLOYMENT_EDIT', 'APPLICATION_DEPLOYMENT', 'stoppedDeployment', false],
    ['streamOwner', 'APPLICATION_DEPLOYMENT_DELETE', 'APPLICATION_DEPLOYMENT', 'stoppedDeployment', false],
    ['appOwner', 'application-deployment-edit', 'Application Deployment', 'stoppedDeployment', true],
    ['appOwner', 'deployment operate', 'application_deployment', 'stoppedDeployment', true],
    // Creates under an application: its editors (docs/contract.md §7.1: the parent is the application).
    ['appOwner', 'APPLICATION_PRINCIPAL_CREATE', 'APPLICATION_PRINCIPAL', 'connectorApp', true],
    ['streamOwner', 'APPLICATION_PRINCIPAL_CREATE', 'APPLICATION_PRINCIPAL', 'connectorApp', false],
    ['appOwner', 'APPLICATION_CREDENTIAL_CREATE', 'APPLICATION_CREDENTIAL', 'ksmlApp', true],
    ['outsider', 'APPLICATION_CREDENTIAL_CREATE', 'APPLICATION_CREDENTIAL', 'ksmlApp', false],
    ['appOwner', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', 'ksmlApp', true],
    ['admin', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', 'connectorApp', true],
    ['streamOwner', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', 'ksmlApp', false],
    ['appOwner', 'APPLICATION_PRINCIPAL_CREATE', 'APPLICATION_PRINCIPAL', undefined, true],
    ['appOwner', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', undefined, true],
    ['nobody', 'APPLICATION_CREDENTIAL_CREATE', 'APPLICATION_CREDENTIAL', undefined, false],
    ['nobody', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', undefined, false],
  ])('%s asks %s on %s %s → allowed %s', async (caller, action, resourceType, target, allowed) => {
    const query: Record<string, string> = { action, resourceType };
    if (target) query.resourceUid = uid[target];
    const res = await ask(who[caller].token, query);
    expect(res.status).toBe(allowed ? 200 : 403);
    if (allowed) expect(res.text).toBe('');
    else expect(res.body).toMatchObject({ status: 'FORBIDDEN', errors: [expect.stringContaining(action.toUpperCase().replace(/-/g, '_').replace('TOPIC', 'STREAM'))] });
  });

  it('accepts a resource URI or a dashed UUID as resourceUid', async () => {
    const dashed = uid.cluster.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect((await ask(who.admin.token, { action: 'CLUSTER_EDIT', resourceType: 'CLUSTER', resourceUid: dashed })).status).toBe(200);
    expect((await ask(who.admin.token, { action: 'CLUSTER_EDIT', resourceType: 'CLUSTER', resourceUid: `${app.api}/clusters/${uid.cluster}` })).status).toBe(200);
  });

  it('agrees with the edit and delete links each caller sees', async () => {
    const targets: Array<[string, string, string]> = [
      ['CLUSTER', 'clusters', 'cluster'], ['INSTANCE', 'instances', 'instance'], ['GROUP', 'groups', 'owners'],
      ['ENVIRONMENT', 'environments', 'publicEnv'], ['ENVIRONMENT', 'environments', 'privateEnv'],
      ['USER', 'users', 'ownerUser'], ['USER', 'users', 'adminUser'], ['TENANT', 'tenants', 'tenant'],
      ['APPLICATION', 'applications', 'publicApp'], ['APPLICATION', 'applications', 'privateApp'],
      ['STREAM', 'streams', 'publicStream'], ['STREAM', 'streams', 'privateStream'],
      ['SCHEMA', 'schemas', 'schema'], ['SCHEMA_VERSION', 'schema_versions', 'schemaVersion'],
      ['STREAM_CONFIG', 'stream_configs', 'streamConfig'], ['APPLICATION', 'applications', 'worldApp'],
      ...['pendingGrant', 'approvedGrant', 'rejectedGrant', 'cancelledGrant', 'revokedGrant']
        .map((g): [string, string, string] => ['APPLICATION_ACCESS_GRANT', 'application_access_grants', g]),
      ['APPLICATION', 'applications', 'connectorApp'], ['APPLICATION', 'applications', 'ksmlApp'],
      ...['principal', 'activePrincipal', 'inactivePrincipal'].map((p): [string, string, string] => ['APPLICATION_PRINCIPAL', 'application_principals', p]),
      ...['credential', 'ksmlCredential'].map((c): [string, string, string] => ['APPLICATION_CREDENTIAL', 'application_credentials', c]),
      ...['runningDeployment', 'stoppedDeployment'].map((d): [string, string, string] => ['APPLICATION_DEPLOYMENT', 'application_deployments', d]),
    ];
    for (const caller of Object.keys(who)) {
      for (const [type, collection, target] of targets) {
        const item = await call(app, 'GET', `/${collection}/${uid[target]}`, { token: who[caller].token });
        const view = await ask(who[caller].token, { action: `${type}_VIEW`, resourceType: type, resourceUid: uid[target] });
        expect(view.status, `${caller} ${type}_VIEW ${target}`).toBe(item.status === 200 ? 200 : 404);
        if (item.status !== 200) continue;
        for (const verb of ['EDIT', 'DELETE'] as const) {
          const res = await ask(who[caller].token, { action: `${type}_${verb}`, resourceType: type, resourceUid: uid[target] });
          const rel = verb.toLowerCase();
          expect(res.status === 200, `${caller} ${type}_${verb} ${target}`).toBe(item.body._links[rel] !== undefined);
        }
        if (type === 'USER') {
          const res = await ask(who[caller].token, { action: 'USER_ASSIGN_ROLES', resourceType: type, resourceUid: uid[target] });
          expect(res.status === 200, `${caller} USER_ASSIGN_ROLES ${target}`).toBe(item.body._links.assign_roles !== undefined);
        }
        if (type === 'APPLICATION') {
          // GRANT_REQUEST is for the application's editors, the same who see its `edit` link.
          const res = await ask(who[caller].token, { action: 'GRANT_REQUEST', resourceType: type, resourceUid: uid[target] });
          expect(res.status === 200, `${caller} GRANT_REQUEST ${target}`).toBe(item.body._links.edit !== undefined);
          const create = await ask(who[caller].token, { action: 'APPLICATION_ACCESS_GRANT_CREATE', resourceType: 'APPLICATION_ACCESS_GRANT', resourceUid: uid[target] });
          expect(create.status === 200, `${caller} APPLICATION_ACCESS_GRANT_CREATE under ${target}`).toBe(item.body._links.edit !== undefined);
          // Principals, credentials and deployments are created by the application's editors too.
          for (const kind of ['APPLICATION_PRINCIPAL', 'APPLICATION_CREDENTIAL', 'APPLICATION_DEPLOYMENT']) {
            const under = await ask(who[caller].token, { action: `${kind}_CREATE`, resourceType: kind, resourceUid: uid[target] });
            expect(under.status === 200, `${caller} ${kind}_CREATE under ${target}`).toBe(item.body._links.edit !== undefined);
          }
        }
        if (type === 'APPLICATION_PRINCIPAL') {
          // `activate` is offered on an inactive (Connector) principal to those who may edit it.
          const edit = await ask(who[caller].token, { action: 'APPLICATION_PRINCIPAL_EDIT', resourceType: type, resourceUid: uid[target] });
          expect(item.body._links.activate !== undefined, `${caller} activate link on ${target}`).toBe(edit.status === 200 && item.body.active === false);
        }
        if (type === 'APPLICATION_DEPLOYMENT') {
          // DEPLOYMENT_OPERATE answers as the operation links do: `start` on a Stopped deployment, `stop` on a
          // Running one — on the item and on its status alike.
          const operate = await ask(who[caller].token, { action: 'DEPLOYMENT_OPERATE', resourceType: type, resourceUid: uid[target] });
          const rel = item.body.state === 'Running' ? 'stop' : 'start';
          expect(operate.status === 200, `${caller} DEPLOYMENT_OPERATE ${target} (${item.body.state})`).toBe(item.body._links[rel] !== undefined);
          const status = await call(app, 'GET', `/${collection}/${uid[target]}/status`, { token: who[caller].token });
          expect(status.status, `${caller} status of ${target}`).toBe(200);
          expect(operate.status === 200, `${caller} DEPLOYMENT_OPERATE ${target} vs status links`).toBe(status.body._links[rel] !== undefined);
          for (const action of ['start', 'stop', 'restart', 'reset', 'restartTask']) {
            expect(status.body._links[action] !== undefined, `${caller} ${action} link: status vs item of ${target}`).toBe(item.body._links[action] !== undefined);
            if (item.body._links[action] !== undefined) expect(operate.status, `${caller} ${action} link without DEPLOYMENT_OPERATE on ${target}`).toBe(200);
          }
        }
        if (type === 'APPLICATION_ACCESS_GRANT') {
          // Each action link of the grant, and the `/auth` action that asks the same question.
          for (const action of ['approve', 'deny', 'revoke', 'cancel']) {
            const res = await ask(who[caller].token, { action: `GRANT_${action.toUpperCase()}`, resourceType: type, resourceUid: uid[target] });
            expect(res.status === 200, `${caller} GRANT_${action.toUpperCase()} ${target}`).toBe(item.body._links[action] !== undefined);
          }
          // `edit` is approve (PUT), `delete` is cancel (DELETE).
          expect(item.body._links.edit !== undefined, `${caller} edit link = approve link on ${target}`).toBe(item.body._links.approve !== undefined);
          expect(item.body._links.delete !== undefined, `${caller} delete link = cancel link on ${target}`).toBe(item.body._links.cancel !== undefined);
          // The grant search offers the same actions as the item.
          const found = await call(app, 'GET', `/application_access_grants/search/findByAttributes?applicationId=${uid.worldApp}&size=100`, { token: who[caller].token });
          const inSearch = found.body._embedded.applicationAccessGrantResponses.find((g: any) => g.uid === uid[target]);
          const actions = (links: Record<string, unknown>) => ['approve', 'deny', 'revoke', 'cancel'].filter((a) => links[a] !== undefined);
          expect(actions(inSearch?._links ?? {}), `${caller} search links of ${target}`).toEqual(actions(item.body._links));
        }
      }
    }
  });
});
