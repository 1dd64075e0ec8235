/**
 * Issue 15: no N+1. A page costs one query for the rows, one per association kind and a few for the caller, never
 * one per row: every collection answers a page of 1 and a page of 200 with the same number of queries, for a
 * tenant admin and for an owner without admin roles (whose edit and delete links need the rows' parents).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../handlers/resources';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { call, createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let queries = 0;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'qcount');
  w = await accessWorld(app, t, 'qc');
  // More rows of the kinds whose rights depend on a parent row: stream configs of several streams.
  for (let i = 0; i < 3; i++) {
    const stream = await call(app, 'POST', '/streams', { token: w.streamOwner.token, body: { name: `qc-extra-${i}`, keyType: 'String', valueType: 'String', owners: w.streamTeam.uid } });
    await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: stream.body.uid, environment: w.auto.uid } });
  }
  app.models.sequelize.addHook('afterQuery', () => { queries += 1; });
}, 120_000);
afterAll(async () => app?.stop());

async function counted(path: string, token: string): Promise<{ queries: number; rows: number }> {
  await call(app, 'GET', path, { token });
  queries = 0;
  const res = await call(app, 'GET', path, { token });
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
  const rows = Object.values(res.body._embedded ?? {}).reduce((n: number, list) => n + (list as unknown[]).length, 0);
  return { queries, rows };
}

describe('queries per page do not grow with the page', () => {
  for (const who of ['tenant admin', 'stream owner', 'application owner'] as const) {
    it(`every collection, as ${who}: a page of 1 and a page of 200 cost the same`, async () => {
      const token = who === 'tenant admin' ? t.admin.token : who === 'stream owner' ? w.streamOwner.token : w.appOwner.token;
      const grown: string[] = [];
      let withSeveral = 0;
      for (const r of resources) {
        const one = await counted(`/${r.collection}?size=1`, token);
        const many = await counted(`/${r.collection}?size=200`, token);
        if (many.rows > 1) withSeveral += 1;
        if (many.queries > one.queries) grown.push(`${r.collection}: ${one.queries} queries for 1 row, ${many.queries} for ${many.rows}`);
      }
      expect(grown).toEqual([]);
      // The comparison means something only where a page holds several rows.
      expect(withSeveral).toBeGreaterThanOrEqual(who === 'tenant admin' ? 8 : 4);
    });
  }
});
