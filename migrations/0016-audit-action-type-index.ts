/**
 * The audit history filtered by action and resource type together (e.g. every UPDATED of a Topic) read one index
 * and fetched each row to test the other column; its bounded count (up to 1,000 entries past the page) then grew
 * with the table. With both in one index, page and count stay on the index.
 */
import type { QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

const NAME = 'audit_events_tenant_action_type_ix';

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addIndex('audit_events', ['tenant_uid', 'action', 'resource_type', 'timestamp', 'seq'], { name: NAME });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeIndex('audit_events', NAME);
}
