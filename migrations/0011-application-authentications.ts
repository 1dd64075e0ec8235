/**
 * Principals and credentials of an application in an environment (docs/contract.md §5.11, §5.12). Both block deleting
 * their application and environment (RESTRICT), and are what an access request needs there (§6.1).
 * A principal's `identity` is its certificate fingerprint, or `custom:` and its lowercased custom string: unique
 * per environment (409 `errmsg.duplicate.principal`). Secrets are stored only as verifiers or encrypted text.
 */
import type { QueryInterface } from 'sequelize';
import { bool, common, createTable, ref, str, text, timestamp, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'application_principals', {
    ...common(),
    application_uid: ref('applications', false),
    environment_uid: ref('environments', false),
    principal: str(1024, false),
    identity: str(300, false),
    type: str(16, false),
    custom: bool(false),
    application_pem: text(),
    private_key: text(),
    expires_on: timestamp(true),
    fingerprint: str(64),
    active: bool(false),
  });
  await uniqueIndex(qi, 'application_principals', ['environment_uid', 'identity']);
  await qi.addIndex('application_principals', ['application_uid', 'environment_uid'], { name: 'application_principals_app_env_ix' });
  await createTable(qi, 'application_credentials', {
    ...common(),
    application_uid: ref('applications', false),
    environment_uid: ref('environments', false),
    target: str(32, false),
    username: str(128, false),
    types: text(false),
    description: str(255),
    secret: text(false),
    clusters: str(2000),
  });
  await uniqueIndex(qi, 'application_credentials', ['tenant_uid', 'username']);
  await qi.addIndex('application_credentials', ['application_uid', 'environment_uid'], { name: 'application_credentials_app_env_ix' });
  await qi.addIndex('application_credentials', ['environment_uid'], { name: 'application_credentials_environment_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('application_credentials');
  await qi.dropTable('application_principals');
}
