/**
 * Issue 33, the graph: who produces to and consumes from a stream, what an application produces to and consumes
 * from, and an environment as nodes and edges. A world of Public and Private streams, applications and
 * environments with grants in every state, seen by a tenant admin, the stream's owner, a member of another team and
 * the owner of the Private rows: nobody is shown a Private row they cannot see (it is counted instead), grants are
 * linked only for who may read them, and another tenant's ids are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { newApplication, requestedGrant } from '../support/fixtures';
import { call, created, expectStatus } from '../support/http';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let outsider: TestUser;
let secretOwner: TestUser;
const x: Record<string, any> = {};

const KSML = ['streams:', '  payments:', '    topic: gr-payments', '    keyType: string', '    valueType: string',
  'pipelines:', '  main:', '    from: payments', '    forEach:', '      code: log.info("payment {}", key)', ''].join('\n');

const grant = (token: string, application: any, stream: any, environment: any, accessType: string) =>
  requestedGrant(app, token, { application: application.uid, stream: stream.uid, environment: environment.uid, accessType });
const act = async (method: string, path: string, token: string) => expectStatus(await call(app, method, path, { token, body: method === 'PUT' ? {} : undefined }), method === 'DELETE' ? 204 : 200);

beforeAll(async () => {
  ({ app, t } = await startWithTenant('graph'));
  w = await accessWorld(app, t, 'gr');
  const admin = t.admin.token;
  outsider = await createUser(app, t, [], 'gr-outsider');
  secretOwner = await createUser(app, t, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR', 'ENVIRONMENT_AUTHOR'], 'gr-secret');
  await created(app, '/groups', { name: 'gr Outsiders', members: [outsider.user.uid] }, admin);
  x.secretTeam = await created(app, '/groups', { name: 'gr Secret Team', members: [secretOwner.user.uid] }, admin);
  const s = secretOwner.token;

  // A Private environment the stream's team may use (a viewer) and the outsider cannot see.
  x.privateEnv = await created(app, '/environments', {
    name: 'gr-private', shortName: 'grprivate', instance: w.instance.uid, owners: x.secretTeam.uid, visibility: 'Private', viewers: [w.streamTeam.uid], authorizationIssuer: 'Auto',
  }, admin);
  await created(app, '/stream_configs', { stream: w.stream.uid, environment: x.privateEnv.uid }, w.streamOwner.token);

  // A Private application of another team: consumer of the stream in auto, a pending producer in managed.
  x.secretApp = await created(app, '/applications', {
    applicationId: 'io.gr.secret', name: 'gr Secret', shortName: 'gr_secret', applicationType: 'Custom', type: 'Java', owners: x.secretTeam.uid, visibility: 'Private',
  }, s);
  await created(app, '/application_authentications', { applicationId: x.secretApp.uid, environmentId: w.auto.uid, target: 'KAFKA' }, s);
  await created(app, '/application_principals', [{ principal: 'gr-secret-client', custom: true, application: x.secretApp.uid, environment: w.managed.uid }], s);
  x.secretConsumes = await grant(s, x.secretApp, w.stream, w.auto, 'CONSUMER');
  x.secretPending = await grant(s, x.secretApp, w.stream, w.managed, 'PRODUCER');

  // A Private stream of that team, viewed by the application's team, which produces to it.
  x.secretStream = await created(app, '/streams', { name: 'gr-secret', keyType: 'String', valueType: 'String', owners: x.secretTeam.uid, visibility: 'Private', viewers: [w.appTeam.uid] }, s);
  await created(app, '/stream_configs', { stream: x.secretStream.uid, environment: w.auto.uid }, s);
  x.producesSecret = await grant(w.appOwner.token, w.application, x.secretStream, w.auto, 'PRODUCER');

  // The Public application: Approved consumer and producer in auto, a Pending consumer in managed, and one grant
  // each Rejected, Cancelled and Revoked, which no graph shows.
  const o = w.appOwner.token;
  x.consumes = await grant(o, w.application, w.stream, w.auto, 'CONSUMER');
  x.produces = await grant(o, w.application, w.stream, w.auto, 'PRODUCER');
  x.pending = await grant(o, w.application, w.stream, w.managed, 'CONSUMER');
  const denied = await grant(o, w.application, w.stream, w.managed, 'PRODUCER');
  await act('POST', `/application_access_grants/${denied.uid}/deny`, w.streamOwner.token);
  const cancelled = await grant(o, w.application, w.stream, w.managed, 'PRODUCER');
  await act('DELETE', `/application_access_grants/${cancelled.uid}`, o);
  const revoked = await grant(o, w.application, w.other, w.auto, 'CONSUMER');
  await act('POST', `/application_access_grants/${revoked.uid}/revoke`, o);
  x.over = [denied.uid, cancelled.uid, revoked.uid];

  // A Ksml application deployed in auto (Stopped): its deployment's state shows.
  x.ksml = await newApplication(app, o, { tag: 'gr', owners: w.appTeam.uid, kind: 'Ksml' });
  await created(app, '/application_authentications', { applicationId: x.ksml.uid, environmentId: w.auto.uid, target: 'KAFKA' }, o);
  x.ksmlConsumes = await grant(o, x.ksml, w.stream, w.auto, 'CONSUMER');
  expectStatus(await call(app, 'POST', '/application_deployments', { token: o, body: { application: x.ksml.uid, environment: w.auto.uid, configs: { ksml_definition: KSML } } }), 201);
}, 180_000);
afterAll(async () => app?.stop());

const get = async (path: string, token: string) => expectStatus(await call(app, 'GET', path, { token }), 200);
const uids = (list: any[]) => list.map((n) => n.uid).sort();
const byShortName = (body: any) => Object.fromEntries(body.environments.map((e: any) => [e.environment.shortName, e]));

/** Nothing of the Private rows the caller cannot see: no uid, no name. */
function expectNothingOf(text: string, ...rows: any[]) {
  for (const row of rows) {
    expect(text).not.toContain(row.uid);
    expect(text).not.toContain(row.name);
  }
}

