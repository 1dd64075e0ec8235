/**
 * Every collection page is `ORDER BY <sort>, uid LIMIT n` within one tenant, created_at by default. With an index
 * led by the tenant and followed by the sort column and uid, the database reads the page (and the bounded count)
 * straight off the index in order, so a page costs the same at a thousand rows as at a million. Indexed: the
 * default order and modified_at everywhere, name where a collection has one (the sort the UIs and the Terraform
 * provider use). Other sorts still work; they sort the tenant's matching rows first (README "Performance").
 */
import type { QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

const TENANT_TABLES = [
  'application_access', 'application_access_grants', 'application_principals', 'application_credentials',
  'application_deployments', 'applications', 'clusters', 'environments', 'groups', 'instances', 'schemas',
  'schema_versions', 'stream_configs', 'streams', 'users', 'confidentialities', 'integrities', 'support_tiers',
  'connect_plugins',
] as const;
const NAMED_TABLES = ['applications', 'clusters', 'environments', 'groups', 'instances', 'schemas', 'streams'] as const;

const INDEXES: [table: string, name: string, column: string][] = [
  ...TENANT_TABLES.map((t) => [t, `${t}_tenant_created_ix`, 'created_at'] as [string, string, string]),
  ...TENANT_TABLES.map((t) => [t, `${t}_tenant_modified_ix`, 'modified_at'] as [string, string, string]),
  ...NAMED_TABLES.map((t) => [t, `${t}_tenant_name_ix`, 'name'] as [string, string, string]),
];

export async function up({ context: qi }: Ctx): Promise<void> {
  for (const [table, name, column] of INDEXES) await qi.addIndex(table, ['tenant_uid', column, 'uid'], { name });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  for (const [table, name] of INDEXES) await qi.removeIndex(table, name);
}
