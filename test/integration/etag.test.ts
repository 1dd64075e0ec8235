/**
 * Conditional requests and write semantics of an item (docs/contract.md §3.4, §3.6): ETag from the version column,
 * If-None-Match → 304, stale If-Match → 412; PATCH merges, PUT replaces. Clusters are the subject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let n = 0;

beforeAll(async () => { ({ app, t } = await startWithTenant('etag')); });
afterAll(async () => app?.stop());

const FULL = {
  description: 'Production', location: 'eu-central-1', bootstrapServers: ['b1:9092', 'b2:9092'],
  schemaRegistryUrls: ['https://registry.example.com'], providerType: 'AIVEN', apiUrl: 'https://api.example.com',
};

async function newCluster(extra: Record<string, unknown> = FULL) {
  const res = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: `etag-${++n}`, bootstrapServers: ['b:9092'], ...extra } });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${res.text}`);
  return res.body as Record<string, any> & { uid: string };
}
const item = (uid: string) => `/clusters/${uid}`;
const req = (method: string, uid: string, headers: Record<string, string> = {}, body?: unknown) =>
  call(app, method, item(uid), { token: t.admin.token, headers, body });

describe('ETag', () => {
  it('is "0" on create and read, "1" after one PATCH, "2" after a PUT', async () => {
    const c = await newCluster();
    const created = await call(app, 'GET', item(c.uid), { token: t.admin.token });
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.headers.get('last-modified')).toBeTruthy();
    const patched = await req('PATCH', c.uid, {}, { location: 'x' });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe('"1"');
    expect((await req('GET', c.uid)).headers.get('etag')).toBe('"1"');
    const replaced = await req('PUT', c.uid, {}, { name: c.name, bootstrapServers: ['b:9092'] });
    expect(replaced.headers.get('etag')).toBe('"2"');
  });

  it('moves when only links change: a cached copy never outlives a changed member list, a stale writer gets 412', async () => {
    const group = await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: `etag group ${++n}` } });
    const path = `/groups/${group.body.uid}`;
    const read = await call(app, 'GET', path, { token: t.admin.token });
    const tag = read.headers.get('etag')!;
    const linked = await call(app, 'PATCH', path, { token: t.admin.token, headers: { 'If-Match': tag }, body: { members: [t.admin.user.uid] } });
    expect(linked.status).toBe(200);
    expect(linked.headers.get('etag')).not.toBe(tag);
    const again = await call(app, 'GET', path, { token: t.admin.token, headers: { 'If-None-Match': tag } });
    expect(again.status).toBe(200);
    expect(again.body._embedded.members.map((u: any) => u.uid)).toEqual([t.admin.user.uid]);
    expect(Date.parse(again.headers.get('last-modified')!)).toBeGreaterThanOrEqual(Date.parse(read.headers.get('last-modified')!));
    expectError(await call(app, 'PATCH', path, { token: t.admin.token, headers: { 'If-Match': tag }, body: { members: [] } }), 412);
    // The same list again changes nothing: the version stays.
    const same = await call(app, 'PATCH', path, { token: t.admin.token, body: { members: [t.admin.user.uid] } });
    expect(same.headers.get('etag')).toBe(linked.headers.get('etag'));
  });

  it('the create response carries ETag "0"', async () => {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: `etag-${++n}`, bootstrapServers: ['b:9092'] } });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"0"');
  });

  it('comes with Cache-Control: private, no-cache, so a browser asks again instead of reusing an item by its age', async () => {
    const c = await newCluster();
    const read = await req('GET', c.uid);
    expect(read.headers.get('last-modified')).toBeTruthy();
    expect(read.headers.get('cache-control')).toBe('private, no-cache');
    expect((await req('GET', c.uid, { 'If-None-Match': '"0"' })).headers.get('cache-control')).toBe('private, no-cache');
  });
});

describe('If-None-Match', () => {
  it.each(['"0"', 'W/"0"', '"7", "0"', '*'])('%s matching the current version → 304 without a body', async (tag) => {
    const c = await newCluster();
    const res = await req('GET', c.uid, { 'If-None-Match': tag });
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
    expect(res.headers.get('etag')).toBe('"0"');
  });

  it('a stale tag → 200 with the full item', async () => {
    const c = await newCluster();
    await req('PATCH', c.uid, {}, { location: 'moved' });
    const res = await req('GET', c.uid, { 'If-None-Match': '"0"' });
    expect(res.status).toBe(200);
    expect(res.body.location).toBe('moved');
    expect(res.headers.get('etag')).toBe('"1"');
  });

  it('If-Modified-Since at or after the last change → 304; before it → 200', async () => {
    const c = await newCluster();
    const first = await req('GET', c.uid);
    const lastModified = first.headers.get('last-modified')!;
    expect((await req('GET', c.uid, { 'If-Modified-Since': lastModified })).status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await req('GET', c.uid, { 'If-Modified-Since': earlier })).status).toBe(200);
  });
});

describe('If-Match', () => {
  it.each([
    ['PATCH', { location: 'nope' }],
    ['PUT', { name: 'whatever', bootstrapServers: ['b:9092'] }],
    ['DELETE', undefined],
  ])('a stale tag on %s → 412 in the §7 format, nothing changed', async (method, body) => {
    const c = await newCluster();
    await req('PATCH', c.uid, {}, { description: 'v1' });
    const res = await req(method, c.uid, { 'If-Match': '"0"' }, body);
    expectError(res, 412, { subErrors: null });
    const after = await req('GET', c.uid);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).toBe('"1"');
    expect(after.body.description).toBe('v1');
    expect(after.body.name).toBe(c.name);
  });

  it.each([
    ['PATCH', { location: 'ok' }, 200],
    ['PUT', { name: 'replaced-ok', bootstrapServers: ['b:9092'] }, 200],
    ['DELETE', undefined, 204],
  ])('the current tag on %s → success', async (method, body, status) => {
    const c = await newCluster();
    const res = await req(method, c.uid, { 'If-Match': '"0"' }, body);
    expect(res.status).toBe(status);
  });

  it('If-Match: * always matches', async () => {
    const c = await newCluster();
    await req('PATCH', c.uid, {}, { location: 'a' });
    expect((await req('PATCH', c.uid, { 'If-Match': '*' }, { location: 'b' })).status).toBe(200);
  });

  it('two writers with the same tag: the second gets 412', async () => {
    const c = await newCluster();
    const a = await req('PATCH', c.uid, { 'If-Match': '"0"' }, { description: 'writer A' });
    const b = await req('PATCH', c.uid, { 'If-Match': '"0"' }, { description: 'writer B' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(412);
    expect((await req('GET', c.uid)).body.description).toBe('writer A');
  });

  it('412 precedes validation: a stale If-Match with an invalid body → 412', async () => {
    const c = await newCluster();
    await req('PATCH', c.uid, {}, { location: 'v1' });
    const res = await req('PATCH', c.uid, { 'If-Match': '"0"' }, { name: '' });
    expect(res.status).toBe(412);
  });

  it('412 on an unknown id is still 404 (target before precondition)', async () => {
    const res = await req('PATCH', '0'.repeat(32), { 'If-Match': '"0"' }, { location: 'x' });
    expect(res.status).toBe(404);
  });
});

describe('PATCH merges', () => {
  it('absent fields stay unchanged', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { location: 'us-east-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...FULL, providerType: 'AIVEN', location: 'us-east-1', name: c.name });
  });

  it.each(['description', 'location', 'apiUrl'])('null clears the nullable field %s', async (field) => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { [field]: null });
    expect(res.status).toBe(200);
    expect(res.body[field]).toBeNull();
    expect(res.body.bootstrapServers).toEqual(FULL.bootstrapServers);
    expect((await req('GET', c.uid)).body[field]).toBeNull();
  });

  it('null on schemaRegistryUrls clears it to []', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { schemaRegistryUrls: null });
    expect(res.status).toBe(200);
    expect(res.body.schemaRegistryUrls).toEqual([]);
  });

  it('arrays are replaced, not appended', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { bootstrapServers: ['only:9092'] });
    expect(res.body.bootstrapServers).toEqual(['only:9092']);
  });

  it('null on a required field → 400 naming it', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { name: null });
    expect(res.status).toBe(400);
    expect(res.body.subErrors.map((s: { field: string }) => s.field)).toEqual(['name']);
  });

  it('an empty patch changes nothing and is accepted', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...FULL, name: c.name });
  });

  it('modified_at / modified_by are kept; created_* never change', async () => {
    const c = await newCluster();
    const res = await req('PATCH', c.uid, {}, { location: 'z' });
    expect(res.body.created_at).toBe(c.created_at);
    expect(res.body.created_by).toBe(t.admin.email);
    expect(res.body.modified_by).toBe(t.admin.email);
  });
});

describe('PUT replaces', () => {
  it('absent optional fields take their defaults or null', async () => {
    const c = await newCluster();
    const res = await req('PUT', c.uid, {}, { name: c.name, bootstrapServers: ['new:9092'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: c.name, bootstrapServers: ['new:9092'], description: null, location: null, apiUrl: null,
      schemaRegistryUrls: [], providerType: 'APACHE_KAFKA',
    });
    const read = await req('GET', c.uid);
    expect(read.body).toMatchObject({ description: null, location: null, schemaRegistryUrls: [], providerType: 'APACHE_KAFKA' });
  });

  it('a PUT missing a required field → 400 naming it', async () => {
    const c = await newCluster();
    const res = await req('PUT', c.uid, {}, { name: c.name });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['bootstrapServers: is required']);
  });

  it('PUT to an unknown id is 404 (no create by PUT)', async () => {
    const res = await req('PUT', 'f'.repeat(32), {}, { name: 'ghost', bootstrapServers: ['b:9092'] });
    expect(res.status).toBe(404);
  });
});
