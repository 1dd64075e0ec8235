/**
 * What `wsrep_sync_wait = 1` (models/galera-sessions) costs on a Galera cluster, and what it buys: 8 loops, each an
 * INSERT through node 1 then a SELECT of that row through node 2, with the setting off and on in turns.
 *   npx tsx scripts/bench-galera.ts mariadb://pms:pms@127.0.0.1:P1/ mariadb://pms:pms@127.0.0.1:P2/ [rounds]
 * (scripts/galera.sh start prints the ports.) Prints, per run, the pairs per second, the read's p50 and p99, and
 * how many reads did not yet find the row just acknowledged.
 */
import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { openDatabase } from '../models/db';

const [node1, node2, roundsArg] = process.argv.slice(2);
if (!node1 || !node2) throw new Error('usage: bench-galera.ts <node 1 server URL> <node 2 server URL> [rounds]');
const LOOPS = 8;
const PAIRS = 250;
const database = `pms_bench_${randomUUID().slice(0, 8)}`;
const on = (server: string) => Object.assign(new URL(server), { pathname: `/${database}` }).toString();

/** A pool whose sessions set wsrep_sync_wait themselves, so that the service's own detection stays out of it. */
function pool(url: string, syncWait: number): Sequelize {
  const sequelize = openDatabase(url, { pool: { max: LOOPS, min: LOOPS } });
  sequelize.addHook('afterConnect', async (connection) => {
    await (connection as { query(sql: string): Promise<unknown> }).query(`SET SESSION wsrep_sync_wait = ${syncWait}`);
  });
  return sequelize;
}

async function run(syncWait: number): Promise<string> {
  const writer = pool(on(node1), syncWait);
  const reader = pool(on(node2), syncWait);
  const reads: number[] = [];
  let unseen = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: LOOPS }, async () => {
    for (let i = 0; i < PAIRS; i++) {
      const id = randomUUID();
      await writer.query('INSERT INTO pairs (id) VALUES (?)', { replacements: [id] });
      const t0 = performance.now();
      const [rows] = await reader.query('SELECT id FROM pairs WHERE id = ?', { replacements: [id] });
      reads.push(performance.now() - t0);
      if ((rows as unknown[]).length === 0) unseen++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all([writer.close(), reader.close()]);
  reads.sort((a, b) => a - b);
  const at = (q: number) => reads[Math.floor(q * (reads.length - 1))].toFixed(2);
  return `| ${syncWait} | ${(reads.length / seconds).toFixed(0)} | ${at(0.5)} ms | ${at(0.99)} ms | ${unseen} of ${reads.length} |`;
}

const admin = openDatabase(node1);
await admin.query(`CREATE DATABASE ${database}`);
await admin.query(`CREATE TABLE ${database}.pairs (id CHAR(36) PRIMARY KEY)`);
try {
  console.log('| wsrep_sync_wait | pairs/s | read p50 | read p99 | read found nothing |\n|--:|--:|--:|--:|--:|');
  for (let round = 0; round < Number(roundsArg ?? 3); round++) {
    console.log(await run(0));
    console.log(await run(1));
  }
} finally {
  await admin.query(`DROP DATABASE ${database}`);
  await admin.close();
}
