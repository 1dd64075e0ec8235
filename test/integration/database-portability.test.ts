/**
 * What must hold on every supported database (PostgreSQL, MariaDB through mariadb and mysql2): 4-byte UTF-8 and
 * JSON round-trips, case-insensitive but accent-exact uniqueness, UTC timestamps with milliseconds, and an audit
 * history that keeps the order it was written in.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditOf } from '../support/audit';
import { call } from '../support/http';
import { dialectOf } from '../../models/db';

let app: TestApp;
let t: TestTenant;
const post = (body: unknown) => call(app, 'POST', '/clusters', { token: t.admin.token, body });

beforeAll(async () => { ({ app, t } = await startWithTenant('portable')); });
afterAll(async () => app?.stop());

describe(`database portability (${dialectOf(inject('databaseUrl'))})`, () => {
  it('round-trips 4-byte UTF-8 text and JSON-valued fields exactly', async () => {
    const description = 'Streams 🚀 für Zürich — 東京 ✓ "quoted" \\ back\\slash';
    const servers = ['broker-ü.example.com:9093', 'b2:9093'];
    const created = await post({ name: 'unicode-🚀', description, bootstrapServers: servers });
    expect(created.status).toBe(201);
    const read = await call(app, 'GET', created.body._links.self.href, { token: t.admin.token });
    expect(read.body).toMatchObject({ name: 'unicode-🚀', description, bootstrapServers: servers });
    const found = await call(app, 'GET', `/clusters/search/findByName?name=${encodeURIComponent('UNICODE-🚀')}`, { token: t.admin.token });
    expect(found.status).toBe(200);
    expect(found.body._embedded.clusters.map((c: any) => c.uid)).toEqual([created.body.uid]);
  });

  it('treats names that differ only in case as the same, and names that differ in accents as different', async () => {
    expect((await post({ name: 'Resume', bootstrapServers: ['b:9092'] })).status).toBe(201);
    const clash = await post({ name: 'rESUME', bootstrapServers: ['b:9092'] });
    expect(clash.status).toBe(409);
    expect(clash.body.errors.join(' ')).toMatch(/name/);
    // A case-insensitive collation such as utf8mb4_general_ci would call these equal; the platform must not.
    expect((await post({ name: 'Résumé', bootstrapServers: ['b:9092'] })).status).toBe(201);
    expect((await post({ name: 'RESUMÉ', bootstrapServers: ['b:9092'] })).status).toBe(201);
    expect((await post({ name: 'résumé', bootstrapServers: ['b:9092'] })).status).toBe(409);
  });

  it('stores timestamps in UTC with milliseconds and renders them as yyyy-mm-ddThh:mm:ss', async () => {
    const before = Date.now();
    const created = await post({ name: 'clock', bootstrapServers: ['b:9092'] });
    const after = Date.now();
    expect(created.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const row = await app.models.Cluster.findByPk(created.body.uid);
    const stored = (row!.get('createdAt') as Date).getTime();
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(stored).toBeLessThanOrEqual(after);
    expect(created.body.created_at).toBe(new Date(stored).toISOString().slice(0, 19));
  });

  it('keeps the audit entries of one transaction in the order they were written', async () => {
    const c1 = await post({ name: 'order-a', bootstrapServers: ['b:9092'] });
    const c2 = await post({ name: 'order-b', bootstrapServers: ['b:9092'] });
    const instance = await call(app, 'POST', '/instances', {
      token: t.admin.token, body: { name: 'Order', shortName: 'order', clusters: [c1.body._links.self.href, c2.body._links.self.href] },
    });
    expect(instance.status).toBe(201);
    const events = await auditOf(app, instance.body.uid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'CLUSTER_ADDED', 'CLUSTER_ADDED']);
    expect(new Set(events.map((e: any) => (e.timestamp as Date).getTime())).size).toBe(1);
  });
});
