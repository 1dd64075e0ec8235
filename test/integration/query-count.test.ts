/**
 * Issue 15: no N+1. A page costs one query for the rows, one per association kind and a few for the caller, never
 * one per row: every collection answers a page of 1 and a page of 200 with the same number of queries, for a
 * tenant admin and for an owner without admin roles (whose edit and delete links need the rows' parents).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resources } from '../../handlers/resources';
import { dialectOf } from '../../models/db';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';
let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let queries = 0;
let statements: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'qcount');
  w = await accessWorld(app, t, 'qc');
  // More rows of the kinds whose rights depend on a parent row: stream configs of several streams.
  for (let i = 0; i < 3; i++) {
    const stream = await call(app, 'POST', '/streams', { token: w.streamOwner.token, body: { name: `qc-extra-${i}`, keyType: 'String', valueType: 'String', owners: w.streamTeam.uid } });
    await call(app, 'POST', '/stream_configs', { token: w.streamOwner.token, body: { stream: stream.body.uid, environment: w.auto.uid } });
  }
  app.models.sequelize.addHook('afterQuery', (_options, query) => {
    queries += 1;
    statements.push(String((query as { sql?: unknown }).sql ?? ''));
  });
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

/** The statements of a GET asked a second time (the first warms what is built once), and its body. */
async function statementsOf(path: string, token: string): Promise<{ sql: string[]; body: any }> {
  await call(app, 'GET', path, { token });
  statements = [];
  const res = await call(app, 'GET', path, { token });
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
  return { sql: statements, body: res.body };
}

/** PostgreSQL: a stream's owners, key and value schemas, confidentiality, integrity and viewers, a subquery each. */
function expectStreamTargetSubqueries(sql: string): void {
  expect(sql.match(/FROM \S+ a\d+ WHERE a\d+\.\S+ = r\./g)).toHaveLength(5);
  expect(sql).toMatch(/json_agg\(/);
}

describe('a page reads its rows and what it renders of them', () => {
  it('streams: on PostgreSQL the rows and their targets in one statement, else one per association kind', async () => {
    const { sql, body } = await statementsOf('/streams?size=200', t.admin.token);
    const streams = body._embedded.streams as { name: string; _embedded: { owners?: { uid: string } } }[];
    expect(streams.length).toBeGreaterThan(3);
    const owned = streams.find((s) => s.name === w.stream.name)!;
    expect(owned._embedded.owners!.uid).toBe(w.streamTeam.uid);
    const reads = sql.filter((s) => !/AS "caller"/.test(s));
    const targets = reads.filter((s) => /groups/.test(s));
    if (postgres) {
      expect(reads).toHaveLength(1);
      expectStreamTargetSubqueries(reads[0]);
    } else {
      // the rows; groups (owners), schemas, confidentialities, integrities; the viewers with their links
      expect(targets).toHaveLength(2);
    }
  });
});

describe('a GET of one item reads the row with the caller', () => {
  const itemStatements = async (path: string, token: string) => (await statementsOf(path, token)).sql;

  it('a cluster (no associations) costs one statement: caller, tenant and row together', async () => {
    const created = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'qc-cluster', bootstrapServers: ['qc:9092'] } });
    expect(created.status).toBe(201);
    const sql = await itemStatements(`/clusters/${created.body.uid}`, t.admin.token);
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/clusters/);
  });

  it('a stream: on PostgreSQL one statement (the caller with the stream, its to-one targets and its viewers as subqueries), else three', async () => {
    const sql = await itemStatements(`/streams/${w.stream.uid}`, t.admin.token);
    expect(sql[0]).toMatch(/FROM\s+\S*tenants\S*\s+t\b/i);
    expect(sql[0]).toMatch(/JOIN\s+\S*streams\S*\s+r\b/i);
    expect(sql.filter((s) => /stream_viewers\S*\s+j\s+JOIN\s+\S*groups/i.test(s))).toHaveLength(1);
    if (postgres) {
      expect(sql).toHaveLength(1);
      expectStreamTargetSubqueries(sql[0]);
    } else {
      expect(sql).toHaveLength(3);
    }
    const owners = await call(app, 'GET', `/streams/${w.stream.uid}/owners`, { token: t.admin.token });
    expect(owners.body.uid).toBe(w.streamTeam.uid);
  });

  it('a stream read by its owner (a scope with a visibility rule, so the row is read again): its targets are still read once', async () => {
    const sql = await itemStatements(`/streams/${w.stream.uid}`, w.streamOwner.token);
    expect(sql.filter((s) => /stream_viewers\S*\s+j\s+JOIN\s+\S*groups/i.test(s))).toHaveLength(1);
    // owners is read with the caller on PostgreSQL (a subquery), after the row elsewhere: once either way
    expect(sql.filter((s) => /FROM\s+\S*groups\S*\s+WHERE/i.test(s))).toHaveLength(postgres ? 0 : 1);
  });

  it("another tenant's item is 404 through the same statement, and its owner still reads it", async () => {
    const other = await createTenant(app, 'qcother');
    const created = await call(app, 'POST', '/clusters', { token: other.admin.token, body: { name: 'qc-foreign', bootstrapServers: ['f:9092'] } });
    const foreign = await call(app, 'GET', `/clusters/${created.body.uid}`, { token: t.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toMatch(/qc-foreign/);
    expect((await call(app, 'GET', `/clusters/${created.body.uid}`, { token: other.admin.token })).body.name).toBe('qc-foreign');
  });
});

