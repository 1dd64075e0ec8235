/**
 * The database half of issue 10's race safety: a grant transition is a compare-and-set, so of 50 concurrent
 * decisions on one pending grant exactly one changes it — on whichever database runs the suite. (The HTTP race
 * test arrives with the grant endpoints.)
 */
import { UniqueConstraintError } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveGrant, openKey } from '../../models/application-access';
import type { GrantStatus } from '../../core/rules/grant-state';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { created } from '../support/http';

let app: TestApp;
let t: TestTenant;
const uid: Record<string, string> = {};

beforeAll(async () => {
  ({ app, t } = await startWithTenant('race'));
  const post = async (path: string, body: unknown): Promise<string> => (await created(app, path, body, t.admin.token)).uid;
  uid.group = await post('/groups', { name: 'Race Owners', members: [t.admin.user.uid] });
  uid.instance = await post('/instances', { name: 'Race Inst', shortName: 'race' });
  uid.environment = await post('/environments', { name: 'race-env', shortName: 'raceenv', instance: uid.instance, owners: uid.group });
  uid.application = await post('/applications', { applicationId: 'io.race', name: 'Race App', shortName: 'race_app', applicationType: 'Custom', owners: uid.group });
  uid.stream = await post('/streams', { name: 'race-stream', keyType: 'String', valueType: 'String', owners: uid.group });
});
afterAll(async () => app?.stop());

async function pendingGrant(accessType = 'CONSUMER') {
  const { ApplicationAccess, ApplicationAccessGrant } = app.models;
  const access = await ApplicationAccess.findOrCreate({
    where: { tenantUid: t.tenant.uid, applicationUid: uid.application, streamUid: uid.stream, accessType },
  });
  const g = { applicationUid: uid.application, streamUid: uid.stream, environmentUid: uid.environment, accessType };
  return ApplicationAccessGrant.create({
    tenantUid: t.tenant.uid, accessUid: access[0].uid, ...g, status: 'Pending', requestedBy: t.admin.email, requestedAt: new Date(), openKey: openKey(g, 'Pending'),
  });
}

describe('grant transitions are compare-and-set', () => {
  it('50 concurrent decisions on one pending grant: exactly one wins, the row shows it', async () => {
    const grant = await pendingGrant();
    const targets: GrantStatus[] = ['Approved', 'Rejected', 'Cancelled'];
    const g = { applicationUid: grant.applicationUid, streamUid: grant.streamUid, environmentUid: grant.environmentUid, accessType: grant.accessType };
    // Each decision reads the grant first, as a request does, and moves the row it read.
    const read = await Promise.all(Array.from({ length: 50 }, () => app.models.ApplicationAccessGrant.findByPk(grant.uid)));
    const results = await Promise.all(read.map((row, i) => app.models.sequelize.transaction((transaction) =>
      moveGrant(app.models.data, row!, { from: 'Pending', to: targets[i % 3], by: `user${i}@race.test` }, transaction))));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    const row = await app.models.ApplicationAccessGrant.findByPk(grant.uid);
    expect(row!.status).toBe(targets[winner % 3]);
    expect(row!.processedBy).toBe(`user${winner}@race.test`);
    expect(row!.version).toBe(1);
    expect(row!.openKey).toBe(row!.status === 'Approved' ? openKey(g, 'Approved') : null);
    // The winner's row is as stored: nothing to read back.
    const moved = read[winner]!;
    for (const a of ['status', 'processedBy', 'openKey', 'version', 'comment']) expect(moved.get(a)).toEqual(row!.get(a));
    expect((moved.processedAt as Date).getTime()).toBe((row!.processedAt as Date).getTime());
    expect((moved.modifiedAt as Date).getTime()).toBe((row!.modifiedAt as Date).getTime());
  });

  it('a grant past its expiresAt is not approved, however close the decision came to its end', async () => {
    const grant = await pendingGrant('PRODUCER');
    await grant.update({ expiresAt: new Date(Date.now() - 1) });
    const row = (await app.models.ApplicationAccessGrant.findByPk(grant.uid))!;
    const moved = await app.models.sequelize.transaction((transaction) => moveGrant(app.models.data, row, { from: 'Pending', to: 'Approved', by: t.admin.email }, transaction));
    expect(moved).toBe(false);
    expect((await app.models.ApplicationAccessGrant.findByPk(grant.uid))!.status).toBe('Pending');
    await app.models.sequelize.transaction((transaction) => moveGrant(app.models.data, row, { from: 'Pending', to: 'Cancelled', by: t.admin.email }, transaction));
  });

  it('a decision on a row changed since it was read loses, and the row keeps the other change', async () => {
    const grant = await pendingGrant('PRODUCER');
    const stale = (await app.models.ApplicationAccessGrant.findByPk(grant.uid))!;
    const fresh = (await app.models.ApplicationAccessGrant.findByPk(grant.uid))!;
    expect(await app.models.sequelize.transaction((transaction) => moveGrant(app.models.data, fresh, { from: 'Pending', to: 'Rejected', by: 'first@race.test', comment: 'no' }, transaction))).toBe(true);
    expect(await app.models.sequelize.transaction((transaction) => moveGrant(app.models.data, stale, { from: 'Pending', to: 'Approved', by: 'second@race.test' }, transaction))).toBe(false);
    const row = (await app.models.ApplicationAccessGrant.findByPk(grant.uid))!;
    expect([row.status, row.processedBy, row.comment, row.version]).toEqual(['Rejected', 'first@race.test', 'no', 1]);
  });

  it('a second open grant for the same application, stream, environment and access type is refused by the database', async () => {
    const first = await pendingGrant('PRODUCER');
    await expect(pendingGrant('PRODUCER')).rejects.toBeInstanceOf(UniqueConstraintError);
    await app.models.sequelize.transaction((transaction) => moveGrant(app.models.data, first, { from: first.status as GrantStatus, to: 'Cancelled', by: t.admin.email }, transaction));
    const again = await pendingGrant('PRODUCER');
    expect(again.status).toBe('Pending');
  });
});
