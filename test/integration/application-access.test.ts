/**
 * Application access end to end (docs/contract.md §5.13, §5.14, §6.1, §7, §7.1, §8): an application owner and a stream
 * owner in different groups request, approve, deny, cancel and revoke grants through `/application_access_grants`
 * and `/application_access/{id}/grants`; every illegal move and missing right; one open grant per
 * application+stream+environment+accessType (also under concurrent HTTP calls); request preconditions and
 * reference checks; the findByAttributes search and visibility;
 * the access rows and their searches; the audit rows each transition writes; delete blockers and cascades of
 * applications, environments, streams and stream configs; and `GET /auth` agreeing with the action links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKey } from '../../models/application-access';
import { accessWorld, insertCredential, insertPrincipal, type AccessWorld } from '../support/access-world';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { BAD_BODY, expectError } from '../support/errors';
import { configuredStream, newApplication } from '../support/fixtures';
import { authAnswer, call, created, expectStatus, type CallResult } from '../support/http';

const GRANTS = '/application_access_grants';
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const CANCEL_APPROVED = 'Application Access Grant cannot be cancelled. Please Revoke first.';
type Status = 'Pending' | 'Approved' | 'Rejected' | 'Revoked' | 'Cancelled';
type Action = 'approve' | 'deny' | 'revoke' | 'cancel';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
/** Member of a group that owns nothing here; APPLICATION_AUTHOR and STREAM_AUTHOR all the same. */
let stranger: TestUser;
/** A `Stream owner` environment where nothing is configured and no application authenticates. */
let bare: any;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('acc'));
  w = await accessWorld(app, t, 'aa');
  stranger = await createUser(app, t, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR'], 'stranger');
  await adminPost('/groups', { name: 'aa Strangers', members: [stranger.user.uid] });
  bare = await adminPost('/environments', { name: 'aa-bare', shortName: 'aabare', instance: w.instance.uid, owners: w.streamTeam.uid });
});
afterAll(async () => app?.stop());

// ---------------------------------------------------------------------------------------------------------------
// helpers

const adminPost = (path: string, body: unknown) => created(app, path, body, t.admin.token);

/** A new application of the app team that authenticates in both world environments (principal in managed, credential in auto). */
async function freshApp(): Promise<any> {
  const application = await newApplication(app, w.appOwner.token, { tag: 'aa', owners: w.appTeam.uid });
  await insertPrincipal(app, t.tenant.uid, application.uid, w.managed.uid);
  await insertCredential(app, t.tenant.uid, application.uid, w.auto.uid);
  return application;
}

/** A new stream of the stream team, configured in `managed`. */
async function freshStream(): Promise<{ stream: any; config: any }> {
  n += 1;
  const { stream, configs } = await configuredStream(app, w.streamOwner.token, { name: `aa-fresh-${n}`, owners: w.streamTeam.uid, environments: [w.managed.uid] });
  return { stream, config: configs[0] };
}

interface Req { stream?: any; environment?: any; accessType?: string; token?: string }
const request = (application: any, r: Req = {}) => call(app, 'POST', GRANTS, {
  token: r.token ?? w.appOwner.token,
  body: { applicationId: application.uid, streamId: (r.stream ?? w.stream).uid, environmentId: (r.environment ?? w.managed).uid, accessType: r.accessType ?? 'CONSUMER' },
});
const requested = async (application: any, r: Req = {}): Promise<any> => expectStatus(await request(application, r), 201).body;

const approve = (uid: string, token = w.streamOwner.token) => call(app, 'PUT', `${GRANTS}/${uid}`, { token });
const deny = (uid: string, reason?: string, token = w.streamOwner.token) =>
  call(app, 'POST', `${GRANTS}/${uid}/deny`, { token, body: reason === undefined ? undefined : { reason } });
const revoke = (uid: string, reason?: string, token = w.streamOwner.token) =>
  call(app, 'POST', `${GRANTS}/${uid}/revoke`, { token, body: reason === undefined ? undefined : { reason } });
const cancel = (uid: string, token = w.appOwner.token) => call(app, 'DELETE', `${GRANTS}/${uid}`, { token });
const getGrant = (uid: string, token = w.streamOwner.token) => call(app, 'GET', `${GRANTS}/${uid}`, { token });
const search = (query: string, token = w.streamOwner.token) => call(app, 'GET', `${GRANTS}/search/findByAttributes?${query}`, { token });
const items = (res: CallResult) => res.body._embedded.applicationAccessGrantResponses as any[];

/** A grant of `application` (a fresh one unless given) on `stream` in `managed`, driven to `status` by the two owners. */
async function grantIn(status: Status, application?: any): Promise<string> {
  const uid = (await requested(application ?? (await freshApp()))).uid as string;
  if (status === 'Approved' || status === 'Revoked') expectStatus(await approve(uid), 200);
  if (status === 'Revoked') expectStatus(await revoke(uid), 200);
  if (status === 'Rejected') expectStatus(await deny(uid), 200);
  if (status === 'Cancelled') expectStatus(await cancel(uid), 204);
  expect((await getGrant(uid)).body.status).toBe(status);
  return uid;
}

const ACTION_LINKS = ['approve', 'deny', 'cancel', 'revoke'] as const;
const actionLinks = (links: Record<string, unknown>) => ACTION_LINKS.filter((a) => a in links);

/** The grant transitions of an application's audit rows, oldest first. */
const grantAudit = (applicationUid: string) => auditOf(app, applicationUid, 'APPLICATION_ACCESS_');

// ---------------------------------------------------------------------------------------------------------------

