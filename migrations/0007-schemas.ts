/** Schemas and their versions (docs/contract.md §5.9): one schema per fullName, versions unique per schema. */
import type { QueryInterface } from 'sequelize';
import { common, createTable, ref, str, text, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'schemas', {
    ...common(),
    name: str(255, false),
    name_key: str(255, false),
    description: str(500),
    type: str(16, false),
    owners_uid: ref('groups', true),
  });
  await uniqueIndex(qi, 'schemas', ['tenant_uid', 'name_key']);
  await qi.addIndex('schemas', ['owners_uid'], { name: 'schemas_owners_ix' });
  await createTable(qi, 'schema_versions', {
    ...common(),
    schema_uid: ref('schemas', false, 'CASCADE'),
    // `version` is every table's optimistic-lock counter; the version string is `version_name`.
    version_name: str(50, false),
    version_key: str(50, false),
    schema_body: text(false),
  });
  await uniqueIndex(qi, 'schema_versions', ['schema_uid', 'version_key']);
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('schema_versions');
  await qi.dropTable('schemas');
}
