/**
 * The service on a three-node MariaDB Galera cluster (`npm run test:galera`, scripts/galera.sh), one host per node:
 * migrations reach every node, a write acknowledged through one host is read at once through another, races
 * across nodes have one winner and never a 500, and a node stopped under writes neither stops the other hosts nor
 * loses an acknowledged write, and serves them all once it has rejoined. Skipped unless PMS_GALERA_NODES is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, passwordToken, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call, type CallResult } from '../support/http';
import { expectError } from '../support/errors';
import { pause, waitFor } from '../support/service-process';
import { galeraNode, galeraNodes, galeraStatus, onRunDatabase } from '../support/galera';
import { openDatabase } from '../../models/db';

interface Host { app: TestApp; token: string }

const nodes = galeraNodes();
let hosts: Host[] = [];
let t: TestTenant;
let seq = 0;
const uniqueName = (prefix: string) => `${prefix} ${++seq} ${Date.now().toString(36)}`;

describe.skipIf(nodes.length !== 3)('on a three-node Galera cluster', () => {
  beforeAll(async () => {
    const apps = await Promise.all(nodes.map((node) => startTestApp({ databaseUrl: onRunDatabase(node) })));
    t = await createTenant(apps[0], 'galera');
    // Each host issues its own token for the same user: the hosts need not share an issuer URL here.
    hosts = await Promise.all(apps.map(async (app) => ({ app, token: await passwordToken(app, t.shortName, t.admin.email, t.admin.password) })));
  });
  afterAll(async () => { await Promise.all(hosts.map((h) => h.app.stop())); });

  const create = (host: Host, name = uniqueName('Group')) => call(host.app, 'POST', '/groups', { token: host.token, body: { name } });
  const read = (host: Host, uid: string) => call(host.app, 'GET', `/groups/${uid}`, { token: host.token });

  it('runs the migrations once for the whole cluster: every node has every table and every migration', async () => {
    const seen = await Promise.all(nodes.map(async (node) => {
      const sequelize = openDatabase(onRunDatabase(node));
      try {
        const [migrations] = await sequelize.query('SELECT name FROM schema_migrations ORDER BY name');
        const [tables] = await sequelize.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name");
        return { migrations, tables };
      } finally {
        await sequelize.close();
      }
    }));
    expect(seen[0].migrations.length).toBeGreaterThan(10);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('reads a write acknowledged through node 1 at once through node 2 (8 loops of create, then read elsewhere)', async () => {
    const misses: string[] = [];
    let done = false;
    // Writes through node 3 as well, so that node 2 has others' writes to apply, as a busy cluster's nodes do.
    const background = Array.from({ length: 4 }, async () => { while (!done) await create(hosts[2]); });
    try {
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 20; i++) {
          const made = await create(hosts[0]);
          expect(made.status).toBe(201);
          const found = await read(hosts[1], made.body.uid);
          if (found.status !== 200) misses.push(`${made.body.uid}: ${found.status}`);
        }
      }));
    } finally {
      done = true;
      await Promise.all(background);
    }
    expect(misses).toEqual([]);
  });

  it('gives one of 20 same-name creates through two nodes the name, and the others a 409 naming it', async () => {
    const name = uniqueName('Contested');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(hosts[i % 2], name)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 201)) expectError(lost, 409);
  });

  it('answers every one of 12 concurrent changes of one row through two nodes 200, or 409 in the error format', async () => {
    const group = (await create(hosts[0])).body;
    const phones = Array.from({ length: 12 }, (_, i) => `+31 20 ${1000 + i}`);
    const answers = await Promise.all(phones.map((phoneNumber, i) =>
      call(hosts[i % 2].app, 'PATCH', `/groups/${group.uid}`, { token: hosts[i % 2].token, body: { phoneNumber } })));
    for (const a of answers) if (a.status !== 200) expectError(a, 409);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    const final = await read(hosts[2], group.uid);
    expect(phones).toContain(final.body.phoneNumber);
  });

  it('goes on through nodes 1 and 2 while node 3 is stopped, loses no acknowledged write, and node 3 rejoins and serves them', async () => {
    const acknowledged: { uid: string; whileDown: boolean }[] = [];
    const failures: string[] = [];
    const probes: CallResult[] = [];
    let down = false;
    let done = false;
    const known = (await create(hosts[0])).body.uid as string;

    const writer = async (host: Host) => {
      while (!done) {
        const whileDown = down;
        const made = await create(host);
        if (made.status === 201) acknowledged.push({ uid: made.body.uid, whileDown });
        else failures.push(`${made.status} ${made.text}`);
      }
    };
    // The host on node 3 answers, or says 503 in the error format while its node is away; never anything else.
    const prober = async () => {
      while (!done) {
        probes.push(await read(hosts[2], known));
        await pause(50);
      }
    };
    const load = [writer(hosts[0]), writer(hosts[0]), writer(hosts[1]), writer(hosts[1]), prober()];
    const acks = (n: number) => waitFor(`${n} acknowledged writes`, () => acknowledged.length >= n, 60);
    try {
      await acks(10);
      await galeraNode(3, 'stop-node');
      down = true;
      await acks(acknowledged.length + 20);
      down = false;
      await galeraNode(3, 'start-node');
      await acks(acknowledged.length + 10);
    } finally {
      done = true;
      await Promise.all(load);
    }

    expect(failures).toEqual([]);
    expect(acknowledged.filter((a) => a.whileDown).length).toBeGreaterThanOrEqual(20);
    for (const probe of probes) if (probe.status !== 200) expectError(probe, 503);
    expect(probes.some((p) => p.status === 503)).toBe(true);

    for (const n of [1, 2, 3]) expect(await galeraStatus(n)).toEqual({ size: 3, state: 'Synced' });
    // Node 3's host drops the sessions its node ended and opens new ones.
    await waitFor('the host on node 3 to serve again', async () => (await read(hosts[2], known)).status === 200, 30);
    for (const host of hosts) {
      const missing: string[] = [];
      for (const { uid } of acknowledged) if ((await read(host, uid)).status !== 200) missing.push(uid);
      expect(missing).toEqual([]);
    }
  }, 240_000);
});
