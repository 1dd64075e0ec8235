/**
 * An application deployed to an environment (docs/contract.md §5.15): its configs as sent and the desired state. No
 * connect cluster or KSML runner is driven, so the recorded state is what status reports. Deployments block
 * deleting their application and environment (RESTRICT).
 */
import type { QueryInterface } from 'sequelize';
import { common, createTable, int, ref, str, text, timestamp, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'application_deployments', {
    ...common(),
    application_uid: ref('applications', false),
    environment_uid: ref('environments', false),
    configs: text(false),
    state: str(16, false),
    started_at: timestamp(true),
    restarts: int(false),
    last_restart: timestamp(true),
  });
  await uniqueIndex(qi, 'application_deployments', ['application_uid', 'environment_uid']);
  await qi.addIndex('application_deployments', ['environment_uid'], { name: 'application_deployments_environment_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('application_deployments');
}
