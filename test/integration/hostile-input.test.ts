/**
 * Issue 8's reproductions, one regression test each: input a lenient layer answered with 500 or stored changed.
 * Every refusal is 400 in the §7 format naming the field, and leaves the stored row as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';
import { rawClient, type RawClient } from '../fuzz/raw-client';

let app: TestApp;
let t: TestTenant;
let cluster: any;
let group: any;
let env: any;
let client: RawClient;

beforeAll(async () => {
  app = await startTestApp();
  client = rawClient(app.url);
  t = await createTenant(app, 'hostile');
  const token = t.admin.token;
  cluster = (await call(app, 'POST', '/clusters', { token, body: { name: 'hostile-cluster', bootstrapServers: ['k:9092'] } })).body;
  group = (await call(app, 'POST', '/groups', { token, body: { name: 'Hostile Owners', members: [t.admin.user.uid] } })).body;
  const inst = (await call(app, 'POST', '/instances', { token, body: { name: 'Hostile Inst', shortName: 'hostile' } })).body;
  env = (await call(app, 'POST', '/environments', { token, body: { name: 'hostile-env', shortName: 'hostile', instance: inst.uid, owners: group.uid } })).body;
  expect([cluster, group, env].map((r) => typeof r.uid)).toEqual(["string", "string", "string"]);
});
afterAll(async () => {
  client?.close();
  await app?.stop();
});

/** A request sent byte for byte (fetch would normalise the target), answered as received. */
const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) =>
  client.send({ method, path, headers: { Authorization: `Bearer ${t.admin.token}`, ...headers }, body });

const get = async (href: string) => (await call(app, 'GET', href, { token: t.admin.token })).body;

describe('1. undecodable percent-encoding in a path', () => {
  const bad = ['%zz', 'abc%', '%ff%fe', '%c0%af', '%ed%a0%80'];
  it.each(bad)('in id: GET /groups/%s → 400 naming id', async (seg) => {
    expectError(await raw('GET', `/api/groups/${seg}`), 400, { field: 'id' });
  });
  it.each(bad)('in rel: GET /groups/{id}/%s → 400 naming rel', async (seg) => {
    expectError(await raw('GET', `/api/groups/${group.uid}/${seg}`), 400, { field: 'rel' });
  });
  it.each(bad)('in propertyId: DELETE /groups/{id}/members/%s → 400 naming propertyId', async (seg) => {
    expectError(await raw('DELETE', `/api/groups/${group.uid}/members/${seg}`), 400, { field: 'propertyId' });
  });
  it('an unknown path stays 404 and a bad query value is 400 naming the parameter', async () => {
    expectError(await raw('GET', '/api/nothing/%zz'), 404);
    expectError(await raw('GET', '/api/groups/search/findByName?name=%ff'), 400, { field: 'name' });
    expectError(await raw('GET', '/api/groups?page=%zz'), 400, { field: 'page' });
  });
  it('a NUL in a path parameter or query value is refused, not sent to the database', async () => {
    expectError(await raw('GET', '/api/groups/%00'), 400, { field: 'id' });
    expectError(await raw('GET', '/api/groups/search/findByName?name=a%00b'), 400, { field: 'name' });
  });
});

describe('2. a sort key named after a built-in property', () => {
  const paths = ['/clusters', '/groups', '/group', '/environments', '/users', '/tenants', '/instances', '/clusters/search/findByName?name=x'];
  const keys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__,desc'];
  it.each(paths.flatMap((p) => keys.map((k) => [p, k])))('GET %s with sort=%s → 400 naming sort', async (path, key) => {
    const sep = path.includes('?') ? '&' : '?';
    expectError(await call(app, 'GET', `${path}${sep}sort=${encodeURIComponent(key)}`, { token: t.admin.token }), 400, { field: 'sort' });
  });
  it('page and size take digits only', async () => {
    for (const q of ['size=1e3', 'size=0x10', 'page=%201', 'size=2.0']) {
      expectError(await raw('GET', `/api/clusters?${q}`), 400);
    }
  });
});

