/**
 * Indexes for the lookups authentication makes on every request or token call: users by IdP subject (external IdP
 * mode) and service accounts by federated identity (federated client_credentials). The federated pair is unique
 * per tenant, as the API already enforces (409); rows without a binding hold NULLs, which unique indexes allow
 * repeatedly on PostgreSQL, MySQL and MariaDB alike.
 */
import type { QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addIndex('users', ['tenant_uid', 'external_subject'], { name: 'users_external_subject_ix' });
  await qi.addIndex('users', ['tenant_uid', 'federated_issuer', 'federated_subject'], { name: 'users_federated_uq', unique: true });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeIndex('users', 'users_federated_uq');
  await qi.removeIndex('users', 'users_external_subject_ix');
}