describe('GET /streams/{id}/graph', () => {
  it('a tenant admin sees every open grant per environment, with the grants linked, and nothing that is over', async () => {
    const { body, text } = await get(`/streams/${w.stream.uid}/graph`, t.admin.token);
    expect(body.environments.map((e: any) => e.environment.shortName)).toEqual(['grauto', 'grmanaged', 'grprivate']);
    const { grauto: auto, grmanaged: managed, grprivate: priv } = byShortName(body);
    expect(uids(auto.producers)).toEqual([w.application.uid]);
    expect(uids(auto.consumers)).toEqual(uids([w.application, x.ksml, x.secretApp]));
    expect(auto.pendingRequests).toEqual([]);
    expect(managed.pendingRequests.map((p: any) => [p.uid, p.accessType]).sort()).toEqual([[w.application.uid, 'CONSUMER'], [x.secretApp.uid, 'PRODUCER']].sort());
    expect([managed.producers, managed.consumers, priv.producers, priv.consumers, priv.pendingRequests]).toEqual([[], [], [], [], []]);
    for (const e of [auto, managed, priv]) expect([e.hiddenProducers, e.hiddenConsumers, e.hiddenPendingRequests]).toEqual([0, 0, 0]);
    expect(body.hiddenEnvironments).toBe(0);
    const producer = auto.producers[0];
    expect(producer).toMatchObject({ grant: x.produces.uid, status: 'Approved', accessType: 'PRODUCER', owners: { uid: w.appTeam.uid, name: w.appTeam.name }, applicationType: 'Custom', type: 'Java' });
    expect(producer).not.toHaveProperty('deploymentState');
    expect(producer._links.applicationAccessGrant.href).toBe(`${app.api}/application_access_grants/${x.produces.uid}`);
    expect(producer._links.application.href).toBe(`${app.api}/applications/${w.application.uid}`);
    const stored = await get(`/application_access_grants/${x.produces.uid}`, t.admin.token);
    expect([producer.requested_at, producer.requestedBy]).toEqual([stored.body.requested_at, stored.body.requestedBy]);
    expect(auto._links.streamConfig.href).toMatch(new RegExp(`/stream_configs/${auto.streamConfig}$`));
    for (const uid of x.over) expect(text).not.toContain(uid);
  });

  it("a grant's end shows where the grant is readable, in the stream's and the application's graph", async () => {
    const end = '2099-01-01T00:00:00.000Z';
    await app.models.ApplicationAccessGrant.update({ expiresAt: new Date(end) }, { where: { uid: x.consumes.uid } });
    try {
      expect((await get(`/application_access_grants/${x.consumes.uid}`, t.admin.token)).body.expiresAt).toBe(end);
      const consumers = byShortName((await get(`/streams/${w.stream.uid}/graph`, t.admin.token)).body).grauto.consumers;
      expect(consumers.find((c: any) => c.grant === x.consumes.uid).expiresAt).toBe(end);
      expect(consumers.find((c: any) => c.grant === x.ksmlConsumes.uid).expiresAt).toBeNull();
      const consumesFrom = byShortName((await get(`/applications/${w.application.uid}/graph`, w.appOwner.token)).body).grauto.consumesFrom;
      expect(consumesFrom.find((c: any) => c.grant === x.consumes.uid).expiresAt).toBe(end);
      const seen = byShortName((await get(`/streams/${w.stream.uid}/graph`, outsider.token)).body).grauto.consumers;
      expect(seen.find((c: any) => c.uid === w.application.uid)).not.toHaveProperty('expiresAt');
    } finally {
      await app.models.ApplicationAccessGrant.update({ expiresAt: null }, { where: { uid: x.consumes.uid } });
    }
  });

  it('a Ksml (or Connector) application shows its deployment state there', async () => {
    const { body } = await get(`/streams/${w.stream.uid}/graph`, t.admin.token);
    const ksml = byShortName(body).grauto.consumers.find((c: any) => c.uid === x.ksml.uid);
    expect(ksml.deploymentState).toBe('Stopped');
  });

  it('the stream owner reads every grant on it, but a Private application of another team is only counted', async () => {
    const { body, text } = await get(`/streams/${w.stream.uid}/graph`, w.streamOwner.token);
    const { grauto: auto, grmanaged: managed } = byShortName(body);
    expect(uids(auto.consumers)).toEqual(uids([w.application, x.ksml]));
    expect([auto.hiddenConsumers, managed.hiddenPendingRequests]).toEqual([1, 1]);
    expect(auto.consumers.every((c: any) => c.grant && c._links.applicationAccessGrant)).toBe(true);
    expectNothingOf(text, x.secretApp);
  });

  it('a member of another team sees the Public applications, counts the rest, and reads no grant', async () => {
    const { body, text } = await get(`/streams/${w.stream.uid}/graph`, outsider.token);
    expect(body.environments.map((e: any) => e.environment.shortName)).toEqual(['grauto', 'grmanaged']);
    expect(body.hiddenEnvironments).toBe(1);
    const { grauto: auto, grmanaged: managed } = byShortName(body);
    expect(uids(auto.consumers)).toEqual(uids([w.application, x.ksml]));
    expect([auto.hiddenProducers, auto.hiddenConsumers, managed.hiddenPendingRequests]).toEqual([0, 1, 1]);
    for (const node of [...auto.producers, ...auto.consumers, ...managed.pendingRequests]) {
      expect(node).not.toHaveProperty('grant');
      expect(node).not.toHaveProperty('requestedBy');
      expect(node._links).not.toHaveProperty('applicationAccessGrant');
    }
    expectNothingOf(text, x.secretApp, x.privateEnv, x.secretConsumes, x.secretPending);
    expect(text).not.toContain(x.produces.uid);
  });

  it("the Private rows' owner sees them, and reads only the grants of what it owns", async () => {
    const { body } = await get(`/streams/${w.stream.uid}/graph`, secretOwner.token);
    const { grauto: auto } = byShortName(body);
    expect(uids(auto.consumers)).toEqual(uids([w.application, x.ksml, x.secretApp]));
    const mine = auto.consumers.find((c: any) => c.uid === x.secretApp.uid);
    expect(mine.grant).toBe(x.secretConsumes.uid);
    expect(auto.consumers.find((c: any) => c.uid === w.application.uid)).not.toHaveProperty('grant');
  });

  it('?environment= narrows to one environment; one the caller cannot see, or none, is 400 naming it', async () => {
    const { body } = await get(`/streams/${w.stream.uid}/graph?environment=${w.managed.uid}`, outsider.token);
    expect(body.environments.map((e: any) => e.environment.uid)).toEqual([w.managed.uid]);
    expect(body._links.self.href).toContain(`environment=${w.managed.uid}`);
    for (const value of [x.privateEnv.uid, 'f'.repeat(32), 'nonsense']) {
      const res = await call(app, 'GET', `/streams/${w.stream.uid}/graph?environment=${value}`, { token: outsider.token });
      expectError(res, 400, { field: 'environment' });
      expect(res.text).not.toContain(x.privateEnv.name);
    }
  });

  it('a Private stream the caller cannot see is 404, as an unknown one', async () => {
    const hidden = await call(app, 'GET', `/streams/${x.secretStream.uid}/graph`, { token: outsider.token });
    expectError(hidden, 404);
    expect(hidden.text).not.toContain(x.secretStream.name);
    expectError(await call(app, 'GET', `/streams/${'a'.repeat(32)}/graph`, { token: outsider.token }), 404);
  });
});

