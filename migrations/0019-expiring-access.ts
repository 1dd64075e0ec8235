/**
 * Access that ends by itself (issue 33): a grant's `expires_at` (NULL: no end) and an environment's bounds on it,
 * ISO-8601 durations kept as text. `(status, expires_at)` answers the expiry sweep's "Approved and due" from the index.
 */
import type { QueryInterface } from 'sequelize';
import { str, timestamp } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addColumn('application_access_grants', 'expires_at', timestamp(true));
  await qi.addIndex('application_access_grants', ['status', 'expires_at'], { name: 'application_access_grants_expiry_ix' });
  await qi.addColumn('environments', 'max_access_duration', str(40));
  await qi.addColumn('environments', 'default_access_duration', str(40));
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeColumn('environments', 'default_access_duration');
  await qi.removeColumn('environments', 'max_access_duration');
  await qi.removeIndex('application_access_grants', 'application_access_grants_expiry_ix');
  await qi.removeColumn('application_access_grants', 'expires_at');
}
