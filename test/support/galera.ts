/**
 * The three-node MariaDB Galera cluster of `npm run test:galera` (scripts/galera.sh): `PMS_GALERA_NODES` gives the
 * nodes' server URLs in order, `PMS_GALERA_DIR` the cluster's directory. Unset, the Galera tests are skipped.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { openDatabase } from '../../models/db';

export const galeraNodes = (): string[] => (process.env.PMS_GALERA_NODES ?? '').split(/\s+/).filter(Boolean);

/** The run's database (test/support/global-setup) on the server `serverUrl` names: node N's way to it. */
export function onRunDatabase(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = new URL(inject('databaseUrl')).pathname;
  return url.toString();
}

const script = new URL('../../scripts/galera.sh', import.meta.url).pathname;

/** Node N (1–3) stopped cleanly, or started again and back in a three-node Synced cluster. */
export async function galeraNode(n: number, action: 'stop-node' | 'start-node'): Promise<void> {
  const dir = process.env.PMS_GALERA_DIR;
  if (!dir) throw new Error('PMS_GALERA_DIR is not set: run the Galera tests through npm run test:galera');
  await promisify(execFile)(script, [action, dir, String(n)], { timeout: 150_000 });
}

/** What node N says of the cluster: its member count and its own state (`Synced` when it serves). */
export async function galeraStatus(n: number): Promise<{ size: number; state: string }> {
  const sequelize = openDatabase(galeraNodes()[n - 1]);
  try {
    const [rows] = await sequelize.query(
      "SELECT variable_name AS name, variable_value AS value FROM information_schema.global_status WHERE variable_name IN ('WSREP_CLUSTER_SIZE', 'WSREP_LOCAL_STATE_COMMENT')",
    ) as [{ name: string; value: string }[], unknown];
    const value = (name: string) => rows.find((r) => r.name.toUpperCase() === name)?.value ?? '';
    return { size: Number(value('WSREP_CLUSTER_SIZE')), state: value('WSREP_LOCAL_STATE_COMMENT') };
  } finally {
    await sequelize.close();
  }
}
