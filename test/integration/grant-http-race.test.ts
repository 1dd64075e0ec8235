/**
 * The HTTP half of issue 10's race safety (docs/contract.md §5.14, §6.1, §11.14): many concurrent decisions on one grant
 * move it exactly once, with exactly one audit entry; many concurrent requests for the same grant make exactly one
 * row. The losers answer 409 (lost the compare-and-set or the unique open key) or 422 (read the grant after it
 * moved) — never a 5xx, never a second transition. Runs on PostgreSQL and, in the MariaDB runs, on MariaDB through
 * both drivers; the assertions count audit rows and grant rows, not only statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, worldStream, type AccessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { requestedGrant } from '../support/fixtures';
import { grantAuditOf } from '../support/audit';
import { call, type CallResult } from '../support/http';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let streams = 0;

const N = 50;
const TRANSITIONS = ['APPLICATION_ACCESS_APPROVED', 'APPLICATION_ACCESS_DENIED', 'APPLICATION_ACCESS_CANCELLED', 'APPLICATION_ACCESS_REVOKED'];
const FIRST_MOVE: Record<string, string> = {
  APPLICATION_ACCESS_APPROVED: 'Approved', APPLICATION_ACCESS_DENIED: 'Rejected', APPLICATION_ACCESS_CANCELLED: 'Cancelled',
};

beforeAll(async () => {
  ({ app, t } = await startWithTenant('hrace'));
  w = await accessWorld(app, t, 'hr');
});
afterAll(async () => app?.stop());

/** A stream of its own, configured in both environments: every test gets a fresh (application, stream) pair. */
const freshStream = () => worldStream(app, w, `hr-race-${++streams}`);

/** The world application's request for `stream` in `env`. */
const requestGrant = (stream: any, env: any, accessType = 'CONSUMER'): Promise<any> =>
  requestedGrant(app, w.appOwner.token, { application: w.application.uid, stream: stream.uid, environment: env.uid, accessType });

/** The grant events of the application whose `details.grant` is `grant`, oldest first. */
const auditOf = (grant: string) => grantAuditOf(app, w.application.uid, grant);

async function statusOf(grant: string): Promise<string> {
  const row = await app.models.ApplicationAccessGrant.findByPk(grant);
  return row!.status as string;
}

type Kind = 'approve' | 'deny' | 'cancel' | 'revoke-stream' | 'revoke-app';
interface Outcome { kind: Kind; res: CallResult }

function decide(kind: Kind, grant: string): Promise<CallResult> {
  const path = `/application_access_grants/${grant}`;
  switch (kind) {
    case 'approve': return call(app, 'PUT', path, { token: w.streamOwner.token });
    case 'deny': return call(app, 'POST', `${path}/deny`, { token: w.streamOwner.token, body: { reason: 'denied in the race' } });
    case 'cancel': return call(app, 'DELETE', path, { token: w.appOwner.token });
    case 'revoke-stream': return call(app, 'POST', `${path}/revoke`, { token: w.streamOwner.token, body: { reason: 'revoked by the stream owner' } });
    case 'revoke-app': return call(app, 'POST', `${path}/revoke`, { token: w.appOwner.token, body: { reason: 'revoked by the app owner' } });
  }
}

async function race(grant: string, kinds: Kind[]): Promise<Outcome[]> {
  const replies = await Promise.all(kinds.map((kind) => decide(kind, grant)));
  return replies.map((res, i) => ({ kind: kinds[i], res }));
}

const mix = (kinds: Kind[]) => Array.from({ length: N }, (_, i) => kinds[i % kinds.length]);
/** How many replies had each status: `{ 201: 1, 409: 49 }`. */
const tally = (replies: CallResult[]) => replies.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});
const describeReplies = (outcomes: Outcome[]) => outcomes.map((o) => `${o.kind}:${o.res.status}`).join(' ');

/** Every reply of a lost decision: 409 (lost the compare-and-set) or 422 (read the grant after it moved). */
function expectLosers(outcomes: Outcome[]) {
  for (const o of outcomes) {
    expect([409, 422], `${o.kind} ${o.res.status} ${o.res.text}`).toContain(o.res.status);
    expect(o.res.body?.status, o.res.text).toBe(o.res.status === 409 ? 'CONFLICT' : 'UNPROCESSABLE_ENTITY');
  }
}

