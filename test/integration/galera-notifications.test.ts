/**
 * The outbox's claim (models/notification, a compare-and-set lease) on a three-node MariaDB Galera cluster (`npm run
 * test:galera`): dispatchers on every node claim the same messages at once, and each message is delivered exactly
 * once. Galera lets two nodes update one row at the same moment and certifies only the first; the other's statement
 * is aborted as a deadlock. The server retries an aborted autocommit statement once (`wsrep_retry_autocommit`, 1 by
 * default); with that off every lost certification reaches the claimer, whose loop survives it (it looks again), so
 * the runOnce loops here catch and go on as the dispatcher's loop does. Skipped unless PMS_GALERA_NODES is set. The
 * database is the file's own, on the cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sequelize } from 'sequelize';
import { initModels, type Models } from '../../models';
import { openDatabase } from '../../models/db';
import { isDeadlock } from '../../models/db-errors';
import { migrate } from '../../migrations/migrator';
import { enqueue, type Outgoing } from '../../models/notification';
import type { Mail } from '../../providers/mail';
import { startNotificationDispatcher } from '../../server/notification-dispatch';
import { galeraNodes } from '../support/galera';
import { createRunDatabase } from '../support/run-database';
import { pause, waitFor } from '../support/service-process';

const nodes = galeraNodes();
const N = 400;
/** Dispatchers per node, each with a connection pool of its own, as hosts and workers have. */
const PER_NODE = 2;

/** What a node has refused so far: its certification failures and its local statements aborted for a replicated one. */
async function conflicts(m: Models): Promise<number> {
  const [rows] = await m.sequelize.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')") as [{ Value: string }[], unknown];
  return rows.reduce((sum, r) => sum + Number(r.Value), 0);
}

/** The errors' first lines, each once (the connection's number left out). */
const said = (errors: unknown[]) => [...new Set(errors.map((err) => String((err as Error).message).split('\n')[0].replace(/conn=\d+, /, '')))].join('; ');

/** Every session of the pool with the server's retry of an aborted autocommit statement set to `retries`. */
function retryingAutocommit(sequelize: Sequelize, retries: number): Sequelize {
  sequelize.addHook('afterConnect', async (connection) => { await (connection as { query: (sql: string) => Promise<unknown> }).query(`SET SESSION wsrep_retry_autocommit = ${retries}`); });
  return sequelize;
}

describe.skipIf(nodes.length !== 3)('the notification claim on a three-node Galera cluster', () => {
  let database: { url: string; drop: () => Promise<void> };
  /** The file's database through each node. */
  let urls: string[] = [];
  const models: Models[] = [];
  let tenantUid: string;

  beforeAll(async () => {
    database = await createRunDatabase(nodes[0]);
    const name = new URL(database.url).pathname;
    urls = nodes.map((node) => Object.assign(new URL(node), { pathname: name }).toString());
    for (const url of urls) models.push(initModels(openDatabase(url)));
    await migrate(models[0].sequelize);
    tenantUid = (await models[0].Tenant.create({ name: 'Galera Outbox', shortName: 'galera-outbox' })).uid as string;
  }, 180_000);
  afterAll(async () => {
    for (const m of models) await m.sequelize.close();
    await database?.drop();
  });

  it.each([
    ['as the server is configured (an aborted autocommit statement retried once)', 1],
    ['with wsrep_retry_autocommit 0 (every lost certification reaches the claimer)', 0],
  ])(`delivers each of ${N} messages exactly once, ${3 * PER_NODE} dispatchers on three nodes claiming at once: %s`, async (tag, retries) => {
    const outgoing = Array.from({ length: N }, (_, i): Outgoing => ({
      tenantUid, event: 'access.requested', channel: 'email', recipient: `g${retries}-${i}@example.com`,
      payload: JSON.stringify({ to: { name: `G ${i}`, email: `g${retries}-${i}@example.com` }, subject: `g ${i}`, text: 't', html: '<p>t</p>' }),
    }));
    await models[0].sequelize.transaction((transaction) => enqueue(models[0].Notification, outgoing, transaction));
    const pending = (m: Models) => m.Notification.count({ where: { status: 'pending' } });
    // Every node has applied the rows before anyone claims: all start from the same backlog.
    for (const m of models) await waitFor('the rows on every node', async () => (await pending(m)) === N, 30);

    const delivered: string[] = [];
    const byNode = [0, 0, 0];
    const failures: unknown[] = [];
    const sink = (node: number) => ({ send: async (mail: Mail) => { delivered.push(mail.messageId); byNode[node] += 1; }, close: () => undefined });
    const before = await Promise.all(models.map(conflicts));
    const own = urls.flatMap((url) => Array.from({ length: PER_NODE }, () => initModels(retryingAutocommit(openDatabase(url), retries))));
    const dispatchers = own.map((m, i) => startNotificationDispatcher(m, { email: sink(Math.floor(i / PER_NODE)) }, { intervalMs: 0, messageDomain: 'galera.test', batch: 10 }));
    const deadline = Date.now() + 90_000;
    try {
      await Promise.all(dispatchers.map(async (d) => {
        while (new Set(delivered).size < N && Date.now() < deadline) {
          try {
            if ((await d.runOnce()) === 0) await pause(20);
          } catch (err) {
            failures.push(err);
          }
        }
      }));
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()));
      await Promise.all(own.map((m) => m.sequelize.close()));
    }

    expect(new Set(delivered).size).toBe(N);
    expect(delivered).toHaveLength(N);
    // Every node's dispatchers had their share: the claims met.
    for (const n of byNode) expect(n).toBeGreaterThan(0);
    // What a claim or a mark lost to another node's: certification conflicts only, each survived.
    expect(failures.filter((err) => !isDeadlock(err)).map((err) => String((err as Error).message))).toEqual([]);
    await waitFor('every row sent, read through node 1', async () => (await pending(models[0])) === 0, 30);
    const after = await Promise.all(models.map(conflicts));
    console.info(`Galera claim ${tag}: ${N} messages delivered through node 1/2/3 ${byNode.join(' / ')}; statements failed ${failures.length} `
      + `(${said(failures) || 'none'}); conflicts on node 1/2/3 ${after.map((c, i) => c - before[i]).join(' / ')}`);
  }, 180_000);
});