describe('requesting and deciding: an application owner and a stream owner in different groups', () => {
  it('in a Stream owner environment: Pending, approved by the stream owner, then revoked with a reason', async () => {
    const { application, stream, managed, appOwner, streamOwner } = w;
    const res = await request(application, { accessType: 'CONSUMER' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const g = res.body;
    expect(res.headers.get('location')).toBe(`${app.api}${GRANTS}/${g.uid}`);
    expect(g._links).toBeUndefined();
    expect(g).toMatchObject({
      id: g.uid, status: 'Pending', accessType: 'CONSUMER', comment: null, requestedBy: appOwner.email, processedBy: null,
      pending: true, approved: false, processed_at: null,
      application: { id: application.uid, uid: application.uid, name: application.name, shortName: application.shortName },
      stream: { id: stream.uid, uid: stream.uid, name: stream.name },
      environment: {
        id: managed.uid, uid: managed.uid, shortName: managed.shortName, authorizationIssuer: 'Stream owner',
        instance: { id: w.instance.uid }, owners: { id: w.streamTeam.uid },
      },
    });
    expect(g.uid).toMatch(/^[0-9a-f]{32}$/);
    expect(g.requested_at).toMatch(TS);
    expect(g).toMatchObject({ created_by: appOwner.email, modified_by: appOwner.email });
    expect(g.created_at).toMatch(TS);
    expect(typeof g.environment.optLock).toBe('number');

    // Who may do what to the pending grant.
    const asStream = await getGrant(g.uid, streamOwner.token);
    expect(asStream.status).toBe(200);
    expect(asStream.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    const self = asStream.body._links.self.href;
    expect(self).toBe(`${app.api}${GRANTS}/${g.uid}`);
    expect(asStream.body).toMatchObject({ uid: g.uid, status: 'Pending', accessType: 'Consumer', requestedBy: appOwner.email });
    expect(asStream.body._embedded).toMatchObject({ application: { uid: application.uid }, stream: { uid: stream.uid }, environment: { uid: managed.uid } });
    expect(actionLinks(asStream.body._links)).toEqual(['approve', 'deny']);
    expect(asStream.body._links).toMatchObject({ approve: { href: self }, deny: { href: `${self}/deny` }, edit: { href: self } });
    expect(asStream.body._links.delete).toBeUndefined();
    const accessHref = asStream.body._links.applicationAccess.href;
    expect(accessHref).toMatch(new RegExp(`^${app.api}/application_access/[0-9a-f]{32}$`));
    const asApp = await getGrant(g.uid, appOwner.token);
    expect(actionLinks(asApp.body._links)).toEqual(['cancel']);
    expect(asApp.body._links).toMatchObject({ cancel: { href: self }, delete: { href: self } });
    expect(asApp.body._links.edit).toBeUndefined();

    const envOfGrant = await call(app, 'GET', `${self}/environment`, { token: appOwner.token });
    expect(envOfGrant.status).toBe(200);
    expect(envOfGrant.body).toMatchObject({ uid: managed.uid, shortName: managed.shortName });

    // The first request made the access row.
    const access = await call(app, 'GET', accessHref, { token: appOwner.token });
    expect(access.status).toBe(200);
    expect(access.body).toMatchObject({ accessType: 'CONSUMER', _embedded: { application: { uid: application.uid }, stream: { uid: stream.uid } } });
    expect(access.body._embedded.grants.map((x: any) => x.uid)).toEqual([g.uid]);

    // Approve: PUT without a body.
    const approved = await approve(g.uid);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(approved.body).toMatchObject({
      uid: g.uid, status: 'Approved', accessType: 'Consumer', processedBy: streamOwner.email, requestedBy: appOwner.email,
      pending: false, approved: true, comment: null,
    });
    expect(approved.body.processed_at).toMatch(TS);
    expect(approved.body.requested_at).toBe(g.requested_at);
    const row = await app.models.ApplicationAccessGrant.findByPk(g.uid);
    expect(row!.processedAt).toBeInstanceOf(Date);

    for (const user of [streamOwner, appOwner]) {
      const seen = await getGrant(g.uid, user.token);
      expect(actionLinks(seen.body._links)).toEqual(['revoke']);
      expect(seen.body._links.revoke.href).toBe(`${self}/revoke`);
      expect(seen.body._links.edit).toBeUndefined();
      expect(seen.body._links.delete).toBeUndefined();
    }

    // Revoke by the application owner, with a reason.
    const revoked = await revoke(g.uid, 'no longer consumed', appOwner.token);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'Revoked', comment: 'no longer consumed', processedBy: appOwner.email, pending: false, approved: false });
    for (const user of [streamOwner, appOwner]) expect(actionLinks((await getGrant(g.uid, user.token)).body._links)).toEqual([]);
  });

  it('in an Auto environment: Approved at once, audited as REQUESTED + APPROVED with details.auto', async () => {
    const a = await freshApp();
    const res = await request(a, { environment: w.auto, accessType: 'producer' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'Approved', accessType: 'PRODUCER', pending: false, approved: true, requestedBy: w.appOwner.email });
    expect(res.body.processed_at).toMatch(TS);
    expect(res.body.environment).toMatchObject({ id: w.auto.uid, authorizationIssuer: 'Auto' });
    expect(actionLinks((await getGrant(res.body.uid, w.streamOwner.token)).body._links)).toEqual(['revoke']);
    const audit = await grantAudit(a.uid);
    expect(audit.map((r) => r.action)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED']);
    expect(audit[0].details).not.toHaveProperty('auto');
    expect(audit[1].details).toMatchObject({ grant: res.body.uid, auto: true, environment: w.auto.shortName, stream: w.stream.name });
    expect(audit.every((r) => r.actor === w.appOwner.email)).toBe(true);
  });

  it('the request answers plain JSON whatever the Accept', async () => {
    const a = await freshApp();
    const res = await call(app, 'POST', GRANTS, {
      token: w.appOwner.token, headers: { Accept: 'application/hal+json' },
      body: { applicationId: a.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body._links).toBeUndefined();
    expect(res.body.environment.id).toBe(w.managed.uid);
  });

  it('deny with an empty reason stores "" as the comment', async () => {
    const uid = await grantIn('Pending');
    const res = await deny(uid, '');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'Rejected', comment: '', processedBy: w.streamOwner.email });
  });

  it('deny of an Approved grant revokes it, by the stream owner or the application owner', async () => {
    for (const user of [w.streamOwner, w.appOwner]) {
      const uid = await grantIn('Approved');
      const res = await deny(uid, 'offboarded', user.token);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'Revoked', comment: 'offboarded', processedBy: user.email });
      const audit = await grantAudit(res.body._embedded.application.uid);
      expect(audit.at(-1)).toMatchObject({ action: 'APPLICATION_ACCESS_REVOKED', actor: user.email, details: { grant: uid, reason: 'offboarded' } });
    }
  });

  it('the requester may approve when it is also a stream editor (a tenant admin)', async () => {
    const a = await freshApp();
    const res = await request(a, { token: t.admin.token });
    expect(res.status, res.text).toBe(201);
    const approved = await approve(res.body.uid, t.admin.token);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'Approved', requestedBy: t.admin.email, processedBy: t.admin.email });
  });
});

