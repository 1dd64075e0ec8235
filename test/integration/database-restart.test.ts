/**
 * The database ends the service's sessions (a restart, a failover, an administrator's pg_terminate_backend or
 * KILL CONNECTION): a request on an ended session answers 503 in the docs/contract.md §2 format, never 500 and never a crash,
 * and the service recovers by itself with new connections. The sessions ended are exactly the test app's own
 * (other files share the database): on PostgreSQL all with the app's application_name, including sessions still
 * starting up; on MySQL/MariaDB those whose connection id the app's new connections reported.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { dialectOf, openDatabase } from '../../models/db';
import { createTenant, passwordToken, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call, type CallResult } from '../support/http';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';

describe('sessions ended by the database', () => {
  let app: TestApp;
  let t: TestTenant;
  let token: string;
  let clusterUid: string;
  let streamUid: string;
  let admin: Sequelize;
  const applicationName = `restart-${randomBytes(4).toString('hex')}`;
  /** MySQL/MariaDB: the connection ids of the app's connections not yet ended. */
  const backends = new Set<number>();
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => { uncaught.push(err); };

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    admin = openDatabase(inject('databaseUrl'), { pool: { max: 1 } });
    app = await startTestApp({}, postgres ? { dialectOptions: { application_name: applicationName } } : {});
    app.models.sequelize.addHook('afterConnect', (connection: unknown) => {
      const { threadId } = connection as { threadId?: number };
      if (threadId !== undefined) backends.add(threadId);
    });
    t = await createTenant(app, 'restart');
    token = await passwordToken(app, t.shortName, t.admin.email, t.admin.password);
    const cluster = await call(app, 'POST', '/clusters', { token, body: { name: 'restart-cluster', bootstrapServers: ['b:9092'] } });
    clusterUid = cluster.body.uid;
    const group = await call(app, 'POST', '/groups', { token, body: { name: 'Restart Owners', members: [t.admin.user.uid] } });
    const stream = await call(app, 'POST', '/streams', { token, body: { name: 'restart-stream', keyType: 'String', valueType: 'String', owners: group.body.uid } });
    streamUid = stream.body.uid;
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await app?.stop();
    await admin?.close();
  });

  /** Ends every session the app has open (those already gone are skipped). */
  async function endSessions(): Promise<number> {
    if (postgres) {
      const [rows] = await admin.query(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = :name AND pid <> pg_backend_pid()',
        { replacements: { name: applicationName } },
      );
      return (rows as { ended: boolean }[]).filter((r) => r.ended).length;
    }
    const ids = [...backends];
    backends.clear();
    let ended = 0;
    for (const id of ids) {
      try {
        await admin.query(`KILL CONNECTION ${Number(id)}`);
        ended++;
      } catch { /* already gone */ }
    }
    return ended;
  }

  function expectServedOrUnavailable(res: CallResult, served: number): void {
    expect([served, 503], `${res.status} ${res.text}`).toContain(res.status);
    if (res.status === 503) {
      expectError(res, 503, { message: 'Service unavailable' });
      expect(res.text).not.toMatch(/terminat|killed|sequelize|select|pg_|socket/i);
    }
  }

  const reads: [string, () => string][] = [
    ['a cluster', () => `/clusters/${clusterUid}`], ['a stream', () => `/streams/${streamUid}`], ['a page', () => '/streams?size=5&sort=name,asc'],
  ];

  it.each(reads)('reading %s after every pooled session ended: 200 or 503, then 200 again', async (_what, path) => {
    const warm = await Promise.all(Array.from({ length: 6 }, () => call(app, 'GET', path(), { token })));
    expect(warm.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(await endSessions()).toBeGreaterThan(0);

    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const res = await call(app, 'GET', path(), { token });
      statuses.push(res.status);
      expectServedOrUnavailable(res, 200);
    }
    expect(statuses.slice(-3), statuses.join(',')).toEqual([200, 200, 200]);
    expect(uncaught).toEqual([]);
  });

  it('sessions ended over and over while requests run and new connections open: no crash, only 2xx or 503, then recovery', async () => {
    const until = Date.now() + 2_500;
    let drops = 0;
    const dropper = (async () => {
      while (Date.now() < until) {
        drops += await endSessions();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let n = 0;
    const clients = Array.from({ length: 8 }, async (_x, client) => {
      while (Date.now() < until) {
        n++;
        if (client === 0) {
          expectServedOrUnavailable(await call(app, 'POST', '/clusters', { token, body: { name: `storm-${n}`, bootstrapServers: ['b:9092'] } }), 201);
        } else {
          expectServedOrUnavailable(await call(app, 'GET', reads[client % reads.length][1](), { token }), 200);
        }
      }
    });
    await Promise.all([dropper, ...clients]);
    expect(drops).toBeGreaterThan(10);
    expect(uncaught).toEqual([]);

    // Recovery: the pool replaced what it lost; every read and a write succeed again.
    const after: number[] = [];
    for (let i = 0; i < 12; i++) after.push((await call(app, 'GET', reads[i % 3][1](), { token })).status);
    expect(after.slice(-6), after.join(',')).toEqual(Array(6).fill(200));
    expect((await call(app, 'POST', '/clusters', { token, body: { name: 'after-storm', bootstrapServers: ['b:9092'] } })).status).toBe(201);
  });
});
