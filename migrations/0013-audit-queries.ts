/**
 * Audit history queries (docs/contract.md §8): filters match any case, through lowercase twins of `actor` and
 * `resource_name`; one index per filter, each led by the tenant and followed by the time, so a filtered page reads
 * only its own entries however long the history grows. The twins of existing rows are filled here, in batches,
 * with the same lowercasing the service uses (PostgreSQL's LOWER() under the C collation leaves non-ASCII as is).
 */
import { QueryTypes, type QueryInterface } from 'sequelize';
import { str } from './columns';

type Ctx = { context: QueryInterface };

const INDEXES: [string, string][] = [
  ['audit_events_tenant_action_ix', 'action'],
  ['audit_events_tenant_actor_ix', 'actor_key'],
  ['audit_events_tenant_resource_ix', 'resource_id'],
  ['audit_events_tenant_name_ix', 'resource_name_key'],
  ['audit_events_tenant_type_ix', 'resource_type'],
];

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addColumn('audit_events', 'actor_key', str(255));
  await qi.addColumn('audit_events', 'resource_name_key', str(255));
  const sequelize = qi.sequelize;
  let after = '';
  for (;;) {
    const rows = await sequelize.query<{ uid: string; actor: string; resource_name: string | null }>(
      'SELECT uid, actor, resource_name FROM audit_events WHERE uid > :after ORDER BY uid LIMIT 1000',
      { replacements: { after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      await sequelize.query('UPDATE audit_events SET actor_key = :actor, resource_name_key = :name WHERE uid = :uid', {
        replacements: { actor: row.actor.toLowerCase(), name: row.resource_name?.toLowerCase() ?? null, uid: row.uid },
      });
    }
    after = rows[rows.length - 1].uid;
  }
  for (const [name, column] of INDEXES) await qi.addIndex('audit_events', ['tenant_uid', column, 'timestamp'], { name });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  for (const [name] of INDEXES) await qi.removeIndex('audit_events', name);
  await qi.removeColumn('audit_events', 'resource_name_key');
  await qi.removeColumn('audit_events', 'actor_key');
}