describe('illegal moves, rights and verbs', () => {
  const verb = { approve: 'approved', deny: 'denied', revoke: 'revoked' } as const;
  const illegal: Array<[Exclude<Action, 'cancel'>, Status]> = [
    ['approve', 'Approved'], ['approve', 'Rejected'], ['approve', 'Revoked'], ['approve', 'Cancelled'],
    ['deny', 'Rejected'], ['deny', 'Revoked'], ['deny', 'Cancelled'],
    ['revoke', 'Pending'], ['revoke', 'Rejected'], ['revoke', 'Revoked'], ['revoke', 'Cancelled'],
  ];
  const act = (action: Action, uid: string) => ({ approve: () => approve(uid), deny: () => deny(uid, 'x'), revoke: () => revoke(uid, 'x'), cancel: () => cancel(uid) })[action]();

  it.each(illegal)('%s on a grant in status %s → 422 with the exact message, nothing changes', async (action, status) => {
    const uid = await grantIn(status);
    const before = (await getGrant(uid)).body;
    const audited = (await grantAudit(before._embedded.application.uid)).length;
    const res = await act(action, uid);
    const message = `Application Access Grant cannot be ${verb[action]} in status ${status}.`;
    expectError(res, 422, { errors: [message] });
    expect(res.body.message).toBe(message);
    const after = (await getGrant(uid)).body;
    expect(after).toEqual(before);
    expect((await grantAudit(before._embedded.application.uid)).length).toBe(audited);
  });

  it('cancel of an Approved grant → 422 "Please Revoke first", still Approved', async () => {
    const uid = await grantIn('Approved');
    expectError(await cancel(uid), 422, { errors: [CANCEL_APPROVED] });
    expect((await getGrant(uid)).body.status).toBe('Approved');
  });

  it.each(['Rejected', 'Revoked', 'Cancelled'] as Status[])('cancel of a %s grant → 204 and the grant is unchanged', async (status) => {
    const uid = await grantIn(status);
    const before = (await getGrant(uid)).body;
    const res = await cancel(uid);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await getGrant(uid)).body).toEqual(before);
  });

  it('cancel of a Pending grant → 204, the row kept as Cancelled', async () => {
    const uid = await grantIn('Pending');
    const res = await cancel(uid);
    expect(res.status).toBe(204);
    const after = (await getGrant(uid, w.appOwner.token)).body;
    expect(after).toMatchObject({ status: 'Cancelled', processedBy: w.appOwner.email, pending: false });
    expect(after.processed_at).toMatch(TS);
  });

  it('the application owner may not approve or deny; the stream owner may not cancel (403, nothing changes)', async () => {
    const uid = await grantIn('Pending');
    expectError(await approve(uid, w.appOwner.token), 403);
    expectError(await deny(uid, 'no', w.appOwner.token), 403);
    expectError(await cancel(uid, w.streamOwner.token), 403);
    expect((await getGrant(uid)).body).toMatchObject({ status: 'Pending', processedBy: null, comment: null });
  });

  it('rights come before state: the application owner approving an Approved grant → 403', async () => {
    const uid = await grantIn('Approved');
    expectError(await approve(uid, w.appOwner.token), 403);
  });

  it('a user of neither group cannot see the grant: every verb → 404', async () => {
    const uid = await grantIn('Pending');
    const tok = stranger.token;
    expectError(await getGrant(uid, tok), 404);
    expectError(await approve(uid, tok), 404);
    expectError(await deny(uid, 'x', tok), 404);
    expectError(await revoke(uid, 'x', tok), 404);
    expectError(await cancel(uid, tok), 404);
    expect((await getGrant(uid)).body.status).toBe('Pending');
  });

  it('a user of neither group may not request access for the application (403)', async () => {
    const res = await request(w.application, { token: stranger.token, stream: w.other, accessType: 'PRODUCER' });
    expectError(res, 403);
  });

  it('a stale If-Match on an action → 412 and nothing changes; the current ETag goes through', async () => {
    const uid = await grantIn('Pending');
    const got = await getGrant(uid);
    const etag = got.headers.get('etag');
    expect(etag).toMatch(/^"\d+"$/);
    expectError(await call(app, 'PUT', `${GRANTS}/${uid}`, { token: w.streamOwner.token, headers: { 'If-Match': '"999"' } }), 412);
    expectError(await call(app, 'POST', `${GRANTS}/${uid}/deny`, { token: w.streamOwner.token, headers: { 'If-Match': '"999"' }, body: { reason: 'x' } }), 412);
    expectError(await call(app, 'DELETE', `${GRANTS}/${uid}`, { token: w.appOwner.token, headers: { 'If-Match': '"999"' } }), 412);
    expect((await getGrant(uid)).body.status).toBe('Pending');
    const ok = await call(app, 'PUT', `${GRANTS}/${uid}`, { token: w.streamOwner.token, headers: { 'If-Match': etag! } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('etag')).not.toBe(etag);
    expectError(await call(app, 'POST', `${GRANTS}/${uid}/revoke`, { token: w.streamOwner.token, headers: { 'If-Match': etag! } }), 412);
  });

  it('STREAM_ADMIN approves and APPLICATION_ADMIN cancels without owning anything', async () => {
    const streamAdmin = await createUser(app, t, ['STREAM_ADMIN'], 'streamadmin');
    const appAdmin = await createUser(app, t, ['APPLICATION_ADMIN'], 'appadmin');
    const p1 = await grantIn('Pending');
    expect(actionLinks((await getGrant(p1, streamAdmin.token)).body._links)).toEqual(['approve', 'deny']);
    expect((await approve(p1, streamAdmin.token)).body).toMatchObject({ status: 'Approved', processedBy: streamAdmin.email });
    const p2 = await grantIn('Pending');
    expect(actionLinks((await getGrant(p2, appAdmin.token)).body._links)).toEqual(['cancel']);
    expectError(await approve(p2, appAdmin.token), 403);
    expect((await cancel(p2, appAdmin.token)).status).toBe(204);
    expect((await getGrant(p2)).body).toMatchObject({ status: 'Cancelled', processedBy: appAdmin.email });
  });

  it('an owner of the environment only sees the grant there (and its access row) but may not decide it', async () => {
    const envOwner = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'envowner');
    const envTeam = await adminPost('/groups', { name: 'aa Env Team', members: [envOwner.user.uid] });
    const env = await adminPost('/environments', { name: 'aa-envteam', shortName: 'aaenvteam', instance: w.instance.uid, owners: envTeam.uid });
    expectStatus(await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: w.stream.uid, environment: env.uid } }), 201);
    const a = await freshApp();
    await insertCredential(app, t.tenant.uid, a.uid, env.uid);
    const elsewhere = (await requested(a)).uid;
    const there = await requested(a, { environment: env });
    expect(there.status).toBe('Pending');
    expect(there.environment.owners.id).toBe(envTeam.uid);

    const seen = await getGrant(there.uid, envOwner.token);
    expect(seen.status).toBe(200);
    expect(actionLinks(seen.body._links)).toEqual([]);
    expectError(await approve(there.uid, envOwner.token), 403);
    expectError(await getGrant(elsewhere, envOwner.token), 404);
    expect(items(await search(`applicationId=${a.uid}`, envOwner.token)).map((i) => i.uid)).toEqual([there.uid]);
    expect((await call(app, 'GET', seen.body._links.applicationAccess.href, { token: envOwner.token })).status).toBe(200);
  });

  it('PATCH /application_access_grants/{id} → 405 with the §2 body and Allow', async () => {
    const uid = await grantIn('Pending');
    const res = await call(app, 'PATCH', `${GRANTS}/${uid}`, { token: w.streamOwner.token, body: { status: 'Approved' } });
    expectError(res, 405);
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    expect(allow).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    expect((await getGrant(uid)).body.status).toBe('Pending');
  });
});

