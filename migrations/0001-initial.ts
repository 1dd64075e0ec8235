import type { QueryInterface } from 'sequelize';
import { bigint, bool, common, createJoinTable, createTable, int, ref, str, text, uid, uniqueIndex } from './columns';
import { DataTypes } from 'sequelize';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'tenants', {
    ...common(false),
    name: str(100, false),
    short_name: str(30, false),
    unique_consumer_group: bool(),
    logo: str(),
    data_classification_enabled: bool(),
    supported_authentication_methods: text(false),
    wizard_completed: bool(),
    customer_id: str(),
    properties: text(),
    settings: text(false),
  });
  await uniqueIndex(qi, 'tenants', ['short_name']);

  await createTable(qi, 'users', {
    ...common(),
    first_name: str(100, false),
    middle_name: str(100),
    last_name: str(100, false),
    email: str(255, false),
    email_key: str(255, false),
    phone_number: str(16),
    roles: text(false),
    settings: text(false),
    password_hash: str(255),
    service_account: bool(),
    client_id: str(64),
    client_secret_hash: str(255),
    federated_issuer: str(),
    federated_subject: str(),
    external_subject: str(),
  });
  await uniqueIndex(qi, 'users', ['tenant_uid', 'email_key']);
  await uniqueIndex(qi, 'users', ['tenant_uid', 'client_id']);

  await createTable(qi, 'groups', {
    ...common(),
    name: str(80, false),
    name_key: str(80, false),
    email: str(),
    phone_number: str(16),
  });
  await uniqueIndex(qi, 'groups', ['tenant_uid', 'name_key']);
  await createJoinTable(qi, 'group_members', 'groups', 'users');
  await createJoinTable(qi, 'group_managers', 'groups', 'users');
  await createJoinTable(qi, 'group_resource_managers', 'groups', 'users');

  await createTable(qi, 'clusters', {
    ...common(),
    name: str(255, false),
    name_key: str(255, false),
    description: str(),
    location: str(),
    bootstrap_servers: text(false),
    schema_registry_urls: text(false),
    provider_type: str(32, false),
    api_url: str(),
  });
  await uniqueIndex(qi, 'clusters', ['tenant_uid', 'name_key']);

  await createTable(qi, 'instances', {
    ...common(),
    name: str(50, false),
    name_key: str(50, false),
    short_name: str(20, false),
    short_name_key: str(20, false),
    description: str(200),
    topic_name_pattern: str(255, false),
    enabled_authentication_methods: text(false),
    granular_browse_permission: bool(),
    connect_enabled: bool(true),
  });
  await uniqueIndex(qi, 'instances', ['tenant_uid', 'name_key']);
  await uniqueIndex(qi, 'instances', ['tenant_uid', 'short_name_key']);
  await createJoinTable(qi, 'instance_clusters', 'instances', 'clusters');

  await createTable(qi, 'environments', {
    ...common(),
    name: str(50, false),
    name_key: str(50, false),
    short_name: str(20, false),
    short_name_key: str(20, false),
    description: str(200),
    color: str(9, false),
    retention_time: bigint(false),
    partitions: int(false),
    authorization_issuer: str(32, false),
    visibility: str(16, false),
    instance_uid: ref('instances', false),
    owners_uid: ref('groups', false),
    properties: text(false),
    settings: text(false),
  });
  await uniqueIndex(qi, 'environments', ['tenant_uid', 'name_key']);
  await uniqueIndex(qi, 'environments', ['tenant_uid', 'short_name_key']);
  await createJoinTable(qi, 'environment_viewers', 'environments', 'groups');

  await createTable(qi, 'signing_keys', {
    uid: { ...uid(), primaryKey: true },
    kid: str(64, false),
    private_key: text(false),
    public_jwk: text(false),
    created_at: { type: DataTypes.DATE, allowNull: false },
    retired_at: { type: DataTypes.DATE, allowNull: true },
  });

  await createTable(qi, 'audit_events', {
    uid: { ...uid(), primaryKey: true },
    tenant_uid: str(32), // no FK: the history outlives what it describes
    timestamp: { type: DataTypes.DATE, allowNull: false },
    action: str(64, false),
    actor: str(255, false),
    actor_name: str(),
    tenant: str(30),
    resource_type: str(32, false),
    resource_name: str(),
    resource_id: str(32),
    details: text(),
  });
  await qi.addIndex('audit_events', ['tenant_uid', 'timestamp'], { name: 'audit_events_tenant_time_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  for (const table of ['audit_events', 'signing_keys', 'environment_viewers', 'environments', 'instance_clusters',
    'instances', 'clusters', 'group_resource_managers', 'group_managers', 'group_members', 'groups', 'users', 'tenants']) {
    await qi.dropTable(table);
  }
}