describe('3 and 4. NUL characters and unpaired surrogates are refused on every database', () => {
  const cases: Array<[string, () => string, Record<string, unknown>, string]> = [
    ['a cluster description with NUL', () => `/clusters/${cluster.uid}`, { description: 'a\u0000b' }, 'description'],
    ['a group phone number with NUL at its length limit', () => `/groups/${group.uid}`, { phoneNumber: '123456789012345\u0000' }, 'phoneNumber'],
    ['a cluster description with a lone high surrogate', () => `/clusters/${cluster.uid}`, { description: 'a\ud800b' }, 'description'],
    ['a cluster description with a lone low surrogate', () => `/clusters/${cluster.uid}`, { description: '\udc00' }, 'description'],
    ['a map value with NUL', () => `/environments/${env.uid}`, { properties: { a: 'x\u0000' } }, 'properties.a'],
    ['a map key with a surrogate', () => `/environments/${env.uid}`, { properties: { 'k\ud800': 'x' } }, 'properties.k\ud800'],
    ['a string inside an array', () => `/clusters/${cluster.uid}`, { bootstrapServers: ['k:9092', 'b\u0000:1'] }, 'bootstrapServers[1]'],
  ];
  it.each(cases)('PATCH %s → 400 naming the field; the row is unchanged', async (_label, path, body, field) => {
    const before = await get(path());
    expectError(await call(app, 'PATCH', path(), { token: t.admin.token, body }), 400, { field });
    expect(await get(path())).toEqual(before);
  });
  it('PUT /tenants/{id}/contact with NUL → 400', async () => {
    const res = await call(app, 'PUT', `/tenants/${t.tenant.uid}/contact`, {
      token: t.admin.token, body: { type: 'BUSINESS', name: 'Ops', emailAddress: { email: 'ops@x.test' }, phoneNumber: '123456789012345\u0000' },
    });
    expectError(res, 400, { field: 'phoneNumber' });
  });
  it('bytes that are not UTF-8 → 400 bad body, not U+FFFD', async () => {
    const body = Buffer.concat([Buffer.from('{"description":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await raw('PATCH', `/api/clusters/${cluster.uid}`, { 'Content-Type': 'application/json' }, body);
    expect(expectError(res, 400).errors).toEqual(['Invalid request body. Please check API docs for building correct request.']);
    expect((await get(`/clusters/${cluster.uid}`)).description ?? '').not.toContain('\ufffd');
  });
  it('emoji, RTL marks and paired surrogates are kept exactly', async () => {
    const description = 'ok 🚀 \u202eevil\u202c 𝄞 é';
    const res = await call(app, 'PATCH', `/clusters/${cluster.uid}`, { token: t.admin.token, body: { description } });
    expect(res.status).toBe(200);
    expect((await get(`/clusters/${cluster.uid}`)).description).toBe(description);
  });
});

describe('5. a map key named like a prototype property is data', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('PATCH properties {%s: "x"} stores it; null removes it', async (key) => {
    const path = `/environments/${env.uid}`;
    const set = await call(app, 'PATCH', path, { token: t.admin.token, body: { properties: { [key]: 'x', keep: 'y' } } });
    expect(set.status).toBe(200);
    expect(Object.hasOwn(set.body.properties, key)).toBe(true);
    expect(set.body.properties[key]).toBe('x');
    const read = await get(path);
    expect(Object.hasOwn(read.properties, key) && read.properties[key]).toBe('x');
    const removed = await call(app, 'PATCH', path, { token: t.admin.token, body: { properties: { [key]: null } } });
    expect(Object.hasOwn(removed.body.properties, key)).toBe(false);
    expect(removed.body.properties.keep).toBe('y');
  });
  it('a null map value on create or PUT is a key left out', async () => {
    const created = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'null-map', bootstrapServers: ['k:1'] } });
    expect(created.status).toBe(201);
    const tenant = await call(app, 'PATCH', `/tenants/${t.tenant.uid}`, { token: t.admin.token, body: { properties: { keep: 'a' } } });
    expect(tenant.body.properties).toEqual({ keep: 'a' });
    const put = await call(app, 'PUT', `/environments/${env.uid}`, {
      token: t.admin.token, body: { name: 'hostile-env', shortName: 'hostile', instance: env._embedded.instance.uid, owners: group.uid, properties: { k: null, a: 'b' } },
    });
    expect(put.status).toBe(200);
    expect(put.body.properties).toEqual({ a: 'b' });
    expect((await get(`/environments/${env.uid}`)).properties).toEqual({ a: 'b' });
  });
  it('an empty map clears the stored map', async () => {
    const path = `/environments/${env.uid}`;
    await call(app, 'PATCH', path, { token: t.admin.token, body: { properties: { a: '1' } } });
    const cleared = await call(app, 'PATCH', path, { token: t.admin.token, body: { properties: {} } });
    expect(cleared.body.properties).toEqual({});
  });
});

