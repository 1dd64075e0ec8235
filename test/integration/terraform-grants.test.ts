/**
 * Application access grants exactly as the Axual Terraform provider drives them (docs/contract.md §5.14, §6.1, §11 items
 * 6, 7, 9, 13, 14): `axual-webclient/application_access_grant.go` sends the calls, `applications_access_grant_data.go`
 * says what it decodes, and the resources `application_access_grant`, `application_access_grant_approval`, the
 * data source `application_access_grant` and `application_deployment` decide what to call from what they read.
 * GET and search go through terraformCall (the client's default headers); the writes carry the per-call headers the
 * Go client sets itself (`accept: application/json, text/plain, *\/*`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { grantAuditOf } from '../support/audit';
import { call, type CallResult } from '../support/http';
import { goOk, queryEscape, terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let streams = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('tfgrant'));
  w = await accessWorld(app, t, 'tg');
});
afterAll(async () => app?.stop());

const grantHref = (uid: string) => `${app.api}/application_access_grants/${uid}`;

/** GetApplicationAccessGrant: the client's default headers (Realm, Accept: application/hal+json, Content-Type). */
const getGrant = (who: TestUser, uid: string) => terraformCall(app, t.shortName, who.token, 'GET', `/application_access_grants/${uid}`);

/** The writes: `h["accept"]` = application/json, text/plain, and any type; `h["content-type"]` = application/json; a body only if marshalled. */
function goWrite(who: TestUser, method: string, path: string, body?: unknown): Promise<CallResult> {
  return call(app, method, path, {
    token: who.token,
    headers: { Realm: t.shortName, Accept: 'application/json, text/plain, */*', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
  });
}

/** CreateApplicationAccessGrant: json.Marshal(ApplicationAccessGrantRequest), fields in struct order. */
const createGrant = (who: TestUser, applicationId: string, streamId: string, environmentId: string, accessType: string) =>
  goWrite(who, 'POST', '/application_access_grants', { applicationId, streamId, environmentId, accessType });
const approveGrant = (who: TestUser, uid: string) => goWrite(who, 'PUT', `/application_access_grants/${uid}`);
const cancelGrant = (who: TestUser, uid: string) => goWrite(who, 'DELETE', `/application_access_grants/${uid}`);
const revokeOrDenyGrant = (who: TestUser, uid: string, reason: string) => goWrite(who, 'POST', `/application_access_grants/${uid}/deny`, { reason });


interface Attributes { TopicId?: string; ApplicationId?: string; EnvironmentId?: string; AccessType?: string; Statuses?: string; Size?: number }
const JSON_TAGS: Array<[keyof Attributes, string]> = [
  ['TopicId', 'streamId'], ['ApplicationId', 'applicationId'], ['EnvironmentId', 'environmentId'], ['AccessType', 'accessType'], ['Statuses', 'statuses'], ['Size', 'size'],
];

/** GetApplicationAccessGrantsByAttributes' query: non-empty fields by json tag, then url.Values.Encode (keys sorted, QueryEscape). */
function attributesQuery(a: Attributes): string {
  const values: Array<[string, string]> = [];
  for (const [field, tag] of JSON_TAGS) {
    const v = a[field];
    if (typeof v === 'number' ? v !== 0 : typeof v === 'string' && v !== '') values.push([tag, String(v)]);
  }
  values.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return values.map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`).join('&');
}

const searchGrants = (who: TestUser, a: Attributes) =>
  terraformCall(app, t.shortName, who.token, 'GET', `/application_access_grants/search/findByAttributes?${attributesQuery(a)}`);

/** A stream of its own, configured in both environments, so every test starts without an open grant. */
const freshStream = () => worldStream(app, w, `tg-topic-${++streams}`);

/** resource axual_application_access_grant Create: POST, then state = {id: uid, status, environment: environment.id}. */
async function tfCreate(stream: any, env: any, accessType = 'CONSUMER') {
  const res = await createGrant(w.appOwner, w.application.uid, stream.uid, env.uid, accessType);
  expect(res.status, res.text).toBe(201);
  return { id: res.body.uid as string, status: res.body.status as string, environment: res.body.environment.id as string, res };
}

async function grantRow(uid: string) {
  return (await app.models.ApplicationAccessGrant.findByPk(uid))!;
}

const transitions = async (uid: string): Promise<string[]> => (await grantAuditOf(app, w.application.uid, uid)).map((r) => r.action);

const TERMINAL = ['Revoked', 'Rejected', 'Cancelled'];

/**
 * resource axual_application_access_grant Delete, step by step: GET (404 → done); terminal → done; a cancel link →
 * CancelGrant; Approved with a revoke link → RevokeOrDenyGrant("Revoked during terraform destroy"), and when that
 * fails, GET again and accept a terminal grant. Answers the calls made and the error the provider would report.
 */
async function tfDestroyGrant(who: TestUser, uid: string): Promise<{ calls: string[]; error?: string }> {
  const calls: string[] = ['GET'];
  const read = await getGrant(who, uid);
  if (read.status === 404) return { calls };
  if (read.status !== 200) return { calls, error: `GET ${read.status}` };
  const grant = read.body;
  if (TERMINAL.includes(grant.status)) return { calls };
  if (grant._links?.cancel?.href) {
    calls.push('DELETE');
    const res = await cancelGrant(who, uid);
    return goOk(res) ? { calls } : { calls, error: `DELETE ${res.status}` };
  }
  if (grant.status === 'Approved' && grant._links?.revoke?.href) {
    calls.push('POST deny');
    const res = await revokeOrDenyGrant(who, uid, 'Revoked during terraform destroy');
    if (goOk(res)) return { calls };
    calls.push('GET');
    const again = await getGrant(who, uid);
    if (again.status === 404 || TERMINAL.includes(again.body?.status)) return { calls };
    return { calls, error: `POST deny ${res.status}` };
  }
  return { calls, error: `unexpected state ${grant.status}` };
}

describe('CreateApplicationAccessGrant (POST) and what the provider decodes', () => {
  it('Stream owner environment: 201, Location, plain body with uid, status Pending and environment.id = the environment uid', async () => {
    const stream = await freshStream();
    const { id, status, environment, res } = await tfCreate(stream, w.managed);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('location')).toBe(grantHref(id));
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(status).toBe('Pending');
    // The provider stores environment.id as the resource's `environment`: anything but the uid is a perpetual diff.
    expect(environment).toBe(w.managed.uid);
    expect(res.body._links).toBeUndefined();
    expect(res.body).toMatchObject({
      id, uid: id, accessType: 'CONSUMER', comment: null, requestedBy: w.appOwner.email, processedBy: null, pending: true, approved: false,
      application: { id: w.application.uid, uid: w.application.uid, name: w.application.name, shortName: w.application.shortName },
      stream: { id: stream.uid, uid: stream.uid, name: stream.name },
      environment: { id: w.managed.uid, uid: w.managed.uid, shortName: w.managed.shortName, instance: { id: w.instance.uid }, owners: { id: w.streamTeam.uid } },
    });
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED']);
  });

  it('Auto environment: Approved at once (PRODUCER), environment.id = the environment uid', async () => {
    const { id, status, environment, res } = await tfCreate(await freshStream(), w.auto, 'PRODUCER');
    expect([status, environment]).toEqual(['Approved', w.auto.uid]);
    expect(res.body).toMatchObject({ accessType: 'PRODUCER', pending: false, approved: true });
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED']);
  });

  it('a retried POST (§11.14) answers 409 and makes no second row, Pending or Approved', async () => {
    for (const env of [w.managed, w.auto]) {
      const stream = await freshStream();
      const first = await tfCreate(stream, env);
      const again = await createGrant(w.appOwner, w.application.uid, stream.uid, env.uid, 'CONSUMER');
      expectError(again, 409);
      const rows = await app.models.ApplicationAccessGrant.findAll({ where: { applicationUid: w.application.uid, streamUid: stream.uid, environmentUid: env.uid } });
      expect(rows.map((r) => r.uid)).toEqual([first.id]);
    }
  });

  it('after the grant ended, the same POST makes a new grant (terminal grants do not block)', async () => {
    const stream = await freshStream();
    const first = await tfCreate(stream, w.managed);
    expect((await cancelGrant(w.appOwner, first.id)).status).toBe(204);
    const second = await tfCreate(stream, w.managed);
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('Pending');
  });
});

describe('GetApplicationAccessGrant (GET) and its action links', () => {
  it('Pending: Title-case accessType, embedded uids; links per caller', async () => {
    const stream = await freshStream();
    const { id } = await tfCreate(stream, w.managed);
    const self = grantHref(id);

    const asApp = await getGrant(w.appOwner, id);
    expect(asApp.status).toBe(200);
    expect(asApp.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(asApp.body).toMatchObject({
      uid: id, status: 'Pending', comment: null, accessType: 'Consumer', requestedBy: w.appOwner.email, processedBy: null,
      _embedded: { environment: { uid: w.managed.uid }, application: { uid: w.application.uid }, stream: { uid: stream.uid } },
    });
    // The Read normalises with strings.ToUpper to match the configuration.
    expect(asApp.body.accessType.toUpperCase()).toBe('CONSUMER');
    expect(asApp.body._links.self.href).toBe(self);
    expect(asApp.body._links.cancel).toEqual({ href: self });
    for (const rel of ['approve', 'deny', 'revoke']) expect(asApp.body._links[rel], rel).toBeUndefined();

    const asStream = await getGrant(w.streamOwner, id);
    expect(asStream.body._links.approve).toEqual({ href: self });
    expect(asStream.body._links.deny).toEqual({ href: `${self}/deny` });
    for (const rel of ['cancel', 'revoke']) expect(asStream.body._links[rel], rel).toBeUndefined();

    const asAdmin = await getGrant(t.admin, id);
    expect(Object.keys(asAdmin.body._links).filter((r) => ['approve', 'deny', 'cancel', 'revoke'].includes(r)).sort()).toEqual(['approve', 'cancel', 'deny']);
  });

  it('PRODUCER reads as Producer', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed, 'PRODUCER');
    expect((await getGrant(w.appOwner, id)).body.accessType).toBe('Producer');
  });

  it('an unknown grant is 404 (the provider drops it from state)', async () => {
    const res = await getGrant(w.appOwner, '0123456789abcdef0123456789abcdef');
    expectError(res, 404);
    expect((await getGrant(w.appOwner, 'no-such-grant')).status).toBe(404);
  });
});

describe('resource axual_application_access_grant_approval', () => {
  it('Create: GET shows approve → ApproveGrant (PUT, no body) → Approved; links then revoke only, for both sides', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    const read = await getGrant(w.streamOwner, id);
    expect(read.body._links.approve.href).not.toBe('');
    const approved = await approveGrant(w.streamOwner, id);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ uid: id, status: 'Approved', accessType: 'Consumer', processedBy: w.streamOwner.email });

    const self = grantHref(id);
    for (const who of [w.streamOwner, w.appOwner]) {
      const after = await getGrant(who, id);
      expect(after.body.status).toBe('Approved');
      expect(after.body._links.revoke).toEqual({ href: `${self}/revoke` });
      for (const rel of ['approve', 'deny', 'cancel']) expect(after.body._links[rel], rel).toBeUndefined();
    }
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED']);
  });

  it('Create on an Auto-approved grant: no approve link, status Approved → adopted without a call', async () => {
    const { id } = await tfCreate(await freshStream(), w.auto);
    const read = await getGrant(w.streamOwner, id);
    expect(read.body.status).toBe('Approved');
    expect(read.body._links.approve).toBeUndefined();
    expect(read.body._links.revoke).toEqual({ href: `${grantHref(id)}/revoke` });
  });

  it('Delete: GET shows revoke → RevokeOrDenyGrant (POST /deny {"reason"}) → Revoked with that comment; Read then drops it', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect((await approveGrant(w.streamOwner, id)).status).toBe(200);
    const read = await getGrant(w.streamOwner, id);
    expect(read.body._links.revoke.href).not.toBe('');
    const revoked = await revokeOrDenyGrant(w.streamOwner, id, 'Revoked in terraform');
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ uid: id, status: 'Revoked', comment: 'Revoked in terraform' });
    const after = await getGrant(w.streamOwner, id);
    expect(after.body).toMatchObject({ status: 'Revoked', comment: 'Revoked in terraform', processedBy: w.streamOwner.email });
    for (const rel of ['approve', 'deny', 'cancel', 'revoke']) expect(after.body._links[rel], rel).toBeUndefined();
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED', 'APPLICATION_ACCESS_REVOKED']);
  });
});

describe('RevokeOrDenyGrant and CancelGrant', () => {
  it('POST /deny {"reason"} on Pending → Rejected, reason as comment, DENIED audited', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    const res = await revokeOrDenyGrant(w.streamOwner, id, 'not this quarter');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'Rejected', comment: 'not this quarter' });
    expect((await getGrant(w.appOwner, id)).body).toMatchObject({ status: 'Rejected', comment: 'not this quarter' });
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_DENIED']);
  });

  it('POST /deny on Approved → Revoked; the application owner may do it too (§11.9)', async () => {
    const { id } = await tfCreate(await freshStream(), w.auto);
    const res = await revokeOrDenyGrant(w.appOwner, id, '');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'Revoked', comment: '' });
    expect((await transitions(id)).at(-1)).toBe('APPLICATION_ACCESS_REVOKED');
  });

  it('POST /deny again on a terminal grant is 422 (the provider sees UnprocessableEntityError), nothing audited', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect((await revokeOrDenyGrant(w.streamOwner, id, 'no')).status).toBe(200);
    const again = await revokeOrDenyGrant(w.streamOwner, id, 'no');
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual(['Application Access Grant cannot be denied in status Rejected.']);
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_DENIED']);
  });

  it('DELETE on Pending → 204, row kept as Cancelled; DELETE again → 204 unchanged', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    const res = await cancelGrant(w.appOwner, id);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await getGrant(w.appOwner, id)).body).toMatchObject({ uid: id, status: 'Cancelled' });
    expect((await grantRow(id)).processedBy).toBe(w.appOwner.email);
    expect((await cancelGrant(w.appOwner, id)).status).toBe(204);
    expect(await transitions(id)).toEqual(['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_CANCELLED']);
  });

  it('DELETE on Approved → 422 with the exact message (§11.13)', async () => {
    const { id } = await tfCreate(await freshStream(), w.auto);
    const res = await cancelGrant(w.appOwner, id);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(['Application Access Grant cannot be cancelled. Please Revoke first.']);
    expect((await grantRow(id)).status).toBe('Approved');
  });
});

describe('GetApplicationAccessGrantsByAttributes', () => {
  it('the data source query (all four fields) is built as url.Values.Encode builds it', () => {
    expect(attributesQuery({ TopicId: 's', ApplicationId: 'a', EnvironmentId: 'e', AccessType: 'CONSUMER' }))
      .toBe('accessType=CONSUMER&applicationId=a&environmentId=e&streamId=s');
    expect(attributesQuery({ ApplicationId: 'a', EnvironmentId: 'e', Statuses: 'APPROVED' })).toBe('applicationId=a&environmentId=e&statuses=APPROVED');
  });

  it('data source axual_application_access_grant: _embedded.applicationAccessGrantResponses[0] with upper-case accessType', async () => {
    const stream = await freshStream();
    const { id } = await tfCreate(stream, w.managed, 'PRODUCER');
    for (const who of [w.appOwner, w.streamOwner]) {
      const res = await searchGrants(who, { TopicId: stream.uid, ApplicationId: w.application.uid, EnvironmentId: w.managed.uid, AccessType: 'PRODUCER' });
      expect(res.status, res.text).toBe(200);
      const items = res.body._embedded.applicationAccessGrantResponses;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        uid: id, status: 'Pending', accessType: 'PRODUCER',
        _embedded: { environment: { uid: w.managed.uid }, application: { uid: w.application.uid }, stream: { uid: stream.uid } },
      });
    }
    const none = await searchGrants(w.appOwner, { TopicId: stream.uid, ApplicationId: w.application.uid, EnvironmentId: w.managed.uid, AccessType: 'CONSUMER' });
    expect(none.status).toBe(200);
    expect(none.body._embedded.applicationAccessGrantResponses).toEqual([]);
  });

  it('application_deployment: statuses=APPROVED finds only Approved grants; none yet → an empty list', async () => {
    const stream = await freshStream();
    const { id } = await tfCreate(stream, w.managed);
    const query = { ApplicationId: w.application.uid, EnvironmentId: w.managed.uid, Statuses: 'APPROVED' };
    const before = await searchGrants(w.appOwner, query);
    expect(before.status, before.text).toBe(200);
    expect(before.body._embedded.applicationAccessGrantResponses.map((g: any) => g.uid)).not.toContain(id);
    expect(before.body._embedded.applicationAccessGrantResponses.every((g: any) => g.status === 'Approved')).toBe(true);

    expect((await approveGrant(w.streamOwner, id)).status).toBe(200);
    const after = await searchGrants(w.appOwner, query);
    const mine = after.body._embedded.applicationAccessGrantResponses.filter((g: any) => g.uid === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'Approved', accessType: 'CONSUMER', _embedded: { environment: { uid: w.managed.uid }, application: { uid: w.application.uid } } });
    expect(after.body._embedded.applicationAccessGrantResponses.every((g: any) => g.status === 'Approved')).toBe(true);
  });

  it('in an environment with no grant at all, statuses=APPROVED answers _embedded.applicationAccessGrantResponses = []', async () => {
    const env = await call(app, 'POST', '/environments', { token: t.admin.token, body: { name: 'tg-empty', shortName: 'tgempty', instance: w.instance.uid, owners: w.streamTeam.uid } });
    expect(env.status, env.text).toBe(201);
    const res = await searchGrants(w.appOwner, { ApplicationId: w.application.uid, EnvironmentId: env.body.uid, Statuses: 'APPROVED' });
    expect(res.status, res.text).toBe(200);
    expect(res.body._embedded.applicationAccessGrantResponses).toEqual([]);
  });
});

describe('resource axual_application_access_grant Delete flow', () => {
  it('Pending: GET shows cancel → CancelGrant → Cancelled', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect(await tfDestroyGrant(w.appOwner, id)).toEqual({ calls: ['GET', 'DELETE'] });
    expect((await grantRow(id)).status).toBe('Cancelled');
  });

  it('Approved: no cancel link, revoke link → RevokeOrDenyGrant("Revoked during terraform destroy") → Revoked', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect((await approveGrant(w.streamOwner, id)).status).toBe(200);
    expect(await tfDestroyGrant(w.appOwner, id)).toEqual({ calls: ['GET', 'POST deny'] });
    const row = await grantRow(id);
    expect([row.status, row.comment, row.processedBy]).toEqual(['Revoked', 'Revoked during terraform destroy', w.appOwner.email]);
  });

  it('terminal (Rejected, Revoked, Cancelled): only the GET', async () => {
    const rejected = (await tfCreate(await freshStream(), w.managed)).id;
    expect((await revokeOrDenyGrant(w.streamOwner, rejected, 'no')).status).toBe(200);
    const revoked = (await tfCreate(await freshStream(), w.auto)).id;
    expect((await revokeOrDenyGrant(w.streamOwner, revoked, 'gone')).status).toBe(200);
    const cancelled = (await tfCreate(await freshStream(), w.managed)).id;
    expect((await cancelGrant(w.appOwner, cancelled)).status).toBe(204);
    for (const id of [rejected, revoked, cancelled]) expect(await tfDestroyGrant(w.appOwner, id), id).toEqual({ calls: ['GET'] });
  });

  it('gone (404): success without further calls', async () => {
    expect(await tfDestroyGrant(w.appOwner, 'fedcba9876543210fedcba9876543210')).toEqual({ calls: ['GET'] });
  });

  it('a deny that comes after the revoke (the race above, in order): 422 for the application editors too, not 403', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect((await approveGrant(w.streamOwner, id)).status).toBe(200);
    expect((await revokeOrDenyGrant(w.streamOwner, id, 'Revoked in terraform')).status).toBe(200);
    const late = await revokeOrDenyGrant(w.appOwner, id, 'Revoked during terraform destroy');
    expect(late.status, late.text).toBe(422);
    expect(late.body.message ?? late.text).toContain('cannot be denied in status Revoked');
    expect((await transitions(id)).filter((a) => a === 'APPLICATION_ACCESS_REVOKED')).toHaveLength(1);
  });

  it('destroy of grant and approval in parallel: one revoke wins, the other re-reads Revoked and succeeds; one REVOKED entry', async () => {
    const { id } = await tfCreate(await freshStream(), w.managed);
    expect((await approveGrant(w.streamOwner, id)).status).toBe(200);
    // Both resources read the grant first (Approved, revoke link), then both revoke at once.
    const [a, b] = await Promise.all([getGrant(w.appOwner, id), getGrant(w.streamOwner, id)]);
    expect([a.body._links.revoke?.href, b.body._links.revoke?.href]).toEqual([`${grantHref(id)}/revoke`, `${grantHref(id)}/revoke`]);
    const [byGrant, byApproval] = await Promise.all([
      revokeOrDenyGrant(w.appOwner, id, 'Revoked during terraform destroy'),
      revokeOrDenyGrant(w.streamOwner, id, 'Revoked in terraform'),
    ]);
    expect([byGrant, byApproval].filter(goOk)).toHaveLength(1);
    const loser = [byGrant, byApproval].find((r) => !goOk(r))!;
    expect([409, 422]).toContain(loser.status);
    expect((await getGrant(w.appOwner, id)).body.status).toBe('Revoked');
    expect((await transitions(id)).filter((a) => a === 'APPLICATION_ACCESS_REVOKED')).toHaveLength(1);
  });
});