describe('one open grant per application, stream, environment and access type; request preconditions', () => {
  it('a second open request → 409 (Pending or Approved); after cancel a new request makes a new grant', async () => {
    const a = await freshApp();
    const first = await requested(a);
    expectError(await request(a), 409);
    expectError(await request(a, { accessType: 'consumer' }), 409);
    // Another access type, stream or environment is another grant.
    expect((await request(a, { accessType: 'PRODUCER' })).status).toBe(201);
    expect((await request(a, { stream: w.other })).status).toBe(201);
    expect((await request(a, { environment: w.auto })).status).toBe(201);

    expectStatus(await cancel(first.uid), 204);
    const second = await request(a);
    expect(second.status, second.text).toBe(201);
    expect(second.body.uid).not.toBe(first.uid);
    expect(second.body.status).toBe('Pending');
    expectStatus(await approve(second.body.uid), 200);
    expectError(await request(a), 409);
    expectStatus(await revoke(second.body.uid), 200);
    const third = await requested(a);
    expect(new Set([first.uid, second.body.uid, third.uid]).size).toBe(3);

    // All three rows of (a, stream, managed, CONSUMER) are kept, under one access row.
    const rows = await app.models.ApplicationAccessGrant.findAll({ where: { applicationUid: a.uid, streamUid: w.stream.uid, environmentUid: w.managed.uid, accessType: 'CONSUMER' } });
    expect(rows.map((r) => r.status).sort()).toEqual(['Cancelled', 'Pending', 'Revoked']);
    expect(new Set(rows.map((r) => r.accessUid)).size).toBe(1);
  });

  it('stream not configured in the environment → 422; then no principal or credential there → 422; nothing is stored', async () => {
    const a = await freshApp();
    const notConfigured = await request(a, { environment: bare });
    expectError(notConfigured, 422, { errors: [`Stream ${w.stream.name} is not configured in environment ${bare.shortName}`] });

    const { stream } = await freshStream();
    expectStatus(await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: stream.uid, environment: bare.uid } }), 201);
    const noAuth = await request(a, { stream, environment: bare });
    expectError(noAuth, 422, { errors: [`Application ${a.shortName} has no principal or credential in environment ${bare.shortName}`] });

    expect(await app.models.ApplicationAccessGrant.count({ where: { applicationUid: a.uid } })).toBe(0);
    expect(await app.models.ApplicationAccess.count({ where: { applicationUid: a.uid } })).toBe(0);
    expect(await grantAudit(a.uid)).toEqual([]);

    // With a credential there the same request goes through (Stream owner → Pending).
    await insertCredential(app, t.tenant.uid, a.uid, bare.uid);
    const ok = await request(a, { stream, environment: bare });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.status).toBe('Pending');
  });

  it('a Private environment: invisible to the application owner → 400; visible to it (as viewer) → Approved at once', async () => {
    n += 1;
    const hidden = await adminPost('/environments', {
      name: `aa-hidden-${n}`, shortName: `aahidden${n}`, instance: w.instance.uid, owners: w.streamTeam.uid, visibility: 'Private', authorizationIssuer: 'Auto',
    });
    const shared = await adminPost('/environments', {
      name: `aa-shared-${n}`, shortName: `aashared${n}`, instance: w.instance.uid, owners: w.streamTeam.uid, viewers: [w.appTeam.uid], visibility: 'Private', authorizationIssuer: 'Auto',
    });
    const a = await freshApp();
    for (const env of [hidden, shared]) {
      expectStatus(await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: w.stream.uid, environment: env.uid } }), 201);
      await insertCredential(app, t.tenant.uid, a.uid, env.uid);
    }
    const refused = await request(a, { environment: hidden });
    expectError(refused, 400);
    expect(refused.body.errors[0]).toMatch(/^environmentId: unknown environment/);
    const ok = await request(a, { environment: shared });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ status: 'Approved', approved: true });
  });

  it('a Private stream the application owner cannot see → 400 naming streamId', async () => {
    n += 1;
    const hidden = await call(app, 'POST', '/streams', {
      token: w.streamOwner.token, body: { name: `aa-private-${n}`, keyType: 'String', valueType: 'String', owners: w.streamTeam.uid, visibility: 'Private' },
    });
    expectStatus(hidden, 201);
    expectStatus(await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: hidden.body.uid, environment: w.managed.uid } }), 201);
    const res = await request(w.application, { stream: hidden.body });
    expectError(res, 400);
    expect(res.body.errors[0]).toMatch(/^streamId: unknown stream/);
  });

  it('an unknown applicationId → 400 naming applicationId', async () => {
    const res = await call(app, 'POST', GRANTS, {
      token: w.appOwner.token,
      body: { applicationId: '0'.repeat(32), streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' },
    });
    expectError(res, 400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatch(/^applicationId: unknown application/);
  });

  const full = () => ({ applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' });

  it('no reference fields at all → 400 naming each required field', async () => {
    const res = await call(app, 'POST', GRANTS, { token: w.appOwner.token, body: {} });
    expectError(res, 400);
    for (const field of ['applicationId', 'streamId', 'environmentId', 'accessType']) expect(res.body.errors).toContain(`${field}: is required`);
  });

  // docs/contract.md §4.1: `""`/`null` = none (required → 400 `<field>: is required`).
  it.each([
    ['applicationId', null], ['applicationId', ''], ['streamId', null], ['streamId', ''], ['environmentId', null], ['environmentId', ''],
  ])('%s = %j → 400 `<field>: is required`', async (field, value) => {
    const res = await call(app, 'POST', GRANTS, { token: w.appOwner.token, body: { ...full(), [field]: value } });
    expectError(res, 400, { errors: [`${field}: is required`] });
  });

  it.each(['streamId', 'environmentId'])('an unknown %s → 400 naming it', async (field) => {
    const res = await call(app, 'POST', GRANTS, { token: w.appOwner.token, body: { ...full(), [field]: 'f'.repeat(32) } });
    expectError(res, 400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatch(new RegExp(`^${field}: unknown `));
  });

  it('an unknown accessType → 400', async () => {
    const res = await request(w.application, { accessType: 'READER' });
    expectError(res, 400);
    expect(res.body.errors.join(' ')).toMatch(/accessType/);
  });

  it('a missing body → the §2 bad-body reply', async () => {
    const res = await call(app, 'POST', GRANTS, { token: w.appOwner.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(BAD_BODY);
  });
});

describe('concurrent requests and decisions over HTTP', () => {
  it('10 concurrent identical requests: exactly one 201, the others 409, one grant row', async () => {
    const a = await freshApp();
    const results = await Promise.all(Array.from({ length: 10 }, () => request(a)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409);
    expect(await app.models.ApplicationAccessGrant.count({ where: { applicationUid: a.uid } })).toBe(1);
    expect(await app.models.ApplicationAccess.count({ where: { applicationUid: a.uid } })).toBe(1);
    expect((await grantAudit(a.uid)).map((r) => r.action)).toEqual(['APPLICATION_ACCESS_REQUESTED']);
  });

  it.each([
    ['approve', () => (uid: string) => approve(uid), 'Approved', 'APPLICATION_ACCESS_APPROVED'],
    ['deny', () => (uid: string) => deny(uid, 'no'), 'Rejected', 'APPLICATION_ACCESS_DENIED'],
  ] as const)('10 concurrent %s calls on one pending grant: exactly one 200, the others 409 or 422, one audit row', async (_name, make, final, action) => {
    const a = await freshApp();
    const uid = (await requested(a)).uid;
    const results = await Promise.all(Array.from({ length: 10 }, () => make()(uid)));
    const report = results.map((r) => `${r.status} ${r.text}`).join('\n');
    expect(results.filter((r) => r.status === 200), report).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([409, 422], report).toContain(r.status);
    expect((await getGrant(uid)).body.status).toBe(final);
    expect((await grantAudit(a.uid)).map((r) => r.action)).toEqual(['APPLICATION_ACCESS_REQUESTED', action]);
  });

  it('approve and cancel racing on one pending grant: exactly one of them moves it', async () => {
    const a = await freshApp();
    const uid = (await requested(a)).uid;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? approve(uid) : cancel(uid))));
    const report = results.map((r) => `${r.status} ${r.text}`).join('\n');
    const approvals = results.filter((_, i) => i % 2 === 0);
    const cancels = results.filter((_, i) => i % 2 === 1);
    const final = (await getGrant(uid)).body.status;
    const rows = (await grantAudit(a.uid)).map((r) => r.action);
    if (final === 'Approved') {
      // A cancel that came after the approval is refused ("Please Revoke first") or lost the race.
      expect(approvals.filter((r) => r.status === 200), report).toHaveLength(1);
      for (const r of cancels) expect([409, 422], report).toContain(r.status);
      expect(rows).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED']);
    } else {
      expect(final).toBe('Cancelled');
      // Cancels after the first one find a finished grant: 204, unchanged.
      for (const r of approvals) expect([409, 422], report).toContain(r.status);
      for (const r of cancels) expect([204, 409], report).toContain(r.status);
      expect(rows).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_CANCELLED']);
    }
  });
});

describe('search/findByAttributes', () => {
  let a: any;
  const g: Record<string, string> = {};
  beforeAll(async () => {
    a = await freshApp();
    g.pendingConsumer = (await requested(a)).uid;
    g.approvedProducer = (await requested(a, { accessType: 'PRODUCER' })).uid;
    expectStatus(await approve(g.approvedProducer), 200);
    g.autoConsumer = (await requested(a, { stream: w.other, environment: w.auto })).uid;
    g.rejectedProducer = (await requested(a, { stream: w.other, accessType: 'PRODUCER' })).uid;
    expectStatus(await deny(g.rejectedProducer, 'not now'), 200);
  });
  const uidsOf = (res: CallResult) => items(res).map((i) => i.uid).sort();
  const expected = (...keys: string[]) => keys.map((k) => g[k]).sort();

  it.each([
    ['', ['pendingConsumer', 'approvedProducer', 'autoConsumer', 'rejectedProducer']],
    [`&streamId=${'OTHER'}`, ['autoConsumer', 'rejectedProducer']],
    ['&environmentId=AUTO', ['autoConsumer']],
    ['&accessType=consumer', ['pendingConsumer', 'autoConsumer']],
    ['&accessType=Producer', ['approvedProducer', 'rejectedProducer']],
    ['&statuses=pending,APPROVED', ['pendingConsumer', 'approvedProducer', 'autoConsumer']],
    ['&statuses=Pending&statuses=rejected', ['pendingConsumer', 'rejectedProducer']],
    ['&statuses=approved&accessType=CONSUMER', ['autoConsumer']],
    ['&statuses=Cancelled', []],
  ])('findByAttributes?applicationId=…%s', async (filter, keys) => {
    const q = filter.replace('OTHER', w.other.uid).replace('AUTO', w.auto.uid);
    const res = await search(`applicationId=${a.uid}${q}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(uidsOf(res)).toEqual(expected(...keys));
    expect(res.body.page.totalElements).toBe(keys.length);
  });

  it('pages: size=1 answers one item with page counts and paging links', async () => {
    const res = await search(`applicationId=${a.uid}&size=1&page=1`);
    expect(res.status).toBe(200);
    expect(items(res)).toHaveLength(1);
    expect(res.body.page).toEqual({ size: 1, totalElements: 4, totalPages: 4, number: 1 });
    for (const rel of ['self', 'first', 'last', 'prev', 'next']) expect(res.body._links[rel].href).toMatch(/findByAttributes\?/);
    const all = new Set<string>();
    for (let page = 0; page < 4; page += 1) all.add(items(await search(`applicationId=${a.uid}&size=1&page=${page}`))[0].uid);
    expect([...all].sort()).toEqual(expected('pendingConsumer', 'approvedProducer', 'autoConsumer', 'rejectedProducer'));
  });

  it('takes references as URIs too', async () => {
    const res = await search(`applicationId=${encodeURIComponent(a._links.self.href)}&streamId=${encodeURIComponent(w.stream._links.self.href)}`);
    expect(uidsOf(res)).toEqual(expected('pendingConsumer', 'approvedProducer'));
  });

  it.each(['statuses=Pending,Granted', 'statuses=bogus', 'accessType=reader'])('%s → 400', async (q) => {
    expectError(await search(`applicationId=${a.uid}&${q}`), 400);
  });

  it('an unknown reference in the query → 404', async () => {
    expectError(await search(`applicationId=${'0'.repeat(32)}`), 404);
  });

  it('items: UPPERCASE accessType, configured flags, plain users, embedded summaries', async () => {
    const res = await search(`applicationId=${a.uid}`);
    const byUid = new Map(items(res).map((i) => [i.uid, i]));
    const pending = byUid.get(g.pendingConsumer);
    expect(pending).toMatchObject({
      accessType: 'CONSUMER', status: 'Pending', comment: null, appConfigured: true, streamConfigured: true, processedByUser: null, processedAt: null,
      requestedByUser: {
        uid: w.appOwner.user.uid, firstName: 'Test', lastName: 'aa-appowner', fullName: 'Test aa-appowner',
        emailAddress: { email: w.appOwner.email }, roles: [{ name: 'APPLICATION_AUTHOR' }],
      },
      _embedded: {
        environment: { uid: w.managed.uid, shortName: w.managed.shortName },
        application: { uid: a.uid, shortName: a.shortName },
        stream: { uid: w.stream.uid, name: w.stream.name },
      },
    });
    expect(pending.requestedAt).toMatch(TS);
    expect(byUid.get(g.approvedProducer)).toMatchObject({
      accessType: 'PRODUCER', status: 'Approved',
      processedByUser: { uid: w.streamOwner.user.uid, emailAddress: { email: w.streamOwner.email }, roles: [{ name: 'STREAM_AUTHOR' }] },
    });
    expect(byUid.get(g.approvedProducer).processedAt).toMatch(TS);
    // Auto-approved: nobody decided; the credential in auto makes the application configured there.
    expect(byUid.get(g.autoConsumer)).toMatchObject({ status: 'Approved', appConfigured: true, streamConfigured: true });
    expect(byUid.get(g.rejectedProducer)).toMatchObject({ status: 'Rejected', comment: 'not now' });
  });

  it('action links per caller and state', async () => {
    const linksOf = async (user: TestUser) => {
      const res = await search(`applicationId=${a.uid}`, user.token);
      return new Map(items(res).map((i) => [i.uid, i._links]));
    };
    const s = await linksOf(w.streamOwner);
    const p = await linksOf(w.appOwner);
    const self = (uid: string) => `${app.api}${GRANTS}/${uid}`;
    expect(s.get(g.pendingConsumer)).toEqual({ self: { href: self(g.pendingConsumer) }, approve: { href: self(g.pendingConsumer) }, deny: { href: `${self(g.pendingConsumer)}/deny` } });
    expect(p.get(g.pendingConsumer)).toEqual({ self: { href: self(g.pendingConsumer) }, cancel: { href: self(g.pendingConsumer) } });
    for (const links of [s, p]) {
      expect(links.get(g.approvedProducer)).toEqual({ self: { href: self(g.approvedProducer) }, revoke: { href: `${self(g.approvedProducer)}/revoke` } });
      expect(links.get(g.rejectedProducer)).toEqual({ self: { href: self(g.rejectedProducer) } });
    }
  });

  it('an unrelated user sees an empty page, in the search and the collection', async () => {
    const res = await search('', stranger.token);
    expect(res.status).toBe(200);
    expect(items(res)).toEqual([]);
    expect(res.body.page.totalElements).toBe(0);
    const filtered = await search(`applicationId=${a.uid}`, stranger.token);
    expect(items(filtered)).toEqual([]);
    const list = await call(app, 'GET', GRANTS, { token: stranger.token });
    expect(list.status).toBe(200);
    expect(list.body._embedded.application_access_grants).toEqual([]);
  });

  it('owners of the application or of the stream see the grants', async () => {
    for (const user of [w.appOwner, w.streamOwner]) {
      expect(uidsOf(await search(`applicationId=${a.uid}`, user.token))).toEqual(expected('pendingConsumer', 'approvedProducer', 'autoConsumer', 'rejectedProducer'));
    }
  });
});

/** The tests of this block build on each other, in order: one application and its CONSUMER access to `stream`. */
describe('/application_access', () => {
  let a: any;
  let access: any;
  let self: string;
  beforeAll(async () => {
    a = await freshApp();
  });

  it('POST {application, stream, accessType} → 201 HAL with Location; the same triple → 409; audited as CREATED', async () => {
    const res = await call(app, 'POST', '/application_access', {
      token: w.appOwner.token, body: { application: a._links.self.href, stream: w.stream.uid, accessType: 'CONSUMER' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    access = res.body;
    self = access._links.self.href;
    expect(res.headers.get('location')).toBe(self);
    expect(self).toBe(`${app.api}/application_access/${access.uid}`);
    expect(access).toMatchObject({ accessType: 'CONSUMER', _embedded: { application: { uid: a.uid }, stream: { uid: w.stream.uid }, grants: [] } });
    expect(access._links.createApplicationAccessGrant.href).toBe(`${self}/grants`);

    for (const accessType of ['CONSUMER', 'consumer']) {
      const again = await call(app, 'POST', '/application_access', { token: w.appOwner.token, body: { application: a.uid, stream: w.stream.uid, accessType } });
      expectError(again, 409);
    }
    expect(await app.models.ApplicationAccess.count({ where: { applicationUid: a.uid } })).toBe(1);

    const created = await app.models.AuditEvent.findAll({ where: { resourceId: a.uid, action: 'CREATED' } });
    const forAccess = created.filter((r) => (r.details as any)?.applicationAccess === access.uid);
    expect(forAccess).toHaveLength(1);
    expect(forAccess[0]).toMatchObject({ resourceType: 'Application', resourceName: a.shortName, actor: w.appOwner.email });
  });

  it('only the application editors may create it (403)', async () => {
    const res = await call(app, 'POST', '/application_access', { token: w.streamOwner.token, body: { application: a.uid, stream: w.stream.uid, accessType: 'PRODUCER' } });
    expectError(res, 403);
  });

  it('PUT/PATCH with equal values → 200; a changed value → 422; DELETE → 405', async () => {
    const same = await call(app, 'PUT', self, { token: w.appOwner.token, body: { application: a.uid, stream: w.stream.uid, accessType: 'CONSUMER' } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ uid: access.uid, accessType: 'CONSUMER' });
    expectError(await call(app, 'PUT', self, { token: w.appOwner.token, body: { application: a.uid, stream: w.stream.uid, accessType: 'PRODUCER' } }), 422);
    expectError(await call(app, 'PUT', self, { token: w.appOwner.token, body: { application: a.uid, stream: w.other.uid, accessType: 'CONSUMER' } }), 422);
    expect((await call(app, 'PATCH', self, { token: w.appOwner.token, body: { accessType: 'CONSUMER' } })).status).toBe(200);
    expectError(await call(app, 'PUT', self, { token: w.streamOwner.token, body: { application: a.uid, stream: w.stream.uid, accessType: 'CONSUMER' } }), 403);
    expectError(await call(app, 'PATCH', self, { token: w.appOwner.token, body: { accessType: 'PRODUCER' } }), 422);

    const del = await call(app, 'DELETE', self, { token: w.appOwner.token });
    expectError(del, 405);
    const allow = (del.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    expect(allow).toContain('GET');
    expect(allow).not.toContain('DELETE');
    expect((await call(app, 'GET', self, { token: w.appOwner.token })).body).toMatchObject({ uid: access.uid, accessType: 'CONSUMER' });
  });

  it('POST {self}/grants with {environment} → 201 HAL grant + Location; with text/uri-list too; a second one → 409', async () => {
    const res = await call(app, 'POST', `${self}/grants`, { token: w.appOwner.token, body: { environment: w.managed.uid } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(res.headers.get('location')).toBe(`${app.api}${GRANTS}/${res.body.uid}`);
    expect(res.body).toMatchObject({ status: 'Pending', accessType: 'Consumer', requestedBy: w.appOwner.email, _embedded: { environment: { uid: w.managed.uid } } });
    expect(res.body._links.self.href).toBe(res.headers.get('location'));
    expect(res.body._links.applicationAccess.href).toBe(self);

    const uriList = await call(app, 'POST', `${self}/grants`, {
      token: w.appOwner.token, headers: { 'Content-Type': 'text/uri-list' }, raw: `${app.api}/environments/${w.auto.uid}\r\n`,
    });
    expect(uriList.status, uriList.text).toBe(201);
    expect(uriList.body).toMatchObject({ status: 'Approved', accessType: 'Consumer', _embedded: { environment: { uid: w.auto.uid } } });

    expectError(await call(app, 'POST', `${self}/grants`, { token: w.appOwner.token, body: { environment: w.managed.uid } }), 409);
    expectError(await call(app, 'POST', `${self}/grants`, { token: w.appOwner.token, body: { environment: 'f'.repeat(32) } }), 400);
    expectError(await call(app, 'POST', `${self}/grants`, { token: w.streamOwner.token, body: { environment: bare.uid } }), 403);
    expectError(await call(app, 'POST', `${self}/grants`, {
      token: w.appOwner.token, headers: { 'Content-Type': 'text/uri-list' }, raw: `${app.api}/environments/${w.managed.uid}\n${app.api}/environments/${bare.uid}\n`,
    }), 400);

    const got = await call(app, 'GET', self, { token: w.streamOwner.token });
    expect(got.status).toBe(200);
    const embedded = got.body._embedded.grants as any[];
    expect(embedded.map((x) => x.uid)).toEqual([res.body.uid, uriList.body.uid]);
    expect(embedded[0]).toMatchObject({
      uid: res.body.uid, status: 'Pending', comment: null, requestedBy: w.appOwner.email, processedBy: null, processedAt: null,
      environment: { uid: w.managed.uid },
      _links: { self: { href: `${app.api}${GRANTS}/${res.body.uid}` }, environment: { href: `${app.api}/environments/${w.managed.uid}` } },
    });
    expect(embedded[0].requestedAt).toMatch(TS);
    expect(embedded[1]).toMatchObject({ status: 'Approved', environment: { uid: w.auto.uid } });
    expect(embedded[1].processedAt).toMatch(TS);
  });

  // docs/contract.md §4.1: `""`/`null` = none (required → 400 `<field>: is required`).
  it.each([null, ''])('POST {self}/grants with environment %j → 400 `environment: is required`, nothing requested', async (environment) => {
    const before = await app.models.ApplicationAccessGrant.count({ where: { accessUid: access.uid } });
    const res = await call(app, 'POST', `${self}/grants`, { token: w.appOwner.token, body: { environment } });
    expectError(res, 400, { errors: ['environment: is required'] });
    expect(await app.models.ApplicationAccessGrant.count({ where: { accessUid: access.uid } })).toBe(before);
  });

  // A request keeps no reason: one sent is refused, never dropped (found by the fuzzer, seed 138538251).
  it.each(['POST', 'PUT', 'PATCH'])('%s {self}/grants with a reason → 400 naming reason, nothing requested', async (method) => {
    const before = await app.models.ApplicationAccessGrant.count({ where: { accessUid: access.uid } });
    const res = await call(app, method, `${self}/grants`, { token: w.appOwner.token, body: { environment: bare.uid, reason: 'please' } });
    expectError(res, 400);
    expect(res.body.subErrors).toEqual([expect.objectContaining({ field: 'reason', rejectedValue: 'please' })]);
    expect(await app.models.ApplicationAccessGrant.count({ where: { accessUid: access.uid } })).toBe(before);
  });

  it('searches: findByGrantsContaining (single; 404 for an unknown grant) and findByApplicationAndStream', async () => {
    const [grant] = await app.models.ApplicationAccessGrant.findAll({ where: { accessUid: access.uid } });
    for (const ref of [grant.uid, `${app.api}${GRANTS}/${grant.uid}`]) {
      const res = await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${encodeURIComponent(ref)}`, { token: w.appOwner.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ uid: access.uid, accessType: 'CONSUMER' });
      expect(res.body._embedded.grants.map((x: any) => x.uid)).toContain(grant.uid);
    }
    expectError(await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${'0'.repeat(32)}`, { token: w.appOwner.token }), 404);
    expectError(await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${grant.uid}`, { token: stranger.token }), 404);
    expectError(await call(app, 'GET', '/application_access/search/findByGrantsContaining', { token: w.appOwner.token }), 400);

    const byPair = () => call(app, 'GET', `/application_access/search/findByApplicationAndStream?application=${a.uid}&stream=${w.stream.uid}`, { token: w.appOwner.token });
    let res = await byPair();
    expect(res.status).toBe(200);
    expect(res.body._embedded.application_access.map((x: any) => x.uid)).toEqual([access.uid]);
    // A grant request for another access type makes that access row.
    const producer = await requested(a, { accessType: 'PRODUCER' });
    res = await byPair();
    const rows = res.body._embedded.application_access as any[];
    expect(rows.map((x) => x.accessType).sort()).toEqual(['CONSUMER', 'PRODUCER']);
    expect(rows.find((x) => x.accessType === 'PRODUCER')._embedded.grants.map((x: any) => x.uid)).toEqual([producer.uid]);
    expect((await call(app, 'GET', `/application_access/search/findByApplicationAndStream?application=${a.uid}&stream=${w.other.uid}`, { token: w.appOwner.token })).body._embedded.application_access).toEqual([]);
    // Invisible to an unrelated user.
    expectError(await call(app, 'GET', self, { token: stranger.token }), 404);
    expect((await call(app, 'GET', `/application_access/search/findByApplicationAndStream?application=${a.uid}&stream=${w.stream.uid}`, { token: stranger.token })).body._embedded.application_access).toEqual([]);
  });

  it('DELETE {self}/grants {reason, environment}: Approved → Revoked, Pending → Cancelled, comment = reason; none → 404', async () => {
    const grantAt = (env: any) => app.models.ApplicationAccessGrant.findOne({ where: { accessUid: access.uid, environmentUid: env.uid, status: ['Pending', 'Approved'] } });
    const approvedUid = (await grantAt(w.auto))!.uid;
    const pendingUid = (await grantAt(w.managed))!.uid;

    const r1 = await call(app, 'DELETE', `${self}/grants`, { token: w.appOwner.token, body: { reason: 'rotating credentials', environment: w.auto._links.self.href } });
    expect(r1.status, r1.text).toBe(204);
    expect((await getGrant(approvedUid)).body).toMatchObject({ status: 'Revoked', comment: 'rotating credentials', processedBy: w.appOwner.email });

    const r2 = await call(app, 'DELETE', `${self}/grants`, { token: w.appOwner.token, body: { reason: 'asked by mistake', environment: w.managed.uid } });
    expect(r2.status, r2.text).toBe(204);
    expect((await getGrant(pendingUid)).body).toMatchObject({ status: 'Cancelled', comment: 'asked by mistake', processedBy: w.appOwner.email });

    expectError(await call(app, 'DELETE', `${self}/grants`, { token: w.appOwner.token, body: { reason: 'again', environment: w.managed.uid } }), 404);
    expectError(await call(app, 'DELETE', `${self}/grants`, { token: w.appOwner.token, body: { reason: 'none here', environment: bare.uid } }), 404);

    const audit = await grantAudit(a.uid);
    expect(audit.find((r) => r.action === 'APPLICATION_ACCESS_REVOKED' && (r.details as any).grant === approvedUid)!.details).toMatchObject({ reason: 'rotating credentials' });
    expect(audit.find((r) => r.action === 'APPLICATION_ACCESS_CANCELLED' && (r.details as any).grant === pendingUid)!.details).toMatchObject({ reason: 'asked by mistake' });
  });

  it('PUT {self}/grants with two environment URIs → 204 and a grant in each', async () => {
    const made = await call(app, 'POST', '/application_access', { token: w.appOwner.token, body: { application: a.uid, stream: w.other.uid, accessType: 'PRODUCER' } });
    expect(made.status, made.text).toBe(201);
    const res = await call(app, 'PUT', `${made.body._links.self.href}/grants`, {
      token: w.appOwner.token, headers: { 'Content-Type': 'text/uri-list' },
      raw: `${app.api}/environments/${w.managed.uid}\n${app.api}/environments/${w.auto.uid}\n`,
    });
    expect(res.status, res.text).toBe(204);
    const found = items(await search(`applicationId=${a.uid}&streamId=${w.other.uid}&accessType=PRODUCER`));
    expect(found.map((i) => [i._embedded.environment.uid, i.status]).sort()).toEqual([[w.auto.uid, 'Approved'], [w.managed.uid, 'Pending']].sort());
    const again = await call(app, 'GET', made.body._links.self.href, { token: w.appOwner.token });
    expect(again.body._embedded.grants).toHaveLength(2);
  });

  it('PUT {self}/grants is all or nothing: one refused environment refuses them all', async () => {
    const made = await call(app, 'POST', '/application_access', { token: w.appOwner.token, body: { application: a.uid, stream: w.other.uid, accessType: 'CONSUMER' } });
    expect(made.status, made.text).toBe(201);
    const res = await call(app, 'PUT', `${made.body._links.self.href}/grants`, { token: w.appOwner.token, body: [w.managed.uid, bare.uid] });
    expectError(res, 422, { errors: [`Stream ${w.other.name} is not configured in environment ${bare.shortName}`] });
    expect(await app.models.ApplicationAccessGrant.count({ where: { accessUid: made.body.uid } })).toBe(0);
    // PATCH requests as PUT does.
    const patched = await call(app, 'PATCH', `${made.body._links.self.href}/grants`, { token: w.appOwner.token, body: [w.managed._links.self.href] });
    expect(patched.status, patched.text).toBe(204);
    const grants = await app.models.ApplicationAccessGrant.findAll({ where: { accessUid: made.body.uid } });
    expect(grants.map((g) => [g.environmentUid, g.status])).toEqual([[w.managed.uid, 'Pending']]);
    // The grants association as URIs.
    const uris = await call(app, 'GET', `${made.body._links.self.href}/grants`, { token: w.appOwner.token, headers: { Accept: 'text/uri-list' } });
    expect(uris.status).toBe(200);
    expect(uris.text.trim().split(/\r?\n/)).toEqual([`${app.api}${GRANTS}/${grants[0].uid}`]);
  });
});

describe('audit history of grants', () => {
  it('each transition writes one Application row naming the grant, stream, environment, reason and actor', async () => {
    const a = await freshApp();
    const g1 = (await requested(a)).uid;
    expectStatus(await approve(g1), 200);
    expectStatus(await revoke(g1, 'rotation'), 200);
    const g2 = (await requested(a)).uid;
    expectStatus(await deny(g2, 'not for prod'), 200);
    const g3 = (await requested(a)).uid;
    expectStatus(await cancel(g3), 204);
    const g4 = (await requested(a, { environment: w.auto })).uid;
    // Failed requests write nothing.
    expectError(await approve(g2), 422);
    expectError(await request(a, { environment: w.auto }), 409);
    expectError(await approve(g1, w.appOwner.token), 403);

    const so = w.streamOwner.email;
    const ao = w.appOwner.email;
    const rows = await grantAudit(a.uid);
    expect(rows.map((r) => [r.action, r.actor, (r.details as any).grant])).toEqual([
      ['APPLICATION_ACCESS_REQUESTED', ao, g1],
      ['APPLICATION_ACCESS_APPROVED', so, g1],
      ['APPLICATION_ACCESS_REVOKED', so, g1],
      ['APPLICATION_ACCESS_REQUESTED', ao, g2],
      ['APPLICATION_ACCESS_DENIED', so, g2],
      ['APPLICATION_ACCESS_REQUESTED', ao, g3],
      ['APPLICATION_ACCESS_CANCELLED', ao, g3],
      ['APPLICATION_ACCESS_REQUESTED', ao, g4],
      ['APPLICATION_ACCESS_APPROVED', ao, g4],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ resourceType: 'Application', resourceName: a.shortName, resourceId: a.uid, tenant: t.shortName, tenantUid: t.tenant.uid });
      expect(r.details).toMatchObject({ stream: w.stream.name, accessType: 'CONSUMER' });
    }
    expect(rows.slice(0, 7).every((r) => (r.details as any).environment === w.managed.shortName)).toBe(true);
    expect(rows.slice(7).every((r) => (r.details as any).environment === w.auto.shortName)).toBe(true);
    expect(rows[2].details).toMatchObject({ reason: 'rotation' });
    expect(rows[4].details).toMatchObject({ reason: 'not for prod' });
    expect(rows[8].details).toMatchObject({ auto: true });
    for (const i of [0, 1, 3, 5, 6, 7]) expect(rows[i].details).not.toHaveProperty('reason');
    expect(rows[1].actorName).toBe('Test aa-streamowner');

    // The grants record who asked and who decided.
    expect((await getGrant(g1)).body).toMatchObject({ requestedBy: ao, processedBy: so });
    expect((await getGrant(g3)).body).toMatchObject({ requestedBy: ao, processedBy: ao });
    expect((await getGrant(g4)).body).toMatchObject({ requestedBy: ao, status: 'Approved' });
  });
});

