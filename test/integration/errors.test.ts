/**
 * The one error format (docs/contract.md §2) across the pipeline: routing 404/405, body 415/413/400, validation,
 * enums, uniqueness 409 and an unreachable database 503. Clusters are the subject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../models/db';
import { startServer, type RunningServer } from '../../server/server';
import { createTenant, startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { BAD_BODY, expectError } from '../support/errors';
import { call } from '../support/http';
import type { Sequelize } from 'sequelize';

let app: TestApp;
let t: TestTenant;

beforeAll(async () => { ({ app, t } = await startWithTenant('errors')); });
afterAll(async () => app?.stop());

const create = (body: unknown) => call(app, 'POST', '/clusters', { token: t.admin.token, body });

describe('routing', () => {
  it.each([
    ['an unknown collection', '/nothing-here'],
    ['an unknown sub path', '/clusters/abc/def/ghi'],
    ['an unknown search', '/clusters/search/findByColour'],
  ])('%s → 404', async (_label, path) => {
    const res = await call(app, 'GET', path, { token: t.admin.token });
    expectError(res, 404);
    expect(res.body.subErrors).toBeNull();
  });

  it('a path outside the base path → 404 in the same format', async () => {
    const res = await call(app, 'GET', `${app.url}/nothing-here`, { token: t.admin.token });
    expectError(res, 404);
  });

  it('an unknown id → 404', async () => {
    const res = await call(app, 'GET', `/clusters/${'0'.repeat(32)}`, { token: t.admin.token });
    expectError(res, 404);
  });

  it.each(['PATCH', 'PUT'])('target 404 precedes validation: an invalid %s of an unknown id → 404', async (method) => {
    const res = await call(app, method, `/clusters/${'0'.repeat(32)}`, { token: t.admin.token, body: { name: '' } });
    expectError(res, 404);
  });

  it('authentication precedes routing: no token on an unknown path → 401', async () => {
    const res = await call(app, 'GET', '/nothing-here');
    expectError(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each([
    ['PATCH', '/clusters', ['GET', 'HEAD', 'POST']],
    ['DELETE', '/clusters', ['GET', 'HEAD', 'POST']],
    ['PUT', '/clusters/search/findByName', ['GET', 'HEAD']],
    ['POST', '/info', ['GET', 'HEAD']],
  ])('%s %s → 405 with Allow', async (method, path, allowed) => {
    const res = await call(app, method, path, { token: t.admin.token });
    expectError(res, 405);
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    expect(allow).toEqual([...allowed].sort());
  });

  it('POST on an item → 405 whose Allow lists the item verbs', async () => {
    const made = await create({ name: 'allow-1', bootstrapServers: ['b:9092'] });
    const res = await call(app, 'POST', `/clusters/${made.body.uid}`, { token: t.admin.token, body: {} });
    expectError(res, 405);
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort();
    expect(allow).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH', 'PUT']);
  });
});

describe('request bodies', () => {
  it.each([
    ['malformed JSON', '{"name": "x",'],
    ['a JSON string where an object is due', '"just a string"'],
    ['a JSON array', '[1,2]'],
  ])('%s → exactly the invalid-body error', async (_label, raw) => {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, raw, headers: { 'Content-Type': 'application/json' } });
    expectError(res, 400);
    expect(res.body).toEqual(BAD_BODY);
  });

  it.each([
    ['no body at all', undefined],
    ['an empty body', ''],
    ['a whitespace body', '  \n'],
  ])('a create with %s → exactly the invalid-body error', async (_label, raw) => {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, raw, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(BAD_BODY);
  });

  it('a body without Content-Type is read as JSON', async () => {
    const res = await fetch(`${app.api}/clusters`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.admin.token}` },
      body: new Blob([JSON.stringify({ name: 'no-type', bootstrapServers: ['b:9092'] })]),
    });
    expect(res.status).toBe(201);
  });

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])('Content-Type %s → 415', async (type) => {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, raw: '{"name":"x","bootstrapServers":["b:9092"]}', headers: { 'Content-Type': type } });
    expectError(res, 415);
  });

  it('415 precedes parsing: an unsupported type with garbage is still 415', async () => {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, raw: 'not json', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
  });

  it('application/merge-patch+json is accepted on PATCH', async () => {
    const made = await create({ name: 'merge-1', bootstrapServers: ['b:9092'] });
    const res = await call(app, 'PATCH', `/clusters/${made.body.uid}`, {
      token: t.admin.token, raw: '{"location":"eu"}', headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(res.status).toBe(200);
    expect(res.body.location).toBe('eu');
  });

  describe('body size limit (maxBodyBytes 1024)', () => {
    let small: TestApp;
    let st: TestTenant;
    beforeAll(async () => {
      small = await startTestApp({ maxBodyBytes: 1024 });
      st = await createTenant(small, 'errors-small');
    });
    afterAll(async () => small?.stop());

    it('a body over the limit → 413', async () => {
      const body = { name: 'big', description: 'x'.repeat(2000), bootstrapServers: ['b:9092'] };
      const res = await call(small, 'POST', '/clusters', { token: st.admin.token, body });
      expectError(res, 413);
    });

    it('413 precedes parsing: an oversized malformed body is 413, not 400', async () => {
      const res = await call(small, 'POST', '/clusters', { token: st.admin.token, raw: '{'.repeat(2000), headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(413);
    });

    it('a body under the limit passes', async () => {
      const res = await call(small, 'POST', '/clusters', { token: st.admin.token, body: { name: 'small', bootstrapServers: ['b:9092'] } });
      expect(res.status).toBe(201);
    });
  });
});

describe('validation', () => {
  it('one errors[] entry and one subError per violated field', async () => {
    const res = await create({ name: '', bootstrapServers: [], schemaRegistryUrls: ['ftp://nope'] });
    expectError(res, 400);
    expect(res.body.message).toBe('Bad request');
    const fields = res.body.subErrors.map((s: { field: string }) => s.field).sort();
    expect(fields).toEqual(['bootstrapServers', 'name', 'schemaRegistryUrls[0]']);
    expect(res.body.errors).toHaveLength(3);
    for (const sub of res.body.subErrors) {
      expect(Object.keys(sub).sort()).toEqual(['field', 'message', 'rejectedValue']);
      expect(res.body.errors).toContain(`${sub.field}: ${sub.message}`);
    }
    expect(res.body.subErrors).toContainEqual({ field: 'name', message: 'must not be blank', rejectedValue: '' });
    expect(res.body.subErrors).toContainEqual(expect.objectContaining({ field: 'bootstrapServers', rejectedValue: [] }));
    expect(res.body.subErrors).toContainEqual(expect.objectContaining({ field: 'schemaRegistryUrls[0]', rejectedValue: 'ftp://nope' }));
  });

  it('a missing required field is named, without a rejected value', async () => {
    const res = await create({ name: 'no-servers' });
    expectError(res, 400);
    expect(res.body.errors).toEqual(['bootstrapServers: is required']);
    expect(res.body.subErrors).toEqual([{ field: 'bootstrapServers', message: 'is required' }]);
  });

  it.each([
    ['name', 42],
    ['name', null],
    ['bootstrapServers', 'b:9092'],
    ['description', 'x'.repeat(256)],
  ])('a wrong %s (%j) names the field', async (field, value) => {
    const res = await create({ name: 'typed', bootstrapServers: ['b:9092'], [field]: value });
    expectError(res, 400);
    expect(res.body.subErrors.map((s: { field: string }) => s.field)).toEqual([field]);
    expect(res.body.subErrors[0].rejectedValue).toEqual(value);
  });

  it.each([
    ['confluent-cloud', 'CONFLUENT_CLOUD'],
    ['Confluent Cloud', 'CONFLUENT_CLOUD'],
    ['aiven', 'AIVEN'],
    ['apache_kafka', 'APACHE_KAFKA'],
    ['ApacheKafka', 'APACHE_KAFKA'],
  ])('enum input %j is stored as %s', async (input, stored) => {
    const res = await create({ name: `enum-${Math.random().toString(36).slice(2)}`, bootstrapServers: ['b:9092'], providerType: input });
    expect(res.status).toBe(201);
    expect(res.body.providerType).toBe(stored);
    const read = await call(app, 'GET', `/clusters/${res.body.uid}`, { token: t.admin.token });
    expect(read.body.providerType).toBe(stored);
  });

  it('an unknown enum value → 400 naming the field and the allowed values', async () => {
    const res = await create({ name: 'enum-bad', bootstrapServers: ['b:9092'], providerType: 'kinesis' });
    expectError(res, 400);
    expect(res.body.subErrors).toEqual([expect.objectContaining({ field: 'providerType', rejectedValue: 'kinesis' })]);
    expect(res.body.errors[0]).toMatch(/^providerType: .*AIVEN.*APACHE_KAFKA.*CONFLUENT_CLOUD/);
  });
});

describe('uniqueness', () => {
  it('a name taken in another case → 409 naming name', async () => {
    expect((await create({ name: 'Unique-One', bootstrapServers: ['b:9092'] })).status).toBe(201);
    const res = await create({ name: 'unique-ONE', bootstrapServers: ['b:9092'] });
    expectError(res, 409);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatch(/^name: /);
  });

  it('renaming onto a taken name → 409; keeping one\'s own name in another case is fine', async () => {
    await create({ name: 'taken-2', bootstrapServers: ['b:9092'] });
    const mine = await create({ name: 'mine-2', bootstrapServers: ['b:9092'] });
    const clash = await call(app, 'PATCH', `/clusters/${mine.body.uid}`, { token: t.admin.token, body: { name: 'TAKEN-2' } });
    expectError(clash, 409);
    const recase = await call(app, 'PATCH', `/clusters/${mine.body.uid}`, { token: t.admin.token, body: { name: 'MINE-2' } });
    expect(recase.status).toBe(200);
    expect(recase.body.name).toBe('MINE-2');
  });

  it('the same name in another tenant is fine', async () => {
    await create({ name: 'shared-name', bootstrapServers: ['b:9092'] });
    const other = await createTenant(app, 'errors-other');
    const res = await call(app, 'POST', '/clusters', { token: other.admin.token, body: { name: 'shared-name', bootstrapServers: ['b:9092'] } });
    expect(res.status).toBe(201);
  });
});

describe('database unreachable', () => {
  let dead: RunningServer;
  let deadDb: Sequelize;
  beforeAll(async () => {
    deadDb = openDatabase('postgres://x:y@127.0.0.1:1/none');
    // Same public URL as the live app, so the live app's tokens carry an issuer this app recognises and
    // authentication proceeds to its database lookups.
    dead = await startServer({ config: { ...app.config, port: 0, publicUrl: app.url }, sequelize: deadDb, host: '127.0.0.1' });
  });
  afterAll(async () => { await dead?.close(); await deadDb?.close(); });

  const deadUrl = (path: string) => `http://127.0.0.1:${dead.port}${app.config.basePath}${path}`;

  it.each([
    ['GET', '/clusters'],
    ['GET', '/'],
    ['POST', '/clusters'],
  ])('%s %s with a valid token → 503, not 401 or 500', async (method, path) => {
    const res = await call(app, method, deadUrl(path), {
      token: t.admin.token, body: method === 'POST' ? { name: 'x', bootstrapServers: ['b:9092'] } : undefined,
    });
    expectError(res, 503);
    expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1|sequelize|SELECT/i);
  });

  it('a public endpoint still answers without the database', async () => {
    const res = await call(app, 'GET', deadUrl('/info'));
    expect(res.status).toBe(200);
  });

  it('no token is still 401 (no database needed to refuse)', async () => {
    const res = await call(app, 'GET', deadUrl('/clusters'));
    expectError(res, 401);
  });
});
