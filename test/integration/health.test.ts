/**
 * Issue 30: the probes an orchestrator asks. Liveness reads nothing; readiness asks the database once, within its
 * bound even when the database hangs, and checks the schema is migrated; both are public, take no parameters and
 * answer 405 to other methods. A database that hangs, one that is not there and one migrated one step short each
 * get a server of their own on a database of their own, so no other suite sees a lock or a missing migration.
 */
import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Sequelize, Transaction } from 'sequelize';
import { loadConfig, type Config } from '../../core/config';
import { openDatabase } from '../../models/db';
import { migrations } from '../../migrations';
import { migrator } from '../../migrations/migrator';
import { startServer, type RunningServer } from '../../server/server';
import { startTestApp, type TestApp } from '../support/app';
import { call } from '../support/http';
import { expectError } from '../support/errors';
import { createRunDatabase } from '../support/run-database';

const NEWEST = migrations[migrations.length - 1].name;
const PROBES = ['/health', '/health/liveness', '/health/readiness'];

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => app?.stop());

const probe = (server: RunningServer, path: string) => call(app, 'GET', `http://127.0.0.1:${server.port}/api${path}`);

/** The one observation of each check, by name. */
const checks = (body: any): Record<string, any> =>
  Object.fromEntries(Object.entries(body.checks).map(([name, list]) => [name, (list as any[])[0]]));

describe('the probes on a healthy service', () => {
  it('liveness: 200 pass, application/health+json, the uptime only, not cached', async () => {
    const res = await call(app, 'GET', '/health/liveness');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/health\+json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.status).toBe('pass');
    expect(Object.keys(res.body.checks)).toEqual(['uptime']);
    expect(checks(res.body).uptime).toMatchObject({ status: 'pass', componentType: 'system', observedUnit: 's' });
    expect(checks(res.body).uptime.observedValue).toBeGreaterThanOrEqual(0);
  });

  it('readiness: 200 pass with the database round trip in ms, the newest migration and no shutdown', async () => {
    const res = await call(app, 'GET', '/health/readiness');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/health\+json/);
    expect(res.body.status).toBe('pass');
    const c = checks(res.body);
    expect(Object.keys(c).sort()).toEqual(['database', 'migrations', 'shutdown']);
    expect(c.database).toMatchObject({ status: 'pass', componentType: 'datastore', observedUnit: 'ms' });
    expect(typeof c.database.observedValue).toBe('number');
    expect(c.migrations).toMatchObject({ status: 'pass', observedValue: NEWEST });
    expect(c.shutdown).toMatchObject({ status: 'pass', observedValue: false });
    expect(new Date(c.database.time).toISOString()).toBe(c.database.time);
  });

  it('/health: the checks of both', async () => {
    const res = await call(app, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pass');
    expect(Object.keys(res.body.checks).sort()).toEqual(['database', 'migrations', 'shutdown', 'uptime']);
  });

  it.each(PROBES)('%s is public: no token needed, a bad one is not even read', async (path) => {
    expect((await call(app, 'GET', path)).status).toBe(200);
    expect((await call(app, 'GET', path, { token: 'garbage' })).status).toBe(200);
  });

  it.each(PROBES)('HEAD %s: the status and headers, no body', async (path) => {
    const res = await call(app, 'HEAD', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/health\+json/);
    expect(res.text).toBe('');
  });

  it.each(PROBES.flatMap((path) => ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, path])))(
    '%s %s → 405 with Allow: GET, HEAD and the error body', async (method, path) => {
      const res = await call(app, method, path, { body: method === 'DELETE' ? undefined : {} });
      expectError(res, 405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    },
  );

  it('query parameters change nothing (the API ignores undeclared ones)', async () => {
    const res = await call(app, 'GET', '/health/readiness?verbose=1&checks=database');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.checks).sort()).toEqual(['database', 'migrations', 'shutdown']);
  });

  it('names no host, port, database, user or password of the connection', async () => {
    const url = new URL(inject('databaseUrl'));
    const { body } = await call(app, 'GET', '/health');
    expect(body.description).toBe('platform-management-service');
    const text = JSON.stringify(body.checks);
    for (const part of [url.hostname, url.port, url.username, url.password, url.pathname.slice(1)].filter((p) => p.length > 2)) {
      expect(text).not.toContain(part);
    }
  });
});