describe('delete blockers and cascades', () => {
  it('stream config and stream: blocked by an open grant, deletable once it is over; the stream takes its grants and access rows', async () => {
    const { stream, config } = await freshStream();
    const a = await freshApp();
    const g = (await requested(a, { stream })).uid;
    const message = `Stream config ${config.topicName} still has 1 open access grant; remove them first`;
    expectError(await call(app, 'DELETE', `/stream_configs/${config.uid}`, { token: w.streamOwner.token }), 422, { errors: [message] });
    expectError(await call(app, 'DELETE', `/streams/${stream.uid}`, { token: w.streamOwner.token }), 422);
    expectStatus(await approve(g), 200);
    expectError(await call(app, 'DELETE', `/stream_configs/${config.uid}`, { token: w.streamOwner.token }), 422, { errors: [message] });
    expectStatus(await revoke(g), 200);

    expect((await call(app, 'DELETE', `/stream_configs/${config.uid}`, { token: w.streamOwner.token })).status).toBe(204);
    const [item] = items(await search(`streamId=${stream.uid}`));
    expect(item).toMatchObject({ uid: g, status: 'Revoked', streamConfigured: false, appConfigured: true });

    const del = await call(app, 'DELETE', `/streams/${stream.uid}`, { token: w.streamOwner.token });
    expect(del.status, del.text).toBe(204);
    expect(await app.models.ApplicationAccessGrant.count({ where: { streamUid: stream.uid } })).toBe(0);
    expect(await app.models.ApplicationAccess.count({ where: { streamUid: stream.uid } })).toBe(0);
    expect((await call(app, 'GET', `/applications/${a.uid}`, { token: w.appOwner.token })).status).toBe(200);
  });

  it('application: blocked by an open grant (besides its principal and credential); once those are gone it goes with its grants and access rows', async () => {
    const a = await freshApp();
    const g = (await requested(a)).uid;
    const del = () => call(app, 'DELETE', `/applications/${a.uid}`, { token: w.appOwner.token });
    expectError(await del(), 422, { errors: [`Application ${a.shortName} still has 1 principal, 1 credential, 1 open access grant; remove them first`] });
    expectStatus(await cancel(g), 204);
    expectError(await del(), 422, { errors: [`Application ${a.shortName} still has 1 principal, 1 credential; remove them first`] });

    // Principals and credentials have no API yet: the fixtures go the way they came.
    await app.models.ApplicationPrincipal.destroy({ where: { applicationUid: a.uid } });
    await app.models.ApplicationCredential.destroy({ where: { applicationUid: a.uid } });
    const [item] = items(await search(`applicationId=${a.uid}`));
    expect(item).toMatchObject({ uid: g, status: 'Cancelled', appConfigured: false, streamConfigured: true });

    const gone = await del();
    expect(gone.status, gone.text).toBe(204);
    expect(await app.models.ApplicationAccessGrant.count({ where: { applicationUid: a.uid } })).toBe(0);
    expect(await app.models.ApplicationAccess.count({ where: { applicationUid: a.uid } })).toBe(0);
    expectError(await getGrant(g), 404);
    expect((await call(app, 'GET', `/streams/${w.stream.uid}`, { token: w.streamOwner.token })).status).toBe(200);
  });

  it('environment: blocked by stream configs, credentials and open grants; deletable once the grants are over', async () => {
    n += 1;
    const env = await adminPost('/environments', { name: `aa-env-${n}`, shortName: `aaenv${n}`, instance: w.instance.uid, owners: w.streamTeam.uid });
    const cfg = await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: w.stream.uid, environment: env.uid } });
    expectStatus(cfg, 201);
    const a = await freshApp();
    const credential = await insertCredential(app, t.tenant.uid, a.uid, env.uid);
    const g = (await requested(a, { environment: env })).uid;
    const del = () => call(app, 'DELETE', `/environments/${env.uid}`, { token: t.admin.token });

    expectError(await del(), 422);
    expectStatus(await deny(g), 200);
    expect((await call(app, 'DELETE', `/stream_configs/${cfg.body.uid}`, { token: w.streamOwner.token })).status).toBe(204);
    expectError(await del(), 422, { errors: [`Environment ${env.shortName} still has 1 credential; remove them first`] });
    await credential.destroy();

    // An open grant without a stream config (as an import creates it) blocks the environment by itself.
    const identity = { applicationUid: a.uid, streamUid: w.stream.uid, environmentUid: env.uid, accessType: 'CONSUMER' };
    const accessRow = await app.models.ApplicationAccess.findOne({ where: { applicationUid: a.uid, streamUid: w.stream.uid, accessType: 'CONSUMER' } });
    const imported = await app.models.ApplicationAccessGrant.create({
      tenantUid: t.tenant.uid, accessUid: accessRow!.uid, ...identity, status: 'Approved', requestedBy: t.admin.email, requestedAt: new Date(),
      processedAt: new Date(), openKey: openKey(identity, 'Approved'),
    });
    expectError(await del(), 422, { errors: [`Environment ${env.shortName} still has 1 open access grant; remove them first`] });
    expectStatus(await revoke(imported.uid), 200);

    const gone = await del();
    expect(gone.status, gone.text).toBe(204);
    expect(await app.models.ApplicationAccessGrant.count({ where: { environmentUid: env.uid } })).toBe(0);
  });
});

