/**
 * An Approved grant past its `expiresAt` that the sweep has not yet revoked answers `approved: false`, and every
 * graph agrees: the stream's, the application's and the environment's draw it neither as a producer or consumer nor
 * as a hidden one, while a grant still in effect beside it is drawn as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { newApplication, requestedGrant } from '../support/fixtures';
import { call, created, expectStatus } from '../support/http';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let stream: any;
/** Its one grant, a producer and a consumer in the Auto environment, has ended. */
let ended: any;
let endedGrants: any[];
/** Consumes the same stream there, with no end. */
let live: any;
let liveGrant: any;

const get = async (path: string) => expectStatus(await call(app, 'GET', path, { token: t.admin.token }), 200).body;
const entryOf = (graph: any, environment: any) => graph.environments.find((e: any) => e.environment.uid === environment.uid);

beforeAll(async () => {
  ({ app, t } = await startWithTenant('graph-expiry'));
  w = await accessWorld(app, t, 'gx');
  stream = await worldStream(app, w, 'gx-ending');
  const o = w.appOwner.token;
  const application = async () => {
    const made = await newApplication(app, o, { tag: 'gx', owners: w.appTeam.uid });
    await created(app, '/application_authentications', { applicationId: made.uid, environmentId: w.auto.uid, target: 'KAFKA' }, o);
    return made;
  };
  const grant = (of: any, accessType: string) => requestedGrant(app, o, { application: of.uid, stream: stream.uid, environment: w.auto.uid, accessType });
  ended = await application();
  endedGrants = [await grant(ended, 'PRODUCER'), await grant(ended, 'CONSUMER')];
  live = await application();
  liveGrant = await grant(live, 'CONSUMER');
  for (const g of [...endedGrants, liveGrant]) expect(g).toMatchObject({ status: 'Approved', approved: true });
  // Past their end, as the sweep (not run in the tests unless asked) would find them.
  await app.models.ApplicationAccessGrant.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { uid: endedGrants.map((g) => g.uid) } });
}, 120_000);
afterAll(async () => app?.stop());

describe('an Approved grant past its end, not yet swept', () => {
  it('answers approved: false, still Approved', async () => {
    for (const g of endedGrants) expect(await get(`/application_access_grants/${g.uid}`)).toMatchObject({ status: 'Approved', approved: false });
    expect(await get(`/application_access_grants/${liveGrant.uid}`)).toMatchObject({ status: 'Approved', approved: true });
  });

  it("is no producer or consumer in the stream's graph", async () => {
    const auto = entryOf(await get(`/streams/${stream.uid}/graph`), w.auto);
    expect(auto.producers).toEqual([]);
    expect(auto.consumers.map((c: any) => [c.uid, c.grant])).toEqual([[live.uid, liveGrant.uid]]);
    expect([auto.pendingRequests, auto.hiddenProducers, auto.hiddenConsumers, auto.hiddenPendingRequests]).toEqual([[], 0, 0, 0]);
  });

  it("leaves the application's graph without the environment where it was its only access", async () => {
    const graph = await get(`/applications/${ended.uid}/graph`);
    expect(graph.environments).toEqual([]);
    expect(graph.hiddenEnvironments).toBe(0);
    const beside = entryOf(await get(`/applications/${live.uid}/graph`), w.auto);
    expect(beside.consumesFrom.map((s: any) => s.uid)).toEqual([stream.uid]);
  });

  it("is no edge and no application node in the environment's graph; the stream stays a node", async () => {
    const graph = await get(`/environments/${w.auto.uid}/graph?size=100`);
    expect(graph.nodes.streams.map((s: any) => s.uid)).toContain(stream.uid);
    const node = graph.nodes.streams.find((s: any) => s.uid === stream.uid);
    expect([node.hiddenProducers, node.hiddenConsumers]).toEqual([0, 0]);
    expect(graph.edges.filter((e: any) => e.stream === stream.uid).map((e: any) => [e.kind, e.application])).toEqual([['consume', live.uid]]);
    expect(graph.nodes.applications.map((a: any) => a.uid)).not.toContain(ended.uid);
  });
});
