/**
 * The database drops the service's pooled connections (a restart, a failover, an administrator's
 * pg_terminate_backend): requests on a dropped connection answer 503 in the spec §7 format, never 500, and the
 * service recovers by itself with new connections. PostgreSQL only: there the hottest statements run as prepared
 * statements outside Sequelize (models/prepared), and its connections can be told apart by application_name.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { dialectOf, openDatabase } from '../../models/db';
import { call, createTenant, passwordToken, startTestApp, type TestApp, type TestTenant } from '../support/app';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';

describe.skipIf(!postgres)('pooled connections dropped by the database', () => {
  const applicationName = `restart-${randomBytes(4).toString('hex')}`;
  let app: TestApp;
  let t: TestTenant;
  let token: string;
  let clusterUid: string;
  let streamUid: string;
  let admin: Sequelize;

  beforeAll(async () => {
    admin = openDatabase(inject('databaseUrl'), { pool: { max: 1 } });
    app = await startTestApp({}, { dialectOptions: { application_name: applicationName } });
    t = await createTenant(app, 'restart');
    token = await passwordToken(app, t.shortName, t.admin.email, t.admin.password);
    const cluster = await call(app, 'POST', '/clusters', { token, body: { name: 'restart-cluster', bootstrapServers: ['b:9092'] } });
    clusterUid = cluster.body.uid;
    const group = await call(app, 'POST', '/groups', { token, body: { name: 'Restart Owners', members: [t.admin.user.uid] } });
    const stream = await call(app, 'POST', '/streams', { token, body: { name: 'restart-stream', keyType: 'String', valueType: 'String', owners: group.body.uid } });
    streamUid = stream.body.uid;
  });
  afterAll(async () => { await app?.stop(); await admin?.close(); });

  /** Every connection the service holds, ended by the server (asked on a connection of the test's own). */
  async function dropConnections(): Promise<number> {
    const [rows] = await admin.query(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = :name AND pid <> pg_backend_pid()',
      { replacements: { name: applicationName } },
    );
    return (rows as unknown[]).length;
  }

  it.each([['a cluster', () => `/clusters/${clusterUid}`], ['a stream', () => `/streams/${streamUid}`], ['a page', () => '/streams?size=5']])(
    'reading %s: 200 or 503 while dropped connections are found, then 200 again', async (_what, path) => {
      // Fill the pool: several connections at once.
      const warm = await Promise.all(Array.from({ length: 6 }, () => call(app, 'GET', path(), { token })));
      expect(warm.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(await dropConnections()).toBeGreaterThan(0);

      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await call(app, 'GET', path(), { token });
        statuses.push(res.status);
        if (res.status === 503) {
          expect(res.body).toMatchObject({ status: 'SERVICE_UNAVAILABLE' });
          expect(res.text).not.toMatch(/terminat|sequelize|SELECT|pg_/i);
        }
      }
      expect(statuses.filter((s) => s !== 200 && s !== 503), statuses.join(',')).toEqual([]);
      expect(statuses.slice(-3), statuses.join(',')).toEqual([200, 200, 200]);
    });
});
