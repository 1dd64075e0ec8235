/**
 * Migration 0021: the USER_LOCKOUT_CLEARED entries 7.1.0 wrote, a value the specification's audit actions never
 * had, read after the migration as the UPDATED of the User the service writes now, on every database; undone, they
 * are as they were.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes, type Sequelize } from 'sequelize';
import { openDatabase } from '../../models/db';
import { newUid } from '../../models/define';
import { migrator } from '../../migrations/migrator';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';
import { createRunDatabase } from '../support/run-database';

const MIGRATION = '0021-lockout-clears-as-updates';

let drop: () => Promise<void>;
let sequelize: Sequelize;
let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  let url: string;
  ({ url, drop } = await createRunDatabase(inject('databaseUrl')));
  sequelize = openDatabase(url);
  await migrator(sequelize).up();
  app = await startTestApp({ databaseUrl: url });
  t = await createTenant(app, 'lockout-migration');
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await sequelize?.close();
  await drop?.();
});

/** An entry as 7.1.0 wrote it when a tenant admin cleared a user's lockout. */
async function clearedAs710(): Promise<string> {
  const uid = newUid();
  await sequelize.getQueryInterface().bulkInsert('audit_events', [{
    uid, tenant_uid: t.tenant.uid, timestamp: new Date('2026-01-02T03:04:05.000Z'), action: 'USER_LOCKOUT_CLEARED',
    actor: t.admin.email, actor_key: t.admin.email.toLowerCase(), actor_name: 'Test TENANT_ADMIN', tenant: t.shortName,
    resource_type: 'User', resource_name: 'locked@example.test', resource_name_key: 'locked@example.test', resource_id: newUid(),
    details: JSON.stringify({ failures: 3, lockedUntil: '2026-01-02T03:05:05' }),
  }]);
  return uid;
}

const stored = async (uid: string) => (await sequelize.query<{ action: string; details: string }>(
  'SELECT action, details FROM audit_events WHERE uid = :uid', { replacements: { uid }, type: QueryTypes.SELECT },
))[0];

describe('migration 0021: lockout clears as UPDATED', () => {
  it('a 7.1.0 entry reads as the UPDATED of the User, its counts as the change; undone, it is as it was', async () => {
    await migrator(sequelize).down({ to: MIGRATION });
    const uid = await clearedAs710();
    const other = await clearedAs710();
    await migrator(sequelize).up();

    const entry = await call(app, 'GET', `/audit-history/${uid}`, { token: t.admin.token });
    expect(entry.status, entry.text).toBe(200);
    expect(entry.body).toMatchObject({
      action: 'UPDATED', resourceType: 'User', resourceName: 'locked@example.test', timestamp: '2026-01-02T03:04:05',
      details: { lockout: { old: { failures: 3, lockedUntil: '2026-01-02T03:05:05' }, new: { failures: 0, lockedUntil: null } } },
    });
    const updates = await call(app, 'GET', '/audit-history?action=UPDATED&resourceType=User', { token: t.admin.token });
    expect(updates.body._embedded.events.map((e: any) => e.uid).sort()).toEqual([uid, other].sort());

    await migrator(sequelize).down({ to: MIGRATION });
    expect(await stored(uid)).toEqual({ action: 'USER_LOCKOUT_CLEARED', details: JSON.stringify({ failures: 3, lockedUntil: '2026-01-02T03:05:05' }) });
    await migrator(sequelize).up();
    expect((await stored(uid)).action).toBe('UPDATED');
  });
});
