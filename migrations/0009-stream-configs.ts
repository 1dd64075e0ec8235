/** Stream configs (docs/contract.md §5.8): a stream deployed to one environment, and its browse permissions. */
import type { QueryInterface } from 'sequelize';
import { bigint, common, createJoinTable, createTable, int, ref, str, text, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'stream_configs', {
    ...common(),
    stream_uid: ref('streams', false),
    environment_uid: ref('environments', false),
    partitions: int(false),
    retention_time: bigint(false),
    properties: text(false),
    // RESTRICT: a pinned version cannot go (schema-version and schema deletes explain it with 422 first).
    key_schema_version_uid: ref('schema_versions', true),
    value_schema_version_uid: ref('schema_versions', true),
    topic_name: str(249, false),
  });
  await uniqueIndex(qi, 'stream_configs', ['stream_uid', 'environment_uid']);
  for (const column of ['environment_uid', 'key_schema_version_uid', 'value_schema_version_uid']) {
    await qi.addIndex('stream_configs', [column], { name: `stream_configs_${column}_ix` });
  }
  await createJoinTable(qi, 'stream_config_browse_users', 'stream_configs', 'users');
  await createJoinTable(qi, 'stream_config_browse_groups', 'stream_configs', 'groups');
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('stream_config_browse_groups');
  await qi.dropTable('stream_config_browse_users');
  await qi.dropTable('stream_configs');
}