describe('6. the HTTP layer answers in the §7 format', () => {
  it('a 32 KB URL → 414 with the error body', async () => {
    const res = await raw('GET', `/api/clusters?name=${'a'.repeat(32 * 1024)}`);
    expectError(res, 414);
  });
  it('32 KB of headers → 431 with the error body', async () => {
    const res = await raw('GET', '/api/clusters', { 'X-Big': 'b'.repeat(32 * 1024) });
    expectError(res, 431);
  });
  it('a malformed request line → 400 with the error body', async () => {
    const { connect } = await import('node:net');
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(app.port, '127.0.0.1', () => socket.write('GET /api/ HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/content-type: application\/hal\+json/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 'BAD_REQUEST', subErrors: null });
    expect(body.errors.length).toBe(1);
  });
});

describe('7. numbers a double cannot hold exactly', () => {
  it.each([
    ['1e309', 'rank'], ['-1e309', 'rank'], ['9007199254740993', 'rank'], ['1e-400', 'rank'], ['123456789012345678', 'rank'],
  ])('rank: %s → 400 naming the field; the tenant is unchanged', async (literal) => {
    const before = await get(`/tenants/${t.tenant.uid}`);
    const text = `{"supportedAuthenticationMethods":[{"rank":${literal},"protocol":"SSL","mechanism":"MUTUAL_TLS"}]}`;
    const res = await raw('PATCH', `/api/tenants/${t.tenant.uid}`, { 'Content-Type': 'application/json' }, text);
    const body = expectError(res, 400, { field: 'supportedAuthenticationMethods[0].rank' });
    expect(body.subErrors[0].rejectedValue).toBe(literal);
    expect(await get(`/tenants/${t.tenant.uid}`)).toEqual(before);
  });
  it('environment retentionTime 1e309 → 400, not null', async () => {
    const res = await raw('PATCH', `/api/environments/${env.uid}`, { 'Content-Type': 'application/json' }, '{"retentionTime":1e309}');
    expectError(res, 400, { field: 'retentionTime' });
  });
  it('exact numbers in any notation pass', async () => {
    const res = await raw('PATCH', `/api/environments/${env.uid}`, { 'Content-Type': 'application/json' }, '{"retentionTime":1.2e6,"partitions":3.0}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ retentionTime: 1200000, partitions: 3 });
  });
  it.each([
    ['an empty array', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['an array around an inexact number', `${'['.repeat(10_000)}1e309${']'.repeat(10_000)}`],
    ['objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ])('nesting deeper than any document of the API (%s) → 400', async (_label, deep) => {
    const before = await get(`/environments/${env.uid}`);
    const body = expectError(await raw('PUT', `/api/environments/${env.uid}`, { 'Content-Type': 'application/json' }, `{"name":${deep}}`), 400);
    expect(body.errors).toEqual([expect.stringMatching(/^name(\[0\]|\.a)+: must not nest deeper than 64 levels$/)]);
    expect(await get(`/environments/${env.uid}`)).toEqual(before);
  });
});