describe('concurrent decisions on one Pending grant (approve, deny, cancel)', () => {
  /**
   * approve + cancel: whoever wins, nobody else can move the grant afterwards (an approve on Approved or Cancelled is
   * 422, a cancel on Approved is 422, a cancel on Cancelled is 204 unchanged), so exactly one transition.
   */
  for (const round of [1, 2]) {
    it(`approve + cancel, round ${round}: exactly one transition, one audit entry`, async () => {
      const grant = (await requestGrant(await freshStream(), w.managed)).uid;
      const outcomes = await race(grant, mix(['approve', 'cancel']));
      const trail = (await auditOf(grant)).filter((e) => TRANSITIONS.includes(e.action));
      expect(trail.map((e) => e.action), describeReplies(outcomes)).toHaveLength(1);
      const [entry] = trail;
      const final = await statusOf(grant);
      expect(final).toBe(FIRST_MOVE[entry.action]);
      expect(entry.details.status).toEqual({ old: 'Pending', new: final });
      expect(entry.details.grant).toBe(grant);

      const ok = outcomes.filter((o) => o.res.status === 200);
      const noContent = outcomes.filter((o) => o.res.status === 204);
      if (final === 'Approved') {
        expect(ok, describeReplies(outcomes)).toHaveLength(1);
        expect(ok[0].kind).toBe('approve');
        expect(ok[0].res.body).toMatchObject({ uid: grant, status: 'Approved', processedBy: w.streamOwner.email });
        expect(entry.actor).toBe(w.streamOwner.email);
        expect(noContent, describeReplies(outcomes)).toHaveLength(0);
        expectLosers(outcomes.filter((o) => o !== ok[0]));
      } else {
        expect(final).toBe('Cancelled');
        expect(ok, describeReplies(outcomes)).toHaveLength(0);
        expect(entry.actor).toBe(w.appOwner.email);
        // The winning cancel and any cancel that read the grant as Cancelled (204 unchanged); no approve succeeded.
        expect(noContent.length).toBeGreaterThanOrEqual(1);
        expect(noContent.every((o) => o.kind === 'cancel')).toBe(true);
        expectLosers(outcomes.filter((o) => o.res.status !== 204));
      }
    });
  }

  /** deny + cancel: both end the grant, so later arrivals see a terminal grant (deny 422, cancel 204 unchanged). */
  for (const round of [1, 2]) {
    it(`deny + cancel, round ${round}: exactly one transition, one audit entry`, async () => {
      const grant = (await requestGrant(await freshStream(), w.managed, 'PRODUCER')).uid;
      const outcomes = await race(grant, mix(['deny', 'cancel']));
      const trail = (await auditOf(grant)).filter((e) => TRANSITIONS.includes(e.action));
      expect(trail.map((e) => e.action), describeReplies(outcomes)).toHaveLength(1);
      const final = await statusOf(grant);
      expect(final).toBe(FIRST_MOVE[trail[0].action]);

      const ok = outcomes.filter((o) => o.res.status === 200);
      const noContent = outcomes.filter((o) => o.res.status === 204);
      expect(noContent.every((o) => o.kind === 'cancel')).toBe(true);
      if (final === 'Rejected') {
        expect(ok.map((o) => o.kind), describeReplies(outcomes)).toEqual(['deny']);
        expect(ok[0].res.body).toMatchObject({ uid: grant, status: 'Rejected', comment: 'denied in the race' });
        expect(trail[0].details.reason).toBe('denied in the race');
      } else {
        expect(final).toBe('Cancelled');
        expect(ok, describeReplies(outcomes)).toHaveLength(0);
        expect(noContent.length).toBeGreaterThanOrEqual(1);
      }
      expectLosers(outcomes.filter((o) => o.res.status !== 200 && o.res.status !== 204));
      const row = await app.models.ApplicationAccessGrant.findByPk(grant);
      expect(row!.version).toBe(1);
      expect(row!.openKey).toBeNull();
    });
  }

  /**
   * approve + deny + cancel: exactly one of APPROVED / DENIED / CANCELLED. `POST /deny` on an Approved grant revokes
   * it (docs/contract.md §5.14), so when approve wins, one later deny may make the one legitimate second move (REVOKED) —
   * and every successful reply is accounted for by exactly one audit entry.
   */
  for (const round of [1, 2]) {
    it(`approve + deny + cancel, round ${round}: exactly one first transition, every success audited once`, async () => {
      const grant = (await requestGrant(await freshStream(), w.managed)).uid;
      const outcomes = await race(grant, mix(['approve', 'deny', 'cancel']));
      const trail = (await auditOf(grant)).filter((e) => TRANSITIONS.includes(e.action));
      const first = trail.filter((e) => e.action in FIRST_MOVE);
      const revoked = trail.filter((e) => e.action === 'APPLICATION_ACCESS_REVOKED');
      expect(first.map((e) => e.action), describeReplies(outcomes)).toHaveLength(1);
      expect(trail[0]).toBe(first[0]);
      const ok = outcomes.filter((o) => o.res.status === 200);
      const noContent = outcomes.filter((o) => o.res.status === 204);
      expect(noContent.every((o) => o.kind === 'cancel')).toBe(true);
      expectLosers(outcomes.filter((o) => o.res.status !== 200 && o.res.status !== 204));
      const final = await statusOf(grant);

      if (first[0].action === 'APPLICATION_ACCESS_APPROVED') {
        expect(revoked.length).toBeLessThanOrEqual(1);
        expect(noContent, describeReplies(outcomes)).toHaveLength(0);
        const approves = ok.filter((o) => o.kind === 'approve');
        expect(approves).toHaveLength(1);
        // A 200 for deny after the approval is the revoke (its reply shows Revoked), audited as REVOKED.
        const revokes = ok.filter((o) => o.kind === 'deny');
        expect(revokes).toHaveLength(revoked.length);
        expect(ok).toHaveLength(1 + revoked.length);
        expect(final).toBe(revoked.length === 1 ? 'Revoked' : 'Approved');
        for (const r of revokes) expect(r.res.body.status).toBe('Revoked');
      } else {
        expect(revoked).toHaveLength(0);
        expect(trail).toHaveLength(1);
        expect(final).toBe(FIRST_MOVE[first[0].action]);
        if (final === 'Rejected') {
          expect(ok.map((o) => o.kind), describeReplies(outcomes)).toEqual(['deny']);
          expect(ok[0].res.body.status).toBe('Rejected');
        } else {
          expect(ok, describeReplies(outcomes)).toHaveLength(0);
          expect(noContent.length).toBeGreaterThanOrEqual(1);
        }
      }
    });
  }
});

