/**
 * Failed sign-ins per account for the embedded issuer's brute-force detection (auth/brute-force.ts): one row per
 * user or service account with failures, shared by every host and worker on the database, gone with the user.
 * `tenant_uid` and `locked_until` together answer a tenant's locked accounts from the index.
 */
import type { QueryInterface } from 'sequelize';
import { createTable, int, ref, timestamp } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'login_failures', {
    user_uid: { ...ref('users', false, 'CASCADE'), primaryKey: true },
    tenant_uid: ref('tenants', false, 'CASCADE'),
    failures: { ...int(false), defaultValue: 0 },
    last_failure_at: timestamp(),
    locked_until: timestamp(true),
  });
  await qi.addIndex('login_failures', ['tenant_uid', 'locked_until'], { name: 'login_failures_tenant_locked_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('login_failures');
}
