/**
 * The expiry sweep is exactly-once across hosts (issue 33): several service instances on one database (in-process,
 * each with its own connection pool, as two hosts would be) sweep at once, and every due Approved grant is revoked
 * once, with one APPLICATION_ACCESS_REVOKED entry by `system`, reason `expired`, in the transaction of the change.
 *
 * Time is controlled, not waited for: this file's grants end in 1990 and its sweeps run "at" 1990-01-02, so they
 * touch no other file's grants on the shared database (those end around now or later), and no clock is raced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { call, created, expectStatus } from '../support/http';
import { auditOf } from '../support/audit';
import { openKey } from '../../models/application-access';
import { expireDueGrants } from '../../models/grant-expiry';

const HOSTS = 3;
const SWEEPS_PER_HOST = 2;
const ENDED = new Date('1990-01-01T00:00:00.000Z');
const SWEEP_AT = new Date('1990-01-02T00:00:00.000Z');

let app: TestApp;
let hosts: TestApp[] = [];
let t: TestTenant;
let w: AccessWorld;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('sweep'));
  w = await accessWorld(app, t, 'sw');
  hosts = [app];
  for (let i = 1; i < HOSTS; i++) hosts.push(await startTestApp());
});
afterAll(async () => {
  for (const h of hosts.slice(1)) await h.stop();
  await app?.stop();
});

/** An Approved grant of the world's application on a new stream, made straight in the database with its end. */
async function approvedGrant(expiresAt: Date | null, status = 'Approved') {
  const stream = await created(app, '/streams', { name: `sw-s${++n}`, keyType: 'String', valueType: 'String', owners: w.streamTeam.uid }, w.streamOwner.token);
  const identity = { applicationUid: w.application.uid, streamUid: stream.uid, environmentUid: w.auto.uid, accessType: 'CONSUMER' };
  const access = await app.models.ApplicationAccess.create({ tenantUid: t.tenant.uid, applicationUid: identity.applicationUid, streamUid: identity.streamUid, accessType: 'CONSUMER' });
  return app.models.ApplicationAccessGrant.create({
    tenantUid: t.tenant.uid, accessUid: access.uid, ...identity, status, requestedBy: w.appOwner.email, requestedAt: ENDED,
    processedAt: status === 'Approved' ? ENDED : null, openKey: openKey(identity, status as never), expiresAt,
  });
}

/** Every host sweeps SWEEPS_PER_HOST times, all at once: what each sweep call answered. */
async function sweepEverywhere(): Promise<string[][]> {
  return Promise.all(hosts.flatMap((h) => Array.from({ length: SWEEPS_PER_HOST }, () => expireDueGrants(h.models, SWEEP_AT))));
}

const revocations = async (grantUid: string) => (await auditOf(app, w.application.uid, 'APPLICATION_ACCESS_REVOKED')).filter((r) => r.details?.grant === grantUid);

describe('the expiry sweep', () => {
  it(`${HOSTS} hosts × ${SWEEPS_PER_HOST} concurrent sweeps: each due grant revoked once, one audit entry each`, async () => {
    const due: Awaited<ReturnType<typeof approvedGrant>>[] = [];
    for (let i = 0; i < 12; i++) due.push(await approvedGrant(ENDED));
    const results = await sweepEverywhere();
    const taken = results.flat();
    for (const g of due) {
      expect(taken.filter((uid) => uid === g.uid), g.uid).toHaveLength(1);
      const row = (await app.models.ApplicationAccessGrant.findByPk(g.uid))!;
      expect(row).toMatchObject({ status: 'Revoked', processedBy: 'system', comment: 'expired', openKey: null, version: 1 });
      const entries = await revocations(g.uid);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor: 'system', tenant: t.shortName, tenantUid: t.tenant.uid, resourceType: 'Application', resourceId: w.application.uid, resourceName: w.application.shortName,
      });
      expect(entries[0].details).toMatchObject({
        grant: g.uid, environment: w.auto.shortName, accessType: 'CONSUMER', reason: 'expired', status: { old: 'Approved', new: 'Revoked' }, expiresAt: ENDED.toISOString(),
      });
    }
    // Swept again: nothing is left to revoke, nothing more is written.
    expect((await sweepEverywhere()).flat().filter((uid) => due.some((g) => g.uid === uid))).toEqual([]);
    for (const g of due) expect(await revocations(g.uid)).toHaveLength(1);
  });

  it('leaves alone what is not due: a later end, no end, a pending or an already revoked grant', async () => {
    const later = await approvedGrant(new Date(SWEEP_AT.getTime() + 1));
    const endless = await approvedGrant(null);
    const pending = await approvedGrant(ENDED, 'Pending');
    const revoked = await approvedGrant(ENDED, 'Revoked');
    const atTheEnd = await approvedGrant(SWEEP_AT);
    const taken = (await sweepEverywhere()).flat();
    expect(taken.filter((uid) => uid === atTheEnd.uid)).toHaveLength(1);
    for (const g of [later, endless, pending, revoked]) {
      expect(taken).not.toContain(g.uid);
      const row = (await app.models.ApplicationAccessGrant.findByPk(g.uid))!;
      expect(row.status).toBe(g.status);
      expect(row.version).toBe(0);
      expect(await revocations(g.uid)).toEqual([]);
    }
  });

  it('a person revoking while the hosts sweep: one revocation, one entry, whoever wins', async () => {
    const grant = await approvedGrant(ENDED);
    const [reply, results] = await Promise.all([
      call(app, 'POST', `/application_access_grants/${grant.uid}/revoke`, { token: w.appOwner.token, body: { reason: 'by hand' } }),
      sweepEverywhere(),
    ]);
    const bySweep = results.flat().filter((uid) => uid === grant.uid).length;
    // The person's call either made the move (200), lost the race (409), or came after it (422).
    expect([200, 409, 422]).toContain(reply.status);
    expect(bySweep + (reply.status === 200 ? 1 : 0)).toBe(1);
    const entries = await revocations(grant.uid);
    expect(entries).toHaveLength(1);
    expect(entries[0].actor).toBe(bySweep === 1 ? 'system' : w.appOwner.email);
  });

  it('a grant revoked by the sweep shows it over HTTP: Revoked by system, reason expired, no action links', async () => {
    const grant = await approvedGrant(ENDED);
    await sweepEverywhere();
    const item = expectStatus(await call(app, 'GET', `/application_access_grants/${grant.uid}`, { token: w.appOwner.token }), 200).body;
    expect(item).toMatchObject({ status: 'Revoked', approved: false, processedBy: 'system', comment: 'expired', expiresAt: ENDED.toISOString() });
    expect(Object.keys(item._links)).not.toContain('revoke');
    const history = expectStatus(await call(app, 'GET', `/audit-history?resourceId=${w.application.uid}&action=APPLICATION_ACCESS_REVOKED&actor=system`, { token: t.admin.token }), 200).body;
    expect(history._embedded.events.some((e: any) => e.details.grant === grant.uid && e.details.reason === 'expired')).toBe(true);
  });
});