describe('a page of an environment graph is one statement', () => {
  // Issue 33: nodes, edges and the bounded count of a page in one statement, whatever the page's size; the caller's
  // reads (the caller with the environment, and for a non-admin its groups and the environment's visibility) aside.
  for (const who of ['tenant admin', 'stream owner'] as const) {
    it(`as ${who}: one statement reads the page, and a page of 200 costs what a page of 1 does`, async () => {
      const token = who === 'tenant admin' ? t.admin.token : w.streamOwner.token;
      const path = (size: number) => `/environments/${w.auto.uid}/graph?size=${size}`;
      const one = (await statementsOf(path(1), token)).sql.length;
      const many = await statementsOf(path(200), token);
      expect(many.body.nodes.streams.length).toBeGreaterThan(1);
      expect(many.sql).toHaveLength(one);
      const graph = many.sql.filter((s) => /application_access_grants/.test(s));
      expect(graph).toHaveLength(1);
      expect(graph[0]).toMatch(/COUNT\(\*\)/);
      if (who === 'tenant admin') expect(many.sql).toHaveLength(2);
    });
  }
});

describe('a full page counts its total in its own order', () => {
  // The count walks the index the page walks: unordered, PostgreSQL counted a tenant owning most of a large table
  // by a sequential scan through a small ring of buffers (the size-dependent part of a page's time at 1M rows).
  async function countOf(path: string): Promise<string> {
    statements = [];
    const res = await call(app, 'GET', path, { token: t.admin.token });
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
    const counts = statements.filter((s) => /SELECT COUNT\(\*\)/i.test(s));
    expect(counts, path).toHaveLength(1);
    return counts[0];
  }

  it('a collection sorted by name counts by name, then uid; by default by creation, then uid', async () => {
    expect(await countOf('/streams?size=1&sort=name,desc')).toMatch(/ORDER BY\s+\S*name\S*\s+DESC,\s*\S*uid\S*\s+ASC\s+LIMIT/i);
    expect(await countOf('/streams?size=1')).toMatch(/ORDER BY\s+\S*created_at\S*\s+ASC,\s*\S*uid\S*\s+ASC\s+LIMIT/i);
  });

  it('the audit history counts newest first, as it lists', async () => {
    expect(await countOf('/audit-history?size=1')).toMatch(/ORDER BY\s+\S*timestamp\S*\s+DESC,\s*\S*seq\S*\s+DESC\s+LIMIT/i);
  });
});

describe('a GET of one item without the validator still refuses what the validator refuses', () => {
  it('an id past its 64 characters is 400 naming id; 64 characters is a plain 404', async () => {
    const long = await call(app, 'GET', `/clusters/${'a'.repeat(65)}`, { token: t.admin.token });
    expect(long.status).toBe(400);
    expect(long.text).toMatch(/\bid\b/);
    const edge = await call(app, 'GET', `/clusters/${'a'.repeat(64)}`, { token: t.admin.token });
    expect(edge.status).toBe(404);
  });
});