describe('concurrent revokes and denies on one Approved grant', () => {
  const cases: Array<[string, () => Promise<string>]> = [
    ['approved by the stream owner', async () => {
      const grant = (await requestGrant(await freshStream(), w.managed)).uid;
      const approved = await decide('approve', grant);
      expect(approved.status, approved.text).toBe(200);
      return grant;
    }],
    ['approved automatically (Auto environment)', async () => {
      const made = await requestGrant(await freshStream(), w.auto, 'PRODUCER');
      expect(made.status).toBe('Approved');
      return made.uid;
    }],
  ];
  for (const [name, approvedGrant] of cases) {
    it(`${name}: exactly one 200, the rest 409/422, exactly one REVOKED entry`, async () => {
      const grant = await approvedGrant();
      const before = (await auditOf(grant)).length;
      const outcomes = await race(grant, mix(['revoke-stream', 'deny', 'revoke-app']));
      const ok = outcomes.filter((o) => o.res.status === 200);
      expect(ok, describeReplies(outcomes)).toHaveLength(1);
      expect(ok[0].res.body).toMatchObject({ uid: grant, status: 'Revoked' });
      expectLosers(outcomes.filter((o) => o !== ok[0]));

      const after = await auditOf(grant);
      expect(after.slice(before).map((e) => e.action)).toEqual(['APPLICATION_ACCESS_REVOKED']);
      const entry = after[after.length - 1];
      expect(entry.details.status).toEqual({ old: 'Approved', new: 'Revoked' });
      expect(entry.actor).toBe(ok[0].kind === 'revoke-app' ? w.appOwner.email : w.streamOwner.email);
      expect(entry.details.reason).toBe(ok[0].res.body.comment);

      const row = await app.models.ApplicationAccessGrant.findByPk(grant);
      expect(row!.status).toBe('Revoked');
      expect(row!.openKey).toBeNull();
      expect(row!.processedBy).toBe(entry.actor);
    });
  }
});

