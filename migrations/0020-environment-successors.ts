/**
 * An environment's successor (dev → acc → prod): where `POST /stream_configs/{id}/promote` goes when the request
 * names no environment. Deleting the successor leaves its predecessors without one.
 */
import type { QueryInterface } from 'sequelize';
import { ref } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addColumn('environments', 'successor_uid', ref('environments', true, 'SET NULL'));
  await qi.addIndex('environments', ['successor_uid'], { name: 'environments_successor_ix' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeIndex('environments', 'environments_successor_ix');
  await qi.removeColumn('environments', 'successor_uid');
}