/** A server of its own on `sequelize` (the readiness cases change what its database answers). */
async function serverOn(sequelize: Sequelize): Promise<RunningServer> {
  const config: Config = { ...loadConfig({}), port: 0, dataDir: inject('dataDir'), validateResponses: true };
  return startServer({ config, sequelize, host: '127.0.0.1' });
}

describe('readiness on a database of its own', () => {
  let drop: () => Promise<void>;
  let url: string;
  let sequelize: Sequelize;
  let server: RunningServer;
  beforeAll(async () => {
    ({ url, drop } = await createRunDatabase(inject('databaseUrl')));
    sequelize = openDatabase(url);
    await migrator(sequelize).up({ to: migrations[migrations.length - 2].name });
    server = await serverOn(sequelize);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await sequelize?.close();
    await drop?.();
  });

  it('a database one migration short: 503 fail, naming the migration it lacks; migrated, it passes', async () => {
    const behind = await probe(server, '/health/readiness');
    expect(behind.status).toBe(503);
    expect(behind.headers.get('content-type')).toMatch(/^application\/health\+json/);
    expect(behind.body.status).toBe('fail');
    const c = checks(behind.body);
    expect(c.database.status).toBe('pass');
    expect(c.migrations).toMatchObject({ status: 'fail', observedValue: migrations[migrations.length - 2].name });
    expect(c.migrations.output).toContain(NEWEST);
    expect((await probe(server, '/health')).status).toBe(503);
    expect((await probe(server, '/health/liveness')).status).toBe(200);

    await migrator(sequelize).up();
    expect((await probe(server, '/health/readiness')).status).toBe(200);
  }, 120_000);

  it('a database that hangs: 503 fail within the bound while liveness answers; released, it passes', async () => {
    const locker = openDatabase(url);
    const postgres = locker.getDialect() === 'postgres';
    const held: Transaction = await locker.transaction();
    try {
      // The readiness statement reads schema_migrations: a lock of another session makes it wait for as long as it is held.
      await locker.query(postgres ? 'LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE' : 'LOCK TABLES schema_migrations WRITE', { transaction: held });
      for (let i = 0; i < 3; i++) {
        const hung = await probe(server, '/health/readiness');
        expect(hung.status).toBe(503);
        const c = checks(hung.body);
        expect(c.database).toMatchObject({ status: 'fail', output: 'no answer within 500 ms' });
        expect(c.migrations.status).toBe('fail');
        expect((await probe(server, '/health/liveness')).status).toBe(200);
      }
    } finally {
      if (!postgres) await locker.query('UNLOCK TABLES', { transaction: held });
      await held.rollback();
      await locker.close();
    }
    const again = await probe(server, '/health/readiness');
    expect(again.status, again.text).toBe(200);
    expect(checks(again.body).database.status).toBe('pass');
  }, 60_000);
});

describe('readiness without a database', () => {
  let sequelize: Sequelize;
  let server: RunningServer;
  beforeAll(async () => {
    sequelize = openDatabase(`${new URL(inject('databaseUrl')).protocol}//x:y@127.0.0.1:1/none`);
    server = await serverOn(sequelize);
  });
  afterAll(async () => {
    await server?.close();
    await sequelize?.close();
  });

  it('a database that refuses connections: 503 fail, the reason in words of its own; liveness 200', async () => {
    const res = await probe(server, '/health/readiness');
    expect(res.status).toBe(503);
    expect(checks(res.body).database.status).toBe('fail');
    expect(res.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|none/);
    expect((await probe(server, '/health/liveness')).status).toBe(200);
  });
});

describe('readiness of a stopping server', () => {
  it('fails at once, on a connection the server still serves, which then closes', async () => {
    const sequelize = openDatabase(inject('databaseUrl'));
    const server = await serverOn(sequelize);
    try {
      const raw = connect(server.port, '127.0.0.1');
      await once(raw, 'connect');
      // Connections are accepted in the order they arrive: one answered after it means the server holds this one too.
      expect((await probe(server, '/health/liveness')).status).toBe(200);
      let text = '';
      raw.setEncoding('utf8');
      raw.on('data', (d: string) => { text += d; });
      const stopped = server.close();
      raw.write('GET /api/health/readiness HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await once(raw, 'close');
      const [head, body] = text.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503/);
      expect(head.toLowerCase()).toContain('connection: close');
      const report = JSON.parse(body);
      expect(report.status).toBe('fail');
      expect(checks(report).shutdown).toMatchObject({ status: 'fail', observedValue: true, output: 'the service is stopping' });
      await stopped;
    } finally {
      await server.close();
      await sequelize.close();
    }
  });
});