describe('concurrent requests for the same grant', () => {
  const cases: Array<[string, () => any, string, string]> = [
    ['Stream owner environment, CONSUMER', () => w.managed, 'CONSUMER', 'Pending'],
    ['Stream owner environment, PRODUCER', () => w.managed, 'PRODUCER', 'Pending'],
    ['Auto environment, CONSUMER', () => w.auto, 'CONSUMER', 'Approved'],
  ];
  for (const [name, envOf, accessType, status] of cases) {
    it(`${name}: exactly one 201, the rest 409, one row, one REQUESTED entry`, async () => {
      const stream = await freshStream();
      const env = envOf();
      const body = { applicationId: w.application.uid, streamId: stream.uid, environmentId: env.uid, accessType };
      const replies = await Promise.all(Array.from({ length: N }, () => call(app, 'POST', '/application_access_grants', { token: w.appOwner.token, body })));
      const created = replies.filter((r) => r.status === 201);
      // Every loser is a 409 CONFLICT: never a 5xx (e.g. a database deadlock leaking out as 500).
      expect(tally(replies), replies.find((r) => r.status !== 201 && r.status !== 409)?.text).toEqual({ 201: 1, 409: N - 1 });
      expect(created).toHaveLength(1);
      for (const r of replies.filter((x) => x.status !== 201)) expect(r.body.status).toBe('CONFLICT');
      const grant = created[0].body;
      expect(grant).toMatchObject({ status, accessType });
      expect(created[0].headers.get('location')).toBe(`${app.api}/application_access_grants/${grant.uid}`);

      const rows = await app.models.ApplicationAccessGrant.findAll({
        where: { applicationUid: w.application.uid, streamUid: stream.uid, environmentUid: env.uid, accessType },
      });
      expect(rows.map((r) => r.uid)).toEqual([grant.uid]);
      const access = await app.models.ApplicationAccess.findAll({ where: { applicationUid: w.application.uid, streamUid: stream.uid, accessType } });
      expect(access).toHaveLength(1);
      expect(rows[0].accessUid).toBe(access[0].uid);

      const all = await app.models.AuditEvent.findAll({ where: { resourceId: w.application.uid, action: 'APPLICATION_ACCESS_REQUESTED' } });
      const requested = all.filter((e) => (e.details as any)?.stream === stream.name);
      expect(requested.map((e) => (e.details as any).grant)).toEqual([grant.uid]);
      const approved = (await auditOf(grant.uid)).filter((e) => e.action === 'APPLICATION_ACCESS_APPROVED');
      expect(approved.map((e) => e.details.auto)).toEqual(status === 'Approved' ? [true] : []);
    });
  }

  it('a new request after the grant ended races the same way: one more row, not two', async () => {
    const stream = await freshStream();
    const first = await requestGrant(stream, w.managed);
    expect((await decide('deny', first.uid)).status).toBe(200);
    const body = { applicationId: w.application.uid, streamId: stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' };
    const replies = await Promise.all(Array.from({ length: N }, () => call(app, 'POST', '/application_access_grants', { token: w.appOwner.token, body })));
    expect(tally(replies), replies.find((r) => r.status !== 201 && r.status !== 409)?.text).toEqual({ 201: 1, 409: N - 1 });
    const rows = await app.models.ApplicationAccessGrant.findAll({ where: { applicationUid: w.application.uid, streamUid: stream.uid } });
    expect(rows.map((r) => r.status).sort()).toEqual(['Pending', 'Rejected']);
  });
});