describe('GET /applications/{id}/graph', () => {
  it('the application owner sees the streams it produces to and consumes from, the Private one it views included', async () => {
    const { body, text } = await get(`/applications/${w.application.uid}/graph`, w.appOwner.token);
    expect(body.environments.map((e: any) => e.environment.shortName)).toEqual(['grauto', 'grmanaged']);
    const { grauto: auto, grmanaged: managed } = byShortName(body);
    expect(uids(auto.producesTo)).toEqual(uids([w.stream, x.secretStream]));
    expect(uids(auto.consumesFrom)).toEqual([w.stream.uid]);
    expect(managed.pendingRequests.map((p: any) => [p.uid, p.accessType])).toEqual([[w.stream.uid, 'CONSUMER']]);
    expect(auto).not.toHaveProperty('deploymentState');
    const secret = auto.producesTo.find((p: any) => p.uid === x.secretStream.uid);
    expect(secret).toMatchObject({ grant: x.producesSecret.uid, visibility: 'Private', owners: { uid: x.secretTeam.uid } });
    expect(secret._links.streamConfig).toBeDefined();
    for (const uid of x.over) expect(text).not.toContain(uid);
  });

  it('a member of another team counts the Private stream instead', async () => {
    const { body, text } = await get(`/applications/${w.application.uid}/graph`, outsider.token);
    const { grauto: auto } = byShortName(body);
    expect(uids(auto.producesTo)).toEqual([w.stream.uid]);
    expect(auto.hiddenProducesTo).toBe(1);
    expectNothingOf(text, x.secretStream, x.producesSecret);
  });

  it('a Ksml application shows its deployment state per environment; a Private application of another team is 404', async () => {
    const { body } = await get(`/applications/${x.ksml.uid}/graph?environment=${w.auto.uid}`, outsider.token);
    expect(body.environments).toHaveLength(1);
    expect(body.environments[0].deploymentState).toBe('Stopped');
    expectError(await call(app, 'GET', `/applications/${x.secretApp.uid}/graph`, { token: outsider.token }), 404);
    const admin = await get(`/applications/${x.secretApp.uid}/graph`, t.admin.token);
    expect(byShortName(admin.body).grauto.consumesFrom.map((s: any) => s.uid)).toEqual([w.stream.uid]);
  });
});

