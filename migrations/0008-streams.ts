/** Streams (docs/contract.md §5.7) and their viewer groups. */
import type { QueryInterface } from 'sequelize';
import { common, createJoinTable, createTable, ref, str, text, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'streams', {
    ...common(),
    name: str(180, false),
    name_key: str(180, false),
    description: str(2000),
    key_type: str(16, false),
    value_type: str(16, false),
    key_schema_uid: ref('schemas', true),
    value_schema_uid: ref('schemas', true),
    retention_policy: str(16, false),
    visibility: str(16, false),
    owners_uid: ref('groups', false),
    confidentiality_uid: ref('confidentialities', true),
    integrity_uid: ref('integrities', true),
    properties: text(false),
  });
  await uniqueIndex(qi, 'streams', ['tenant_uid', 'name_key']);
  for (const column of ['owners_uid', 'key_schema_uid', 'value_schema_uid', 'confidentiality_uid', 'integrity_uid']) {
    await qi.addIndex('streams', [column], { name: `streams_${column}_ix` });
  }
  await createJoinTable(qi, 'stream_viewers', 'streams', 'groups');
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('stream_viewers');
  await qi.dropTable('streams');
}
