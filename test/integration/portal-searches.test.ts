/**
 * The searches the portal's My work and catalog ask the API (issue 43): streams whose name contains a text, the
 * caller's own streams and applications, and the grants awaiting the caller's decision or asked for by its
 * applications. Each is a page like every search, sees only what the caller may see, and names a bad value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { call, created, expectStatus } from '../support/http';
import { expectFieldErrors } from '../support/errors';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let outsider: TestUser;
let streamAdmin: TestUser;
let hidden: any;

const G = '/application_access_grants/search/findByAttributes';

const names = (body: any, rel: string) => body._embedded[rel].map((r: any) => r.name ?? r.uid);
const get = async (path: string, token: string) => expectStatus(await call(app, 'GET', path, { token }), 200).body;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('portalsearch'));
  w = await accessWorld(app, t, 'ps');
  outsider = await createUser(app, t, ['STREAM_AUTHOR'], 'ps-outsider');
  streamAdmin = await createUser(app, t, ['STREAM_ADMIN'], 'ps-streamadmin');
  const outsiders = await created(app, '/groups', { name: 'ps Outsiders', members: [outsider.user.uid] }, t.admin.token);
  // A Private stream of another team: the stream owner may not see it, so no search of theirs names it.
  hidden = await created(app, '/streams', { name: 'ps-payments_private', keyType: 'String', valueType: 'String', owners: outsiders.uid, visibility: 'Private' }, outsider.token);
  await worldStream(app, w, 'ps-payouts');
  await created(app, '/application_access_grants', { applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' }, w.appOwner.token);
  await created(app, '/application_access_grants', { applicationId: w.application.uid, streamId: w.other.uid, environmentId: w.managed.uid, accessType: 'PRODUCER' }, w.appOwner.token);
});
afterAll(async () => app?.stop());

describe('GET /streams/search/findByNameContaining', () => {
  it('finds the visible streams whose name contains the text, ignoring case, as a sorted page', async () => {
    const body = await get('/streams/search/findByNameContaining?name=PAY&sort=name,desc', w.streamOwner.token);
    expect(names(body, 'streams')).toEqual(['ps-payouts', 'ps-payments']);
    expect(body.page).toMatchObject({ size: 20, totalElements: 2, totalPages: 1, number: 0 });
    // The owner of the Private stream finds it; a tenant admin sees everything.
    expect(names(await get('/streams/search/findByNameContaining?name=pay', outsider.token), 'streams')).toContain(hidden.name);
    expect(names(await get('/streams/search/findByNameContaining?name=pay&sort=name,asc', t.admin.token), 'streams')).toEqual(['ps-payments', 'ps-payments_private', 'ps-payouts']);
  });

  it('matches %, _ and \\ as themselves', async () => {
    expect(names(await get(`/streams/search/findByNameContaining?name=${encodeURIComponent('%')}`, t.admin.token), 'streams')).toEqual([]);
    // As a wildcard, `_` would match the `-` of ps-payments too.
    expect(names(await get('/streams/search/findByNameContaining?name=s_p', t.admin.token), 'streams')).toEqual(['ps-payments_private']);
    expect(names(await get(`/streams/search/findByNameContaining?name=${encodeURIComponent('\\')}`, t.admin.token), 'streams')).toEqual([]);
  });

  it('pages through the matches', async () => {
    const first = await get('/streams/search/findByNameContaining?name=ps-&size=2&page=0&sort=name,asc', t.admin.token);
    const second = await get('/streams/search/findByNameContaining?name=ps-&size=2&page=1&sort=name,asc', t.admin.token);
    expect(first.page.totalElements).toBe(4);
    expect([...names(first, 'streams'), ...names(second, 'streams')]).toEqual(['ps-payments', 'ps-payments_private', 'ps-payouts', 'ps-refunds']);
  });

  it('names a missing or empty text', async () => {
    expectFieldErrors(await call(app, 'GET', '/streams/search/findByNameContaining', { token: t.admin.token }), ['name']);
    expectFieldErrors(await call(app, 'GET', '/streams/search/findByNameContaining?name=', { token: t.admin.token }), ['name']);
  });
});

describe('findByNameContaining of the other catalogs', () => {
  it('finds applications and environments by a part of their name, ignoring case', async () => {
    expect(names(await get('/applications/search/findByNameContaining?name=BILL', w.streamOwner.token), 'applications')).toEqual(['ps Billing']);
    expect(names(await get('/environments/search/findByNameContaining?name=MANAGED', w.streamOwner.token), 'environments')).toEqual(['ps-managed']);
    expect(names(await get('/schemas/search/findByNameContaining?name=ps-', w.streamOwner.token), 'schemas')).toEqual([]);
  });
});

describe('GET /streams/search/findMine and /applications/search/findMine', () => {
  it("answer the streams and applications of the caller's groups, whatever else it may see", async () => {
    expect(names(await get('/streams/search/findMine?sort=name,asc', w.streamOwner.token), 'streams')).toEqual(['ps-payments', 'ps-payouts', 'ps-refunds']);
    expect(names(await get('/streams/search/findMine', outsider.token), 'streams')).toEqual(['ps-payments_private']);
    expect(names(await get('/applications/search/findMine', w.appOwner.token), 'applications')).toEqual(['ps Billing']);
    expect(names(await get('/applications/search/findMine', w.streamOwner.token), 'applications')).toEqual([]);
    // A tenant admin in no group owns nothing, though it sees everything.
    expect(names(await get('/streams/search/findMine', t.admin.token), 'streams')).toEqual([]);
  });
});

describe('the grant search: awaitingMyDecision and myApplications', () => {
  const search = (query: string, token: string) => get(`${G}?${query}`, token);
  const streamsOf = (body: any) => body._embedded.applicationAccessGrantResponses.map((g: any) => g._embedded.stream.name).sort();

  it("answers a stream owner the pending requests on its streams, each with the approve link", async () => {
    const body = await search('awaitingMyDecision=true', w.streamOwner.token);
    expect(streamsOf(body)).toEqual(['ps-payments', 'ps-refunds']);
    expect(body.page.totalElements).toBe(2);
    for (const g of body._embedded.applicationAccessGrantResponses) {
      expect(g.status).toBe('Pending');
      expect(Object.keys(g._links)).toEqual(expect.arrayContaining(['approve', 'deny']));
    }
  });

  it('answers STREAM_ADMIN every pending request, and the applicant none', async () => {
    expect((await search('awaitingMyDecision=true&size=1', streamAdmin.token)).page.totalElements).toBe(2);
    expect((await search('awaitingMyDecision=true', w.appOwner.token)).page.totalElements).toBe(0);
    expect((await search('awaitingMyDecision=true', outsider.token)).page.totalElements).toBe(0);
  });

  it("answers the applicant its applications' requests", async () => {
    expect(streamsOf(await search('myApplications=true&statuses=Pending', w.appOwner.token))).toEqual(['ps-payments', 'ps-refunds']);
    expect((await search('myApplications=true', w.streamOwner.token)).page.totalElements).toBe(0);
    expect((await search('myApplications=false', w.streamOwner.token)).page.totalElements).toBe(2);
  });

  it('leaves a decided request out of the inbox', async () => {
    const [grant] = (await search('awaitingMyDecision=true&accessType=PRODUCER', w.streamOwner.token))._embedded.applicationAccessGrantResponses;
    const denied = await call(app, 'POST', `/application_access_grants/${grant.uid}/deny`, { token: w.streamOwner.token, body: { reason: 'not now' } });
    expect(denied.status).toBe(200);
    expect(streamsOf(await search('awaitingMyDecision=true', w.streamOwner.token))).toEqual(['ps-payments']);
  });

  it('names a flag that is not a boolean', async () => {
    expectFieldErrors(await call(app, 'GET', `${G}?awaitingMyDecision=maybe`, { token: w.streamOwner.token }), ['awaitingMyDecision']);
  });
});
