/**
 * GET /auth (CONTRACT §7.1): parameter handling, 404 before any answer about invisible resources, allow/deny per
 * role and ownership, and agreement with the edit/delete links the same caller sees on the resource itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld } from '../support/access-world';
import { call, createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
const who: Record<string, TestUser> = {};
const uid: Record<string, string> = {};

const ask = (token: string, query: Record<string, string>) =>
  call(app, 'GET', `/auth?${new URLSearchParams(query)}`, { token });

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'authz');
  other = await createTenant(app, 'authz-other');
  who.admin = t.admin;
  who.owner = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'owner');
  who.outsider = await createUser(app, t, ['ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'APPLICATION_AUTHOR'], 'outsider');
  who.envAdmin = await createUser(app, t, ['ENVIRONMENT_ADMIN'], 'envadmin');
  who.nobody = await createUser(app, t, [], 'nobody');
  const tok = t.admin.token;
  const post = async (path: string, body: unknown, token = tok) => {
    const res = await call(app, 'POST', path, { token, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.uid as string;
  };
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
  const grant = async (stream: any, environment: any, accessType: string, token = w.appOwner.token) => {
    const res = await call(app, 'POST', '/application_access_grants', { token, body: { applicationId: w.application.uid, streamId: stream.uid, environmentId: environment.uid, accessType } });
    if (res.status !== 201) throw new Error(`/application_access_grants: ${res.status} ${res.text}`);
    return res.body.uid as string;
  };
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
  const theirs = await accessWorld(app, other, 'authzo');
  const res = await call(app, 'POST', '/application_access_grants', {
    token: theirs.appOwner.token, body: { applicationId: theirs.application.uid, streamId: theirs.stream.uid, environmentId: theirs.managed.uid, accessType: 'CONSUMER' },
  });
  if (res.status !== 201) throw new Error(`other tenant's grant: ${res.status} ${res.text}`);
  uid.otherGrant = res.body.uid;
  uid.otherApp = theirs.application.uid;
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
  ])('400 for %s, naming the parameter', async (_name, query, message) => {
    const res = await ask(who.admin.token, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('BAD_REQUEST');
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
    ['any uid of a kind not held yet', 'admin', 'APPLICATION_PRINCIPAL_VIEW', 'APPLICATION_PRINCIPAL', '0123456789abcdef0123456789abcdef'],
    ['the parent of a create when it does not exist', 'admin', 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', '0123456789abcdef0123456789abcdef'],
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
    expect(res.status).toBe(404);
    expect(res.body.status).toBe('NOT_FOUND');
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
    // Access grants (CONTRACT §6.1, §7): the stream's editors approve and deny, the application's editors cancel,
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
