/**
 * The audit history is read newest first by (timestamp, seq): seq orders the entries one transaction writes with
 * the same timestamp. With seq in every audit index, each filtered page is read straight off the index in order
 * on MariaDB too, which otherwise sorts every matching entry of the tenant before it can return the first 20.
 */
import type { QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

/** [index, the filter column between the tenant and the time, or null for the tenant's whole history]. */
const INDEXES: [string, string | null][] = [
  ['audit_events_tenant_time_ix', null],
  ['audit_events_tenant_action_ix', 'action'],
  ['audit_events_tenant_actor_ix', 'actor_key'],
  ['audit_events_tenant_resource_ix', 'resource_id'],
  ['audit_events_tenant_name_ix', 'resource_name_key'],
  ['audit_events_tenant_type_ix', 'resource_type'],
];

const columns = (filter: string | null) => ['tenant_uid', ...(filter ? [filter] : []), 'timestamp'];

export async function up({ context: qi }: Ctx): Promise<void> {
  for (const [name, filter] of INDEXES) {
    await qi.removeIndex('audit_events', name);
    await qi.addIndex('audit_events', [...columns(filter), 'seq'], { name });
  }
}

export async function down({ context: qi }: Ctx): Promise<void> {
  for (const [name, filter] of INDEXES) {
    await qi.removeIndex('audit_events', name);
    await qi.addIndex('audit_events', columns(filter), { name });
  }
}