describe('GET /environments/{id}/graph', () => {
  it('a page of streams in name order with their Approved edges; applications once each', async () => {
    const { body } = await get(`/environments/${w.auto.uid}/graph?size=20`, t.admin.token);
    expect(body.nodes.streams.map((s: any) => s.name)).toEqual(['gr-payments', 'gr-refunds', 'gr-secret']);
    expect(body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const edges = body.edges.map((e: any) => `${e.kind} ${e.stream} ${e.application}`).sort();
    expect(edges).toEqual([
      `consume ${w.stream.uid} ${w.application.uid}`, `consume ${w.stream.uid} ${x.ksml.uid}`, `consume ${w.stream.uid} ${x.secretApp.uid}`,
      `produce ${w.stream.uid} ${w.application.uid}`, `produce ${x.secretStream.uid} ${w.application.uid}`,
    ].sort());
    expect(uids(body.nodes.applications)).toEqual(uids([w.application, x.ksml, x.secretApp]));
    expect(body.nodes.applications.find((a: any) => a.uid === x.ksml.uid).deploymentState).toBe('Stopped');
    expect(body.edges.every((e: any) => e.grant && e._links.applicationAccessGrant)).toBe(true);
  });

  it('a member of another team: no Private stream on any page, Private applications counted on their streams', async () => {
    const { body, text } = await get(`/environments/${w.auto.uid}/graph`, outsider.token);
    expect(body.nodes.streams.map((s: any) => s.name)).toEqual(['gr-payments', 'gr-refunds']);
    expect(body.page.totalElements).toBe(2);
    const payments = body.nodes.streams[0];
    expect([payments.hiddenProducers, payments.hiddenConsumers]).toEqual([0, 1]);
    expect(uids(body.nodes.applications)).toEqual(uids([w.application, x.ksml]));
    expect(body.edges.some((e: any) => 'grant' in e)).toBe(false);
    expectNothingOf(text, x.secretApp, x.secretStream);
  });

  it('pages by stream: page and size as every collection, with its links; a page past the end still counts', async () => {
    const pages = [];
    for (let page = 0; page < 3; page++) pages.push((await get(`/environments/${w.auto.uid}/graph?page=${page}&size=1`, t.admin.token)).body);
    expect(pages.map((p) => p.nodes.streams.map((s: any) => s.name))).toEqual([['gr-payments'], ['gr-refunds'], ['gr-secret']]);
    expect(pages.map((p) => p.page.totalElements)).toEqual([3, 3, 3]);
    expect(pages[0]._links.next.href).toContain('page=1&size=1');
    expect(pages[0]._links).not.toHaveProperty('prev');
    expect(pages[2]._links.last.href).toContain('page=2&size=1');
    expect(pages[2]._links).not.toHaveProperty('next');
    // Each page has the edges of its own stream only.
    expect(pages[1].edges).toEqual([]);
    expect(pages[2].edges.map((e: any) => e.application)).toEqual([w.application.uid]);
    const past = (await get(`/environments/${w.auto.uid}/graph?page=5&size=1`, t.admin.token)).body;
    expect(past.nodes).toEqual({ streams: [], applications: [] });
    expect(past.page).toEqual({ size: 1, totalElements: 3, totalPages: 3, number: 5 });
    expectError(await call(app, 'GET', `/environments/${w.auto.uid}/graph?size=0`, { token: t.admin.token }), 400, { field: 'size' });
  });

  it('a Private environment the caller cannot see is 404', async () => {
    expectError(await call(app, 'GET', `/environments/${x.privateEnv.uid}/graph`, { token: outsider.token }), 404);
    const seen = await get(`/environments/${x.privateEnv.uid}/graph`, w.streamOwner.token);
    expect(seen.body.nodes.streams.map((s: any) => s.uid)).toEqual([w.stream.uid]);
  });
});

describe('graph links and tenancy', () => {
  it('stream, application and environment items link their graph', async () => {
    for (const [collection, uid] of [['streams', w.stream.uid], ['applications', w.application.uid], ['environments', w.auto.uid]]) {
      const { body } = await get(`/${collection}/${uid}`, outsider.token);
      expect(body._links.graph.href).toBe(`${app.api}/${collection}/${uid}/graph`);
      expectStatus(await call(app, 'GET', body._links.graph.href, { token: outsider.token }), 200);
    }
  });

  it("another tenant's stream, application and environment are 404", async () => {
    const other = await createTenant(app, 'graphother');
    const ow = await accessWorld(app, other, 'go');
    for (const path of [`/streams/${ow.stream.uid}/graph`, `/applications/${ow.application.uid}/graph`, `/environments/${ow.auto.uid}/graph`]) {
      const res = await call(app, 'GET', path, { token: t.admin.token });
      expectError(res, 404);
      expect(res.text).not.toContain('go-');
    }
    // And an environment of another tenant as the filter is unknown here.
    expectError(await call(app, 'GET', `/streams/${w.stream.uid}/graph?environment=${ow.auto.uid}`, { token: t.admin.token }), 400, { field: 'environment' });
  });
});
