/**
 * Application access (docs/contract.md §5.13, §5.14): one row per application, stream and access type, and its grants per
 * environment. `open_key` is set while a grant is open (Pending, Approved) and NULL once it is over, so a unique
 * index allows one open grant per application, stream, environment and access type on every database (MariaDB has
 * no partial indexes; NULLs never clash).
 */
import type { QueryInterface } from 'sequelize';
import { common, createTable, ref, str, timestamp, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'application_access', {
    ...common(),
    application_uid: ref('applications', false, 'CASCADE'),
    stream_uid: ref('streams', false, 'CASCADE'),
    access_type: str(16, false),
  });
  await uniqueIndex(qi, 'application_access', ['application_uid', 'stream_uid', 'access_type']);
  await qi.addIndex('application_access', ['stream_uid'], { name: 'application_access_stream_ix' });
  await createTable(qi, 'application_access_grants', {
    ...common(),
    access_uid: ref('application_access', false, 'CASCADE'),
    application_uid: ref('applications', false, 'CASCADE'),
    stream_uid: ref('streams', false, 'CASCADE'),
    environment_uid: ref('environments', false, 'CASCADE'),
    access_type: str(16, false),
    status: str(16, false),
    comment: str(2000),
    requested_by: str(),
    processed_by: str(),
    requested_at: timestamp(),
    processed_at: timestamp(true),
    open_key: str(140),
  });
  await uniqueIndex(qi, 'application_access_grants', ['open_key']);
  for (const column of ['access_uid', 'application_uid', 'stream_uid', 'environment_uid']) {
    await qi.addIndex('application_access_grants', [column], { name: `application_access_grants_${column}_ix` });
  }
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('application_access_grants');
  await qi.dropTable('application_access');
}