describe('GET /auth agrees with the action links', () => {
  const auth = (user: TestUser, action: string, resourceType: string, uid: string) => authAnswer(app, user.token, action, resourceType, uid);
  const expectedActions: Record<Status, { stream: Action[]; app: Action[] }> = {
    Pending: { stream: ['approve', 'deny'], app: ['cancel'] },
    Approved: { stream: ['revoke'], app: ['revoke'] },
    Rejected: { stream: [], app: [] },
    Revoked: { stream: [], app: [] },
    Cancelled: { stream: [], app: [] },
  };

  it.each(Object.keys(expectedActions) as Status[])('a %s grant, for the stream owner and the application owner', async (status) => {
    const uid = await grantIn(status);
    for (const [who, user] of [['stream', w.streamOwner], ['app', w.appOwner]] as const) {
      const links = actionLinks((await getGrant(uid, user.token)).body._links);
      expect(links).toEqual(ACTION_LINKS.filter((x) => expectedActions[status][who].includes(x)));
      for (const action of ACTION_LINKS) {
        const res = await auth(user, `GRANT_${action.toUpperCase()}`, 'APPLICATION_ACCESS_GRANT', uid);
        if (links.includes(action)) {
          expect(res.status, `${who} ${action} ${res.text}`).toBe(200);
        } else {
          expectError(res, 403);
        }
      }
    }
  });

  it('an unrelated user → 404 for every grant action', async () => {
    const uid = await grantIn('Pending');
    for (const action of ACTION_LINKS) expectError(await auth(stranger, `GRANT_${action.toUpperCase()}`, 'APPLICATION_ACCESS_GRANT', uid), 404);
  });

  it('GRANT_REQUEST on the application: the application owner 200, the stream owner 403', async () => {
    expect((await auth(w.appOwner, 'GRANT_REQUEST', 'APPLICATION', w.application.uid)).status).toBe(200);
    expectError(await auth(w.streamOwner, 'GRANT_REQUEST', 'APPLICATION', w.application.uid), 403);
    expectError(await auth(stranger, 'GRANT_REQUEST', 'APPLICATION', w.application.uid), 403);
  });

  it('a grant action asked of another resource type → 400', async () => {
    expectError(await auth(w.streamOwner, 'GRANT_APPROVE', 'APPLICATION', w.application.uid), 400);
    expectError(await auth(w.appOwner, 'GRANT_REQUEST', 'APPLICATION_ACCESS_GRANT', w.application.uid), 400);
  });
});
