/** Applications (docs/contract.md §5.10) and their viewer groups. */
import type { QueryInterface } from 'sequelize';
import { common, createJoinTable, createTable, ref, str, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'applications', {
    ...common(),
    application_id: str(255, false),
    application_id_key: str(255, false),
    name: str(100, false),
    name_key: str(100, false),
    short_name: str(60, false),
    short_name_key: str(60, false),
    description: str(200),
    application_type: str(16, false),
    type: str(32),
    application_class: str(255),
    application_class_version: str(255),
    visibility: str(16, false),
    owners_uid: ref('groups', false),
  });
  await uniqueIndex(qi, 'applications', ['tenant_uid', 'application_id_key']);
  await uniqueIndex(qi, 'applications', ['tenant_uid', 'name_key']);
  await uniqueIndex(qi, 'applications', ['tenant_uid', 'short_name_key']);
  await qi.addIndex('applications', ['owners_uid'], { name: 'applications_owners_ix' });
  await createJoinTable(qi, 'application_viewers', 'applications', 'groups');
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('application_viewers');
  await qi.dropTable('applications');
}
