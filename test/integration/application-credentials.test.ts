/**
 * Application credentials end to end (docs/contract.md §5.12, §7, §7.1, §8, §11.6, §11.7): the generated username and
 * password of `POST /application_authentications` and its `[{authData}]` reply; targets, default and explicit
 * types and the 400s naming the field; the password stored only as SCRAM verifiers (RFC 5802) or scrypt and never
 * shown again (items, collection, every search, PATCH replies, audit rows); the HAL collection and item; PATCH,
 * DELETE by id and `DELETE /application_authentications` by username; the five plain-array searches (with paging
 * and whatever the Accept); who sees, edits and creates (environment owners see nothing); the audit rows; delete
 * blockers of environments and applications; `GET /auth`; and, in the last block, the Axual Terraform provider's
 * calls exactly as it makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySecret } from '../../core/passwords';
import { verifyScram } from '../../auth/scram';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { expectError, expectFieldErrors } from '../support/errors';
import { newApplication, newEnvironment } from '../support/fixtures';
import { authAnswer, call, created, expectStatus, lastSegment, type CallResult } from '../support/http';
import { queryEscape, terraformCall } from '../support/terraform-client';

const AUTH = '/application_authentications';
const C = '/application_credentials';
const S = `${C}/search`;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const UID = /^[0-9a-f]{32}$/;
const PASSWORD = /^[A-Za-z0-9]{32}$/;
/** Cluster names in the instance's order (deliberately not alphabetical). */
const CLUSTERS = 'ac-west,ac-east';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
/** APPLICATION_AUTHOR + STREAM_AUTHOR, member of a group that owns nothing here. */
let stranger: TestUser;
/** APPLICATION_ADMIN without a group. */
let appAdmin: TestUser;
/** STREAM_AUTHOR without a group: may not create credentials at all. */
let loner: TestUser;
/** A Private application of a group none of the test users is in (TA only). */
let hidden: any;
/** A Private environment of that group. */
let hiddenEnv: any;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('cred'));
  w = await accessWorld(app, t, 'ac');
  // The world's fixture credential is not made through the API; these tests count credentials themselves.
  await app.models.ApplicationCredential.destroy({ where: { tenantUid: t.tenant.uid } });
  stranger = await createUser(app, t, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR'], 'stranger');
  appAdmin = await createUser(app, t, ['APPLICATION_ADMIN'], 'appadmin');
  loner = await createUser(app, t, ['STREAM_AUTHOR'], 'loner');
  await adminPost('/groups', { name: 'ac Strangers', members: [stranger.user.uid] });
  const secretTeam = await adminPost('/groups', { name: 'ac Secret Team', members: [t.admin.user.uid] });
  const east = await adminPost('/clusters', { name: 'ac-east', bootstrapServers: ['east-1:9092', 'east-2:9092'] });
  const west = await adminPost('/clusters', { name: 'ac-west', bootstrapServers: ['west-1:9092'] });
  const patched = await call(app, 'PATCH', `/instances/${w.instance.uid}`, { token: t.admin.token, body: { clusters: [west.uid, east.uid] } });
  expectStatus(patched, 200);
  hidden = await adminPost('/applications', {
    applicationId: 'io.ac.hidden', name: 'ac Hidden', shortName: 'ac_hidden', applicationType: 'Custom', type: 'Java', owners: secretTeam.uid, visibility: 'Private',
  });
  hiddenEnv = await adminPost('/environments', {
    name: 'ac-hidden', shortName: 'achidden', instance: w.instance.uid, owners: secretTeam.uid, visibility: 'Private', authorizationIssuer: 'Auto',
  });
});
afterAll(async () => app?.stop());

// ---------------------------------------------------------------------------------------------------------------
// helpers

const adminPost = (path: string, body: unknown) => created(app, path, body, t.admin.token);
/** A new Public application of the app team. */
const freshApp = () => newApplication(app, w.appOwner.token, { tag: 'ac', owners: w.appTeam.uid });
/** A new Public environment of the stream team on the world's instance, holding nothing. */
const freshEnv = () => newEnvironment(app, t.admin.token, { tag: 'ac', instance: w.instance.uid, owners: w.streamTeam.uid });

interface Made { res: CallResult; uid: string; username: string; password: string; provider: string; clusters: string }

const post = (body: unknown, token = w.appOwner.token, headers?: Record<string, string>) => call(app, 'POST', AUTH, { token, body, headers });

/** Creates a credential (world application in `managed` unless told) and answers what the 201 revealed. */
async function made(body: Record<string, unknown> = {}, token = w.appOwner.token): Promise<Made> {
  const res = await post({ applicationId: w.application.uid, environmentId: w.managed.uid, ...body }, token);
  expectStatus(res, 201);
  const { authData } = res.body[0];
  const uid = lastSegment(res.headers.get('location'));
  return { res, uid, ...authData };
}

const getItem = (uid: string, token = w.appOwner.token) => call(app, 'GET', `${C}/${uid}`, { token });
const searchCall = (method: string, query: string, token = w.appOwner.token, accept?: string) =>
  call(app, 'GET', `${S}/${method}?${query}`, { token, headers: accept ? { Accept: accept } : {} });
const auth = (action: string, uid?: string, token = w.appOwner.token) => authAnswer(app, token, action, 'APPLICATION_CREDENTIAL', uid);
const deleteByName = (body: unknown, token = w.appOwner.token) => call(app, 'DELETE', AUTH, { token, body });

/** What the database holds for a credential: the raw `secret` parsed, with every SCRAM verifier and other string found in it. */
async function stored(uid: string) {
  const row = await app.models.ApplicationCredential.findOne({ where: { uid } });
  expect(row, `credential ${uid} in the database`).toBeTruthy();
  const raw = row!.getDataValue('secret') as unknown;
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* a bare hash */ }
  const scram: any[] = [];
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if ('storedKey' in v && 'serverKey' in v) scram.push(v);
      else Object.values(v).forEach(walk);
    }
  };
  walk(parsed);
  return { row: row!, text, scram, strings, json: JSON.stringify(row!.toJSON()) };
}

/** Every audit row of the tenant, as stored. */
const auditRows = (where: Record<string, unknown> = {}) => auditOf(app, { tenantUid: t.tenant.uid, ...where });

const otherPassword = (p: string) => (p[0] === 'A' ? 'B' : 'A') + p.slice(1);

// ---------------------------------------------------------------------------------------------------------------

describe('POST /application_authentications', () => {
  it('KAFKA by default: 201, Location, [{authData:{username, password, provider, clusters}}]', async () => {
    const res = await post({ applicationId: w.application.uid, environmentId: w.managed.uid });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${app.api}/application_credentials/[0-9a-f]{32}$`));
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expect(Object.keys(res.body[0])).toEqual(['authData']);
    const { authData } = res.body[0];
    expect(Object.keys(authData).sort()).toEqual(['clusters', 'password', 'provider', 'username']);
    expect(authData.username).toMatch(/^ac_billing-acmanaged-[0-9a-f]{8}$/);
    expect(authData.password).toMatch(PASSWORD);
    expect(authData.provider).toBe('apache-kafka');
    expect(authData.clusters).toBe(CLUSTERS);

    const item = await call(app, 'GET', location, { token: w.appOwner.token });
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ username: authData.username, types: [{ type: 'SCRAM_SHA_512' }], metadata: { clusters: CLUSTERS } });
  });

  it('the same body works with any Accept (the reply stays the plain array)', async () => {
    const res = await post({ applicationId: w.application.uid, environmentId: w.managed.uid }, w.appOwner.token, { Accept: 'application/hal+json' });
    expect(res.status).toBe(201);
    expect(res.body[0].authData.provider).toBe('apache-kafka');
  });

  it('every call generates a new username and a new password', async () => {
    const all = [await made(), await made(), await made()];
    expect(new Set(all.map((m) => m.password)).size).toBe(3);
    expect(new Set(all.map((m) => m.username)).size).toBe(3);
    expect(new Set(all.map((m) => m.uid)).size).toBe(3);
    for (const m of all) expect(m.password).toMatch(PASSWORD);
  });

  it('the username uses the environment\'s short name; clusters are the same string in another environment of the instance', async () => {
    const m = await made({ environmentId: w.auto.uid });
    expect(m.username).toMatch(/^ac_billing-acauto-[0-9a-f]{8}$/);
    expect(m.clusters).toBe(CLUSTERS);
  });

  it('SCHEMA_REGISTRY: provider schema-registry, default type SCHEMA_REGISTRY_BASIC_AUTH', async () => {
    const m = await made({ target: 'SCHEMA_REGISTRY' });
    expect(m.provider).toBe('schema-registry');
    expect(m.password).toMatch(PASSWORD);
    expect(m.clusters).toBe(CLUSTERS);
    expect((await getItem(m.uid)).body.types).toEqual([{ type: 'SCHEMA_REGISTRY_BASIC_AUTH' }]);
  });

  it('target and type match as every enum does (case, "-", "_")', async () => {
    const m = await made({ target: 'schema-registry', type: 'schema registry oauth' });
    expect(m.provider).toBe('schema-registry');
    expect((await getItem(m.uid)).body.types).toEqual([{ type: 'SCHEMA_REGISTRY_OAUTH' }]);
  });

  it('explicit type and types', async () => {
    const one = await made({ target: 'KAFKA', type: 'SCRAM_SHA_256' });
    expect((await getItem(one.uid)).body.types).toEqual([{ type: 'SCRAM_SHA_256' }]);
    const two = await made({ types: [{ type: 'PLAIN' }, { type: 'SCRAM_SHA_512' }] });
    expect((await getItem(two.uid)).body.types).toEqual([{ type: 'PLAIN' }, { type: 'SCRAM_SHA_512' }]);
  });

  it('username and password in the request are ignored; a description is kept', async () => {
    const m = await made({ username: 'chosen', password: 'chosen-password-that-is-long-enough', description: 'for billing' });
    expect(m.username).toMatch(/^ac_billing-acmanaged-[0-9a-f]{8}$/);
    expect(m.password).not.toBe('chosen-password-that-is-long-enough');
    expect((await getItem(m.uid)).body.description).toBe('for billing');
  });

  it('an instance without clusters gives clusters ""', async () => {
    const bare = await adminPost('/instances', { name: 'ac Bare Instance', shortName: 'acbare' });
    const env = await adminPost('/environments', { name: 'ac-bare', shortName: 'acbare', instance: bare.uid, owners: w.streamTeam.uid });
    const m = await made({ environmentId: env.uid });
    expect(m.clusters).toBe('');
    expect((await getItem(m.uid)).body.metadata).toEqual({ clusters: '' });
  });

  it('a type not valid for the target → 400 naming the field; nothing stored, nothing audited', async () => {
    const before = await app.models.ApplicationCredential.count({ where: { tenantUid: t.tenant.uid } });
    const audits = (await auditRows()).length;
    const base = { applicationId: w.application.uid, environmentId: w.managed.uid };
    expectFieldErrors(await post({ ...base, target: 'KAFKA', type: 'SCHEMA_REGISTRY_BASIC_AUTH' }), ['type']);
    expectFieldErrors(await post({ ...base, type: 'SCHEMA_REGISTRY_OAUTH' }), ['type']);
    expectFieldErrors(await post({ ...base, target: 'SCHEMA_REGISTRY', type: 'SCRAM_SHA_512' }), ['type']);
    expectFieldErrors(await post({ ...base, target: 'SCHEMA_REGISTRY', types: [{ type: 'SCHEMA_REGISTRY_BASIC_AUTH' }, { type: 'PLAIN' }] }), ['types[1].type']);
    expectFieldErrors(await post({ ...base, type: 'MD5' }), ['type']);
    expectFieldErrors(await post({ ...base, target: 'ZOOKEEPER' }), ['target']);
    const res = await post({ ...base, target: 'KAFKA', type: 'SCHEMA_REGISTRY_BASIC_AUTH' });
    expect(res.body.errors[0]).toMatch(/^type: .*SCHEMA_REGISTRY_BASIC_AUTH/);
    expect(await app.models.ApplicationCredential.count({ where: { tenantUid: t.tenant.uid } })).toBe(before);
    expect((await auditRows()).length).toBe(audits);
  });

  it('unknown or empty applicationId / environmentId → 400 naming the field', async () => {
    const unknown = 'ffffffffffffffffffffffffffffffff';
    const a = await post({ applicationId: unknown, environmentId: w.managed.uid });
    expectFieldErrors(a, ['applicationId']);
    expect(a.body.errors).toEqual([`applicationId: unknown application ${unknown}`]);
    const e = await post({ applicationId: w.application.uid, environmentId: unknown });
    expectFieldErrors(e, ['environmentId']);
    expect(e.body.errors).toEqual([`environmentId: unknown environment ${unknown}`]);
    for (const value of ['', null, undefined]) {
      const ra = await post({ applicationId: value, environmentId: w.managed.uid });
      expectFieldErrors(ra, ['applicationId']);
      expect(ra.body.errors).toEqual(['applicationId: is required']);
      const re = await post({ applicationId: w.application.uid, environmentId: value });
      expectFieldErrors(re, ['environmentId']);
      expect(re.body.errors).toEqual(['environmentId: is required']);
    }
  });

  it('references may be URIs (any host, any collection segment)', async () => {
    const m = await made({ applicationId: `${app.api}/applications/${w.application.uid}`, environmentId: `https://elsewhere.example/api/streams/${w.managed.uid}` });
    expect(m.username).toMatch(/^ac_billing-acmanaged-/);
  });

  it('an invisible application or environment in the body → 400 unknown', async () => {
    expectFieldErrors(await post({ applicationId: hidden.uid, environmentId: w.managed.uid }), ['applicationId']);
    expectFieldErrors(await post({ applicationId: w.application.uid, environmentId: hiddenEnv.uid }), ['environmentId']);
  });

  it('not an editor of the application → 403 (environment owner, stranger, user without groups)', async () => {
    const body = { applicationId: w.application.uid, environmentId: w.managed.uid };
    expectError(await post(body, w.streamOwner.token), 403);
    expectError(await post(body, stranger.token), 403);
    expectError(await post(body, loner.token), 403);
  });

  it('APPLICATION_ADMIN and TENANT_ADMIN are editors of every application', async () => {
    expect((await made({}, appAdmin.token)).provider).toBe('apache-kafka');
    const m = await made({ applicationId: hidden.uid, environmentId: hiddenEnv.uid }, t.admin.token);
    expect(m.username).toMatch(/^ac_hidden-achidden-[0-9a-f]{8}$/);
  });
});

describe('the password is stored only as verifiers', () => {
  it('SCRAM_SHA_512: the raw row holds no password, a SCRAM-SHA-512 verifier that verifies it and refuses others', async () => {
    const m = await made();
    const other = await made();
    const s = await stored(m.uid);
    expect(s.text).not.toContain(m.password);
    expect(s.json).not.toContain(m.password);
    expect(s.scram).toHaveLength(1);
    const [v] = s.scram;
    expect(v.mechanism).toBe('SCRAM-SHA-512');
    expect(v.iterations).toBe(4096);
    expect(Buffer.from(v.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(v.storedKey, 'base64')).toHaveLength(64);
    expect(await verifyScram(m.password, v)).toBe(true);
    expect(await verifyScram(otherPassword(m.password), v)).toBe(false);
    expect(await verifyScram(other.password, v)).toBe(false);
    // Two credentials never share a salt.
    expect((await stored(other.uid)).scram[0].salt).not.toBe(v.salt);
  });

  it('SCRAM_SHA_256: a SCRAM-SHA-256 verifier', async () => {
    const m = await made({ type: 'SCRAM_SHA_256' });
    const s = await stored(m.uid);
    expect(s.text).not.toContain(m.password);
    expect(s.scram.map((v) => v.mechanism)).toEqual(['SCRAM-SHA-256']);
    expect(Buffer.from(s.scram[0].salt, 'base64')).toHaveLength(16);
    expect(s.scram[0].iterations).toBe(4096);
    expect(await verifyScram(m.password, s.scram[0])).toBe(true);
    expect(await verifyScram(otherPassword(m.password), s.scram[0])).toBe(false);
  });

  it('PLAIN and SCHEMA_REGISTRY_BASIC_AUTH: scrypt hashes that verify the password and refuse others', async () => {
    for (const body of [{ type: 'PLAIN' }, { target: 'SCHEMA_REGISTRY' }]) {
      const m = await made(body);
      const s = await stored(m.uid);
      expect(s.text).not.toContain(m.password);
      expect(s.scram).toEqual([]);
      const hashes = s.strings.filter((x) => x.startsWith('scrypt$'));
      expect(hashes).toHaveLength(1);
      expect(await verifySecret(m.password, hashes[0])).toBe(true);
      expect(await verifySecret(otherPassword(m.password), hashes[0])).toBe(false);
    }
  });

  it('several types: one verifier each, all for the same password', async () => {
    const m = await made({ types: [{ type: 'SCRAM_SHA_256' }, { type: 'SCRAM_SHA_512' }, { type: 'PLAIN' }] });
    const s = await stored(m.uid);
    expect(s.text).not.toContain(m.password);
    expect(s.scram.map((v) => v.mechanism).sort()).toEqual(['SCRAM-SHA-256', 'SCRAM-SHA-512']);
    for (const v of s.scram) expect(await verifyScram(m.password, v)).toBe(true);
    const hashes = s.strings.filter((x) => x.startsWith('scrypt$'));
    expect(hashes).toHaveLength(1);
    expect(await verifySecret(m.password, hashes[0])).toBe(true);
  });
});

describe('the password never appears again', () => {
  it('not in the item, the collection, any search, PATCH replies or audit rows', async () => {
    const m = await made({ description: 'leak check' });
    const sr = await made({ target: 'SCHEMA_REGISTRY', type: 'SCHEMA_REGISTRY_BASIC_AUTH' });
    const texts: string[] = [];
    const keep = (res: CallResult, status = 200) => { expectStatus(res, status); texts.push(res.text); return res; };
    const q = `applicationId=${w.application.uid}&environmentId=${w.managed.uid}`;
    for (const token of [w.appOwner.token, t.admin.token, appAdmin.token]) {
      keep(await getItem(m.uid, token));
      keep(await getItem(sr.uid, token));
      keep(await call(app, 'GET', `${C}?size=2000`, { token }));
      keep(await call(app, 'GET', `${C}/${m.uid}/application`, { token }));
      for (const accept of [undefined, 'application/hal+json']) {
        keep(await searchCall('findAllByApplicationIdAndEnvironmentId', q, token, accept));
        keep(await searchCall('findByApplicationIdAndEnvironmentId', q, token, accept));
        keep(await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${q}&type=SCRAM_SHA_512`, token, accept));
        keep(await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${q}&type=SCHEMA_REGISTRY_BASIC_AUTH`, token, accept));
        keep(await searchCall('findByApplicationId', `applicationId=${w.application.uid}&size=2000`, token, accept));
        keep(await searchCall('findByApplicationIdAndTypesType', `applicationId=${w.application.uid}&type=SCRAM_SHA_512&size=2000`, token, accept));
      }
    }
    keep(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: 'patched' } }));
    keep(await call(app, 'PATCH', `${C}/${sr.uid}`, { token: w.appOwner.token, body: { description: null } }));
    for (const text of texts) {
      expect(text).not.toContain(m.password);
      expect(text).not.toContain(sr.password);
    }
    // The searches did find them (the checks above are not vacuous).
    expect(texts.some((x) => x.includes(m.username))).toBe(true);
    expect(texts.some((x) => x.includes(sr.username))).toBe(true);

    const rows = await auditRows();
    const dump = JSON.stringify(rows.map((r) => r.toJSON()));
    expect(dump).toContain(m.uid);
    expect(dump).not.toContain(m.password);
    expect(dump).not.toContain(sr.password);
    const raw = await app.models.sequelize.query('SELECT details FROM audit_events WHERE tenant_uid = :tenant', { replacements: { tenant: t.tenant.uid }, type: 'SELECT' }) as any[];
    expect(raw.length).toBeGreaterThan(0);
    for (const r of raw) {
      expect(String(r.details ?? '')).not.toContain(m.password);
      expect(String(r.details ?? '')).not.toContain(sr.password);
    }
  });

  it('no reply field is named like a secret', async () => {
    const m = await made();
    const item = (await getItem(m.uid)).body;
    expect(Object.keys(item)).not.toContain('password');
    expect(Object.keys(item)).not.toContain('secret');
    const [found] = (await searchCall('findByApplicationIdAndEnvironmentId', `applicationId=${w.application.uid}&environmentId=${w.managed.uid}&size=2000`))
      .body.filter((c: any) => c.uid === m.uid);
    expect(Object.keys(found)).not.toContain('password');
    expect(Object.keys(found)).not.toContain('secret');
  });
});

describe('collection and item', () => {
  let m: Made;
  beforeAll(async () => { m = await made({ description: 'item check' }); });

  it('GET /application_credentials is HAL with _embedded.application_credentials and page', async () => {
    const res = await call(app, 'GET', `${C}?size=2000`, { token: w.appOwner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    const list = res.body._embedded.application_credentials as any[];
    const mine = list.find((c) => c.uid === m.uid);
    expect(mine).toMatchObject({ id: m.uid, uid: m.uid, username: m.username, metadata: { clusters: CLUSTERS } });
    expect(mine._links.self.href).toBe(`${app.api}${C}/${m.uid}`);
    expect(res.body.page).toMatchObject({ size: 2000, number: 0, totalElements: list.length });
    expect(res.body._links.self.href).toContain(`${app.api}${C}`);
    for (const c of list) expect(c.id).toBe(c.uid);
  });

  it('GET item: id, application and environment summaries, username, types, description, metadata.clusters, common fields', async () => {
    const res = await getItem(m.uid);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    const b = res.body;
    expect(b.id).toBe(m.uid);
    expect(b.uid).toBe(m.uid);
    expect(b.application).toEqual({ id: w.application.uid, uid: w.application.uid, name: w.application.name, shortName: w.application.shortName });
    expect(b.environment).toEqual({ id: w.managed.uid, uid: w.managed.uid, name: w.managed.name, shortName: w.managed.shortName });
    expect(b.username).toBe(m.username);
    expect(b.types).toEqual([{ type: 'SCRAM_SHA_512' }]);
    expect(b.description).toBe('item check');
    expect(b.metadata).toEqual({ clusters: CLUSTERS });
    expect(b.created_at).toMatch(TS);
    expect(b.modified_at).toMatch(TS);
    expect(b.created_by).toBe(w.appOwner.email);
    expect(b.modified_by).toBe(w.appOwner.email);
    expect(b._links.self.href).toBe(m.res.headers.get('location'));
    expect(b._links.application.href).toBe(`${b._links.self.href}/application`);
    expect(b._links.environment.href).toBe(`${b._links.self.href}/environment`);
    expect(b._embedded.application).toMatchObject({ uid: w.application.uid, shortName: w.application.shortName });
    expect(b._embedded.environment).toMatchObject({ uid: w.managed.uid, shortName: w.managed.shortName });
    expect(b._links.edit.href).toBe(b._links.self.href);
    expect(b._links.delete.href).toBe(b._links.self.href);
  });

  it('a description defaults to null', async () => {
    const plain = await made();
    expect((await getItem(plain.uid)).body.description).toBeNull();
  });

  it('the application and environment associations', async () => {
    const a = await call(app, 'GET', `${C}/${m.uid}/application`, { token: w.appOwner.token });
    expect(a.status).toBe(200);
    expect(a.body.uid).toBe(w.application.uid);
    const e = await call(app, 'GET', `${C}/${m.uid}/environment`, { token: w.appOwner.token });
    expect(e.status).toBe(200);
    expect(e.body.uid).toBe(w.managed.uid);
  });

  it('an unknown id → 404', async () => {
    expectError(await getItem('ffffffffffffffffffffffffffffffff'), 404);
  });

  it('sort over scalar fields; bad sort → 400', async () => {
    const res = await call(app, 'GET', `${C}?size=2000&sort=username,desc`, { token: w.appOwner.token });
    expect(res.status).toBe(200);
    const names = res.body._embedded.application_credentials.map((c: any) => c.username);
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort().reverse());
    expectError(await call(app, 'GET', `${C}?sort=password`, { token: w.appOwner.token }), 400);
    expectError(await call(app, 'GET', `${C}?sort=secret`, { token: w.appOwner.token }), 400);
  });

  it('ETag and If-Match on the item', async () => {
    const res = await getItem(m.uid);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"\d+"$/);
    expect((await call(app, 'GET', `${C}/${m.uid}`, { token: w.appOwner.token, headers: { 'If-None-Match': etag! } })).status).toBe(304);
    expectError(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, headers: { 'If-Match': '"999"' }, body: { description: 'stale' } }), 412);
    const ok = await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, headers: { 'If-Match': etag! }, body: { description: 'fresh' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('etag')).not.toBe(etag);
  });

  it('unlisted verbs → 405 with Allow', async () => {
    const postColl = await call(app, 'POST', C, { token: w.appOwner.token, body: { applicationId: w.application.uid, environmentId: w.managed.uid } });
    expectError(postColl, 405);
    expect(postColl.headers.get('allow')).toMatch(/GET/);
    expectError(await call(app, 'PUT', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: 'put' } }), 405);
    expectError(await call(app, 'GET', AUTH, { token: w.appOwner.token }), 405);
  });

  it('the search index lists the five searches', async () => {
    const res = await call(app, 'GET', S, { token: w.appOwner.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body._links).sort()).toEqual([
      'findAllByApplicationIdAndEnvironmentId', 'findAllByApplicationIdAndEnvironmentIdAndTypesType', 'findByApplicationId',
      'findByApplicationIdAndEnvironmentId', 'findByApplicationIdAndTypesType', 'self',
    ]);
  });
});

describe('PATCH', () => {
  it('{description} → 200 HAL item + an UPDATED audit row on the application', async () => {
    const m = await made();
    const res = await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: 'rotated monthly' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(res.body).toMatchObject({ id: m.uid, username: m.username, description: 'rotated monthly', types: [{ type: 'SCRAM_SHA_512' }], metadata: { clusters: CLUSTERS } });
    expect(res.text).not.toContain(m.password);
    expect((await getItem(m.uid)).body.description).toBe('rotated monthly');

    const rows = (await auditRows({ action: 'UPDATED', resourceId: w.application.uid })).filter((r) => (r.details as any)?.credential === m.uid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ resourceType: 'Application', resourceName: w.application.shortName, actor: w.appOwner.email });
    expect(rows[0].details).toMatchObject({ credential: m.uid, username: m.username, environment: w.managed.shortName });
    expect(JSON.stringify(rows[0].details)).toContain('rotated monthly');
    expect(JSON.stringify(rows[0].details)).not.toContain(m.password);
  });

  it('null clears the description; read-only fields are ignored; the secret is untouched', async () => {
    const m = await made({ description: 'x' });
    const before = (await stored(m.uid)).text;
    const res = await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: null, username: 'hijack', types: [{ type: 'PLAIN' }], password: 'p' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ description: null, username: m.username, types: [{ type: 'SCRAM_SHA_512' }] });
    const after = await stored(m.uid);
    expect(after.text).toBe(before);
    expect(await verifyScram(m.password, after.scram[0])).toBe(true);
  });

  it('a description over 255 characters → 400 naming it (PATCH and POST)', async () => {
    const m = await made();
    expectFieldErrors(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: 'x'.repeat(256) } }), ['description']);
    expectFieldErrors(await post({ applicationId: w.application.uid, environmentId: w.managed.uid, description: 'x'.repeat(256) }), ['description']);
    expect((await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { description: 'x'.repeat(255) } })).status).toBe(200);
  });

  it('moving it to another application or environment → 422 (immutable); the same ones are fine', async () => {
    const m = await made();
    const other = await freshApp();
    expectError(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { application: other.uid } }), 422);
    expectError(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { environment: w.auto.uid } }), 422);
    const same = await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.appOwner.token, body: { application: w.application.uid, environment: w.managed.uid } });
    expect(same.status, same.text).toBe(200);
    expect(same.body.environment.uid).toBe(w.managed.uid);
  });

  it('environment owners and strangers do not see it (404); APPLICATION_ADMIN may edit', async () => {
    const m = await made();
    expectError(await call(app, 'PATCH', `${C}/${m.uid}`, { token: w.streamOwner.token, body: { description: 'no' } }), 404);
    expectError(await call(app, 'PATCH', `${C}/${m.uid}`, { token: stranger.token, body: { description: 'no' } }), 404);
    expect((await call(app, 'PATCH', `${C}/${m.uid}`, { token: appAdmin.token, body: { description: 'admin' } })).status).toBe(200);
  });
});

describe('DELETE', () => {
  it('DELETE item → 204 + AUTHENTICATION_UNCONFIGURED; then 404', async () => {
    const m = await made();
    expectError(await call(app, 'DELETE', `${C}/${m.uid}`, { token: w.streamOwner.token }), 404);
    expectError(await call(app, 'DELETE', `${C}/${m.uid}`, { token: stranger.token }), 404);
    const res = await call(app, 'DELETE', `${C}/${m.uid}`, { token: w.appOwner.token });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expectError(await getItem(m.uid), 404);
    expectError(await call(app, 'DELETE', `${C}/${m.uid}`, { token: w.appOwner.token }), 404);
    expect(await app.models.ApplicationCredential.count({ where: { uid: m.uid } })).toBe(0);

    const rows = (await auditRows({ action: 'AUTHENTICATION_UNCONFIGURED' })).filter((r) => (r.details as any)?.credential === m.uid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ resourceType: 'Application', resourceId: w.application.uid, resourceName: w.application.shortName });
    expect(rows[0].details).toMatchObject({ credential: m.uid, username: m.username, environment: w.managed.shortName });
  });

  it('DELETE /application_authentications by username → 204; again → 404', async () => {
    const m = await made();
    const body = { applicationId: w.application.uid, environmentId: w.managed.uid, target: 'KAFKA', configs: { username: m.username } };
    const res = await deleteByName(body);
    expect(res.status, res.text).toBe(204);
    expectError(await getItem(m.uid), 404);
    expectError(await deleteByName(body), 404);
    const rows = (await auditRows({ action: 'AUTHENTICATION_UNCONFIGURED' })).filter((r) => (r.details as any)?.credential === m.uid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ resourceType: 'Application', resourceId: w.application.uid });
    expect(rows[0].details).toMatchObject({ username: m.username, environment: w.managed.shortName });
  });

  it('without target; with a SCHEMA_REGISTRY target for a registry credential', async () => {
    const k = await made();
    expect((await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, configs: { username: k.username } })).status).toBe(204);
    const sr = await made({ target: 'SCHEMA_REGISTRY' });
    expect((await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, target: 'SCHEMA_REGISTRY', configs: { username: sr.username } })).status).toBe(204);
  });

  it.each([['KAFKA', 'kafka'], ['SCHEMA_REGISTRY', 'schema-registry'], ['SCHEMA_REGISTRY', 'Schema Registry']])(
    'target matches as every enum does (§4.3): a %s credential deleted with target "%s" → 204', async (target, sent) => {
      const m = await made({ target });
      const res = await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, target: sent, configs: { username: m.username } });
      expect(res.status, res.text).toBe(204);
      expectError(await getItem(m.uid), 404);
    });

  it('an unknown target → 400 naming it (unknown enum, §2); the credential stays', async () => {
    const m = await made();
    const res = await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, target: 'ZOOKEEPER', configs: { username: m.username } });
    expectFieldErrors(res, ['target']);
    expect((await getItem(m.uid)).status).toBe(200);
  });

  it('wrong target, wrong environment, wrong application, unknown username → 404 and the credential stays', async () => {
    const m = await made();
    const base = { applicationId: w.application.uid, environmentId: w.managed.uid, target: 'KAFKA', configs: { username: m.username } };
    expectError(await deleteByName({ ...base, target: 'SCHEMA_REGISTRY' }), 404);
    expectError(await deleteByName({ ...base, environmentId: w.auto.uid }), 404);
    const other = await freshApp();
    expectError(await deleteByName({ ...base, applicationId: other.uid }), 404);
    expectError(await deleteByName({ ...base, configs: { username: `${m.username}x` } }), 404);
    expect((await getItem(m.uid)).status).toBe(200);
  });

  it('missing username → 400; unknown application → 400; not an editor → 403', async () => {
    const m = await made();
    const base = { applicationId: w.application.uid, environmentId: w.managed.uid, target: 'KAFKA', configs: { username: m.username } };
    expectFieldErrors(await deleteByName({ ...base, configs: {} }), ['configs.username']);
    expectFieldErrors(await deleteByName({ ...base, configs: { username: '' } }), ['configs.username']);
    expectFieldErrors(await deleteByName({ ...base, configs: null }), ['configs']);
    const { configs: _dropped, ...withoutConfigs } = base;
    expectFieldErrors(await deleteByName(withoutConfigs), ['configs']);
    expectFieldErrors(await deleteByName({ ...base, applicationId: 'ffffffffffffffffffffffffffffffff' }), ['applicationId']);
    expectError(await deleteByName(base, w.streamOwner.token), 403);
    expectError(await deleteByName(base, stranger.token), 403);
    expect((await getItem(m.uid)).status).toBe(200);
  });
});

describe('searches', () => {
  let application: any;
  let env: any;
  /** In `env`: SCRAM_SHA_512 (default), SCRAM_SHA_256, SCHEMA_REGISTRY_BASIC_AUTH; in `w.auto`: SCRAM_SHA_512. */
  let made4: Made[];
  const byApp = () => `applicationId=${application.uid}`;
  const byAppEnv = () => `applicationId=${application.uid}&environmentId=${env.uid}`;
  const uids = (res: CallResult) => (res.body as any[]).map((c) => c.uid).sort();

  beforeAll(async () => {
    application = await freshApp();
    env = await freshEnv();
    made4 = [
      await made({ applicationId: application.uid, environmentId: env.uid }),
      await made({ applicationId: application.uid, environmentId: env.uid, type: 'SCRAM_SHA_256' }),
      await made({ applicationId: application.uid, environmentId: env.uid, target: 'SCHEMA_REGISTRY' }),
      await made({ applicationId: application.uid, environmentId: w.auto.uid }),
    ];
  });

  function expectPlainArray(res: CallResult) {
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(res.body)).toBe(true);
    for (const c of res.body) {
      expect(c).not.toHaveProperty('_links');
      expect(c).not.toHaveProperty('_embedded');
      expect(c.id).toBe(c.uid);
    }
  }

  it('findAllByApplicationIdAndEnvironmentId: a plain array of the objects, whatever the Accept', async () => {
    for (const accept of [undefined, 'application/json', 'application/hal+json', 'application/x-spring-data-compact+json', '*/*']) {
      const res = await searchCall('findAllByApplicationIdAndEnvironmentId', byAppEnv(), w.appOwner.token, accept);
      expectPlainArray(res);
      expect(uids(res)).toEqual(made4.slice(0, 3).map((m) => m.uid).sort());
    }
    const res = await searchCall('findAllByApplicationIdAndEnvironmentId', byAppEnv());
    const first = (res.body as any[]).find((c) => c.uid === made4[0].uid);
    expect(first).toMatchObject({
      id: made4[0].uid, uid: made4[0].uid, username: made4[0].username, types: [{ type: 'SCRAM_SHA_512' }], description: null, metadata: { clusters: CLUSTERS },
      application: { id: application.uid, uid: application.uid, name: application.name, shortName: application.shortName },
      environment: { id: env.uid, uid: env.uid, name: env.name, shortName: env.shortName },
    });
    expect(first.created_at).toMatch(TS);
  });

  it('the alias findByApplicationIdAndEnvironmentId, with values as url.QueryEscape sends them (uids and URIs)', async () => {
    const expected = made4.slice(0, 3).map((m) => m.uid).sort();
    for (const [a, e] of [
      [application.uid, env.uid],
      [`${app.api}/applications/${application.uid}`, `${app.api}/environments/${env.uid}`],
    ]) {
      for (const accept of [undefined, 'application/hal+json']) {
        const res = await searchCall('findByApplicationIdAndEnvironmentId', `applicationId=${queryEscape(a)}&environmentId=${queryEscape(e)}`, w.appOwner.token, accept);
        expectPlainArray(res);
        expect(uids(res)).toEqual(expected);
      }
    }
    const none = await searchCall('findByApplicationIdAndEnvironmentId', `applicationId=${application.uid}&environmentId=${w.managed.uid}`);
    expectPlainArray(none);
    expect(none.body).toEqual([]);
  });

  it('findAllByApplicationIdAndEnvironmentIdAndTypesType: type required', async () => {
    const res = await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${byAppEnv()}&type=SCRAM_SHA_256`, w.appOwner.token, 'application/hal+json');
    expectPlainArray(res);
    expect(uids(res)).toEqual([made4[1].uid]);
    const sr = await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${byAppEnv()}&type=SCHEMA_REGISTRY_BASIC_AUTH`);
    expect(uids(sr)).toEqual([made4[2].uid]);
    const none = await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${byAppEnv()}&type=PLAIN`);
    expectPlainArray(none);
    expect(none.body).toEqual([]);
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', byAppEnv()), 400);
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${byAppEnv()}&type=`), 400);
  });

  it('findByApplicationId: every environment; type optional', async () => {
    const all = await searchCall('findByApplicationId', byApp(), w.appOwner.token, 'application/hal+json');
    expectPlainArray(all);
    expect(uids(all)).toEqual(made4.map((m) => m.uid).sort());
    const scram = await searchCall('findByApplicationId', `${byApp()}&type=SCRAM_SHA_512`);
    expectPlainArray(scram);
    expect(uids(scram)).toEqual([made4[0].uid, made4[3].uid].sort());
  });

  it.each(['scram_sha_512', 'scram-sha-512', 'Scram Sha 512'])('type matches as every enum does (§4.3): type=%s', async (type) => {
    const expected = [made4[0].uid, made4[3].uid].sort();
    const res = await searchCall('findByApplicationIdAndTypesType', `${byApp()}&type=${encodeURIComponent(type)}`);
    expectPlainArray(res);
    expect(uids(res), type).toEqual(expected);
    const opt = await searchCall('findByApplicationId', `${byApp()}&type=${encodeURIComponent(type)}`);
    expect(uids(opt), type).toEqual(expected);
    const env1 = await searchCall('findAllByApplicationIdAndEnvironmentIdAndTypesType', `${byAppEnv()}&type=${encodeURIComponent(type)}`);
    expect(uids(env1), type).toEqual([made4[0].uid]);
  });

  it('an unknown type → 400 naming it (unknown enum, §2)', async () => {
    for (const method of ['findByApplicationIdAndTypesType', 'findByApplicationId', 'findAllByApplicationIdAndEnvironmentIdAndTypesType']) {
      const res = await searchCall(method, `${byAppEnv()}&type=MD5`);
      expect(res.status, `${method}: ${res.text}`).toBe(400);
      expect(res.body.errors[0], method).toMatch(/^type: /);
    }
  });

  it('findByApplicationIdAndTypesType: type required', async () => {
    const res = await searchCall('findByApplicationIdAndTypesType', `${byApp()}&type=SCRAM_SHA_512`, w.appOwner.token, 'application/hal+json');
    expectPlainArray(res);
    expect(uids(res)).toEqual([made4[0].uid, made4[3].uid].sort());
    const sr = await searchCall('findByApplicationIdAndTypesType', `${byApp()}&type=SCHEMA_REGISTRY_BASIC_AUTH`);
    expect(uids(sr)).toEqual([made4[2].uid]);
    expectError(await searchCall('findByApplicationIdAndTypesType', byApp()), 400);
  });

  it('page and size slice the array', async () => {
    const full = (await searchCall('findByApplicationId', byApp())).body.map((c: any) => c.uid);
    expect(full).toHaveLength(4);
    const page = async (p: number, size: number) => (await searchCall('findByApplicationId', `${byApp()}&page=${p}&size=${size}`)).body.map((c: any) => c.uid);
    expect(await page(0, 2)).toEqual(full.slice(0, 2));
    expect(await page(1, 2)).toEqual(full.slice(2, 4));
    expect(await page(2, 2)).toEqual([]);
    expect(await page(1, 3)).toEqual(full.slice(3));
    expect(await page(0, 1)).toEqual(full.slice(0, 1));
    const envPage = await searchCall('findAllByApplicationIdAndEnvironmentId', `${byAppEnv()}&page=1&size=2`);
    expectPlainArray(envPage);
    expect(envPage.body).toHaveLength(1);
    expectError(await searchCall('findByApplicationId', `${byApp()}&size=0`), 400);
    expectError(await searchCall('findByApplicationId', `${byApp()}&page=-1`), 400);
  });

  it('missing applicationId / environmentId → 400; unknown ones → 404', async () => {
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentId', `environmentId=${env.uid}`), 400);
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentId', `applicationId=${application.uid}`), 400);
    expectError(await searchCall('findByApplicationIdAndEnvironmentId', `applicationId=&environmentId=${env.uid}`), 400);
    expectError(await searchCall('findByApplicationId', ''), 400);
    const unknown = 'ffffffffffffffffffffffffffffffff';
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentId', `applicationId=${unknown}&environmentId=${env.uid}`), 404);
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentId', `applicationId=${application.uid}&environmentId=${unknown}`), 404);
    expectError(await searchCall('findByApplicationId', `applicationId=${unknown}`), 404);
  });

  it('an invisible application → 404 in every search', async () => {
    const hq = `applicationId=${hidden.uid}&environmentId=${hiddenEnv.uid}&type=SCRAM_SHA_512`;
    for (const method of ['findAllByApplicationIdAndEnvironmentId', 'findByApplicationIdAndEnvironmentId', 'findAllByApplicationIdAndEnvironmentIdAndTypesType', 'findByApplicationId', 'findByApplicationIdAndTypesType']) {
      for (const token of [w.appOwner.token, w.streamOwner.token, stranger.token]) {
        expectError(await searchCall(method, hq, token), 404);
        expectError(await searchCall(method, hq, token, 'application/hal+json'), 404);
      }
    }
    // The tenant admin sees it (the 404 above is about visibility, not a missing row).
    expectPlainArray(await searchCall('findByApplicationId', `applicationId=${hidden.uid}`, t.admin.token));
  });

  it('a visible application the caller does not edit → 403 in every search (environment owner, stranger)', async () => {
    const q = `${byAppEnv()}&type=SCRAM_SHA_512`;
    for (const method of ['findAllByApplicationIdAndEnvironmentId', 'findByApplicationIdAndEnvironmentId', 'findAllByApplicationIdAndEnvironmentIdAndTypesType', 'findByApplicationId', 'findByApplicationIdAndTypesType']) {
      expectError(await searchCall(method, q, w.streamOwner.token), 403);
      expectError(await searchCall(method, q, stranger.token), 403);
    }
  });

  it('APPLICATION_ADMIN and TENANT_ADMIN search every application', async () => {
    for (const token of [appAdmin.token, t.admin.token]) {
      const res = await searchCall('findByApplicationId', byApp(), token);
      expectPlainArray(res);
      expect(uids(res)).toEqual(made4.map((m) => m.uid).sort());
    }
  });
});

describe('who sees what', () => {
  let m: Made;
  let hiddenCredential: Made;
  beforeAll(async () => {
    m = await made();
    hiddenCredential = await made({ applicationId: hidden.uid, environmentId: hiddenEnv.uid }, t.admin.token);
  });

  it('environment owners do not see credentials in their environments (404 item, absent from the collection)', async () => {
    expectError(await getItem(m.uid, w.streamOwner.token), 404);
    expectError(await call(app, 'GET', `${C}/${m.uid}/application`, { token: w.streamOwner.token }), 404);
    const list = await call(app, 'GET', `${C}?size=2000`, { token: w.streamOwner.token });
    expect(list.status).toBe(200);
    expect(list.body._embedded.application_credentials).toEqual([]);
    expect(list.body.page.totalElements).toBe(0);
  });

  it('strangers see none; app owners see only their applications\' ones; admins see all', async () => {
    expectError(await getItem(m.uid, stranger.token), 404);
    expect((await call(app, 'GET', `${C}?size=2000`, { token: stranger.token })).body._embedded.application_credentials).toEqual([]);
    expectError(await getItem(hiddenCredential.uid, w.appOwner.token), 404);
    const owned = (await call(app, 'GET', `${C}?size=2000`, { token: w.appOwner.token })).body._embedded.application_credentials.map((c: any) => c.uid);
    expect(owned).toContain(m.uid);
    expect(owned).not.toContain(hiddenCredential.uid);
    for (const token of [appAdmin.token, t.admin.token]) {
      expect((await getItem(hiddenCredential.uid, token)).status).toBe(200);
      const all = (await call(app, 'GET', `${C}?size=2000`, { token })).body._embedded.application_credentials.map((c: any) => c.uid);
      expect(all).toEqual(expect.arrayContaining([m.uid, hiddenCredential.uid]));
    }
  });

  it('a viewer of a Private application sees the application, not its credentials: searches 403, item 404, POST 403', async () => {
    const strangers = (await call(app, 'GET', `/groups/search/findByName?name=${encodeURIComponent('ac Strangers')}`, { token: t.admin.token })).body;
    const strangersUid = strangers.uid ?? strangers._embedded?.groups?.[0]?.uid;
    expect(strangersUid).toMatch(UID);
    const viewed = (await call(app, 'POST', '/applications', {
      token: w.appOwner.token,
      body: { applicationId: 'io.ac.viewed', name: 'ac Viewed', shortName: 'ac_viewed', applicationType: 'Custom', type: 'Java', owners: w.appTeam.uid, visibility: 'Private', viewers: [strangersUid] },
    })).body;
    expect((await call(app, 'GET', `/applications/${viewed.uid}`, { token: stranger.token })).status).toBe(200);
    expectError(await call(app, 'GET', `/applications/${viewed.uid}`, { token: w.streamOwner.token }), 404);
    const c = await made({ applicationId: viewed.uid });
    expectError(await searchCall('findByApplicationId', `applicationId=${viewed.uid}`, stranger.token), 403);
    expectError(await searchCall('findByApplicationId', `applicationId=${viewed.uid}`, w.streamOwner.token), 404);
    expectError(await getItem(c.uid, stranger.token), 404);
    expectError(await post({ applicationId: viewed.uid, environmentId: w.managed.uid }, stranger.token), 403);
    expectError(await auth('APPLICATION_CREDENTIAL_CREATE', viewed.uid, stranger.token), 403);
  });

  it('another tenant sees nothing (even its admin): item 404, searches 404, POST and DELETE 400', async () => {
    const other = await createTenant(app, 'cred2');
    const token = other.admin.token;
    expectError(await getItem(m.uid, token), 404);
    expect((await call(app, 'GET', `${C}?size=2000`, { token })).body._embedded.application_credentials).toEqual([]);
    expectError(await searchCall('findByApplicationId', `applicationId=${w.application.uid}`, token), 404);
    expectError(await searchCall('findAllByApplicationIdAndEnvironmentId', `applicationId=${w.application.uid}&environmentId=${w.managed.uid}`, token), 404);
    expectFieldErrors(await post({ applicationId: w.application.uid, environmentId: w.managed.uid }, token), ['applicationId']);
    expectFieldErrors(await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, configs: { username: m.username } }, token), ['applicationId']);
    expectError(await call(app, 'DELETE', `${C}/${m.uid}`, { token }), 404);
    expect((await getItem(m.uid)).status).toBe(200);
  });

  it('GET /auth APPLICATION_CREDENTIAL_VIEW/EDIT/DELETE agree with the rules and the links', async () => {
    for (const [who, token] of [['appOwner', w.appOwner.token], ['appAdmin', appAdmin.token], ['admin', t.admin.token]] as const) {
      const item = await getItem(m.uid, token);
      expect(item.status, who).toBe(200);
      for (const [verb, link] of [['VIEW', 'self'], ['EDIT', 'edit'], ['DELETE', 'delete']]) {
        const res = await auth(`APPLICATION_CREDENTIAL_${verb}`, m.uid, token);
        expect(res.status, `${who} ${verb}: ${res.text}`).toBe(200);
        expect(item.body._links[link], `${who} ${link}`).toBeTruthy();
      }
    }
    for (const token of [w.streamOwner.token, stranger.token, loner.token]) {
      for (const verb of ['VIEW', 'EDIT', 'DELETE']) expectError(await auth(`APPLICATION_CREDENTIAL_${verb}`, m.uid, token), 404);
    }
    expectError(await auth('APPLICATION_CREDENTIAL_VIEW', hiddenCredential.uid, w.appOwner.token), 404);
    expect((await auth('APPLICATION_CREDENTIAL_EDIT', hiddenCredential.uid, appAdmin.token)).status).toBe(200);
    expectError(await auth('APPLICATION_CREDENTIAL_EDIT'), 400);
  });

  it('GET /auth APPLICATION_CREDENTIAL_CREATE: with the application as parent it answers as POST does', async () => {
    const body = { applicationId: w.application.uid, environmentId: w.managed.uid };
    const cases: Array<[string, TestUser | { token: string }, number]> = [
      ['appOwner', w.appOwner, 200], ['appAdmin', appAdmin, 200], ['admin', t.admin, 200], ['streamOwner', w.streamOwner, 403], ['stranger', stranger, 403], ['loner', loner, 403],
    ];
    for (const [who, user, status] of cases) {
      const res = await auth('APPLICATION_CREDENTIAL_CREATE', w.application.uid, user.token);
      expect(res.status, `${who}: ${res.text}`).toBe(status);
      const created = await post(body, user.token);
      expect(created.status, `${who} POST: ${created.text}`).toBe(status === 200 ? 201 : 403);
    }
    // Invisible parent → 404; visible to its editors.
    expectError(await auth('APPLICATION_CREDENTIAL_CREATE', hidden.uid, w.appOwner.token), 404);
    expect((await auth('APPLICATION_CREDENTIAL_CREATE', hidden.uid, t.admin.token)).status).toBe(200);
    // Without a parent: whoever could edit some application (an author or a member of any group).
    expect((await auth('APPLICATION_CREDENTIAL_CREATE', undefined, w.appOwner.token)).status).toBe(200);
    expectError(await auth('APPLICATION_CREDENTIAL_CREATE', undefined, loner.token), 403);
  });
});

describe('audit', () => {
  it('AUTHENTICATION_CONFIGURED on the Application: credential uid, username, environment; no password', async () => {
    const m = await made({ description: 'audited' });
    const rows = (await auditRows({ action: 'AUTHENTICATION_CONFIGURED', resourceId: w.application.uid })).filter((r) => (r.details as any)?.credential === m.uid);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ resourceType: 'Application', resourceName: w.application.shortName, actor: w.appOwner.email, tenant: t.shortName });
    expect(row.details).toMatchObject({ credential: m.uid, username: m.username, environment: w.managed.shortName });
    const dump = JSON.stringify(row.toJSON());
    expect(dump).not.toContain(m.password);
    const pw = (row.details as any).password;
    expect(pw === undefined || pw === '***').toBe(true);

    // (GET /audit-history has no route in this release yet: the rows are read from the model.)
  });

  it('refused calls write nothing', async () => {
    const before = (await auditRows()).length;
    await post({ applicationId: w.application.uid, environmentId: w.managed.uid }, w.streamOwner.token);
    await post({ applicationId: w.application.uid, environmentId: w.managed.uid, type: 'PLAIN', target: 'SCHEMA_REGISTRY' });
    await deleteByName({ applicationId: w.application.uid, environmentId: w.managed.uid, configs: { username: 'nobody' } });
    await searchCall('findByApplicationId', `applicationId=${w.application.uid}`);
    expect((await auditRows()).length).toBe(before);
  });
});

describe('delete blockers', () => {
  it('deleting an environment holding a credential → 422; once it is gone → 204', async () => {
    const env = await freshEnv();
    const m = await made({ environmentId: env.uid });
    const res = await call(app, 'DELETE', `/environments/${env.uid}`, { token: t.admin.token });
    expectError(res, 422);
    expect(res.body.errors.join(' ')).toMatch(/credential/i);
    expect((await call(app, 'GET', `/environments/${env.uid}`, { token: t.admin.token })).status).toBe(200);
    expect((await call(app, 'DELETE', `${C}/${m.uid}`, { token: w.appOwner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/environments/${env.uid}`, { token: t.admin.token })).status).toBe(204);
  });

  it('deleting an application holding a credential → 422; once it is gone → 204', async () => {
    const a = await freshApp();
    const m = await made({ applicationId: a.uid, environmentId: w.auto.uid });
    const res = await call(app, 'DELETE', `/applications/${a.uid}`, { token: w.appOwner.token });
    expectError(res, 422);
    expect(res.body.errors.join(' ')).toMatch(/credential/i);
    expect((await getItem(m.uid)).status).toBe(200);
    expect((await deleteByName({ applicationId: a.uid, environmentId: w.auto.uid, target: 'KAFKA', configs: { username: m.username } })).status).toBe(204);
    expect((await call(app, 'DELETE', `/applications/${a.uid}`, { token: w.appOwner.token })).status).toBe(204);
  });
});

describe('the Terraform provider (axual-webclient/application_credential.go, resource_application_credential.go)', () => {
  let application: any;
  let env: any;
  const tf = (method: string, path: string, body?: unknown) => terraformCall(app, t.shortName, w.appOwner.token, method, path, body);
  /** FindApplicationCredentialByApplicationAndEnvironment. */
  const find = (a: string, e: string) => tf('GET', `${S}/findByApplicationIdAndEnvironmentId?applicationId=${queryEscape(a)}&environmentId=${queryEscape(e)}`);
  /** deriveTargetFromTypes. */
  const deriveTarget = (types: Array<{ type: string }>) => (types.length === 0 || types.some((x) => x.type !== 'SCHEMA_REGISTRY_BASIC_AUTH') ? 'KAFKA' : 'SCHEMA_REGISTRY');

  beforeAll(async () => {
    application = await freshApp();
    env = await freshEnv();
  });

  for (const target of ['KAFKA', 'SCHEMA_REGISTRY'] as const) {
    it(`${target}: Create, the follow-up find by username, import read, Read, Delete`, async () => {
      // CreateApplicationCredential: json.Marshal(ApplicationCredentialCreateRequest) → ApplicationCredentialResponseList; responseList[0].
      const created = await tf('POST', AUTH, { applicationId: application.uid, environmentId: env.uid, target });
      expect(created.status, created.text).toBe(201);
      expect(Array.isArray(created.body)).toBe(true);
      const { authData } = created.body[0];
      expect(typeof authData.username).toBe('string');
      expect(authData.password).toMatch(PASSWORD);
      expect(authData.provider).toBe(target === 'KAFKA' ? 'apache-kafka' : 'schema-registry');
      expect(authData.clusters).toBe(CLUSTERS);

      // Create, then: find by application+environment and match the username to learn the id, description and types.
      const found = await find(application.uid, env.uid);
      expect(found.status, found.text).toBe(200);
      expect(Array.isArray(found.body)).toBe(true);
      const cred = (found.body as any[]).find((c) => c.username === authData.username);
      expect(cred, 'the created credential among the search results').toBeTruthy();
      expect(cred.id).toMatch(UID);
      expect(cred.id).toBe(String(created.headers.get('location')).split('/').pop());
      expect(cred.description === null || typeof cred.description === 'string').toBe(true);
      expect(cred.types).toEqual([{ type: target === 'KAFKA' ? 'SCRAM_SHA_512' : 'SCHEMA_REGISTRY_BASIC_AUTH' }]);
      expect(cred.metadata.clusters).toBe(authData.clusters);
      // Read matches on username + application.id + environment.id against the ids in its state.
      expect(cred.application.id).toBe(application.uid);
      expect(cred.environment.id).toBe(env.uid);
      expect(deriveTarget(cred.types)).toBe(target);
      expect(found.text).not.toContain(authData.password);

      // ReadApplicationCredential (import): GET /application_credentials/{id} → the same fields.
      const read = await tf('GET', `${C}/${cred.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body).toMatchObject({
        id: cred.id, username: authData.username, application: { id: application.uid }, environment: { id: env.uid },
        types: cred.types, metadata: { clusters: authData.clusters },
      });
      expect(read.body.description).toEqual(cred.description);
      expect(deriveTarget(read.body.types)).toBe(target);
      expect(read.text).not.toContain(authData.password);

      // DeleteApplicationCredential: DELETE with ApplicationCredentialDeleteRequest as the body.
      const del = await tf('DELETE', AUTH, { applicationId: application.uid, environmentId: env.uid, target, configs: { username: authData.username } });
      expect(del.status, del.text).toBe(204);
      // Read afterwards: not among the results → the resource is removed from state; import read → 404.
      const after = await find(application.uid, env.uid);
      expect(after.status).toBe(200);
      expect((after.body as any[]).some((c) => c.username === authData.username)).toBe(false);
      expect((await tf('GET', `${C}/${cred.id}`)).status).toBe(404);
      // A retried delete → 404 (the client maps it to NotFoundError).
      expect((await tf('DELETE', AUTH, { applicationId: application.uid, environmentId: env.uid, target, configs: { username: authData.username } })).status).toBe(404);
    });
  }

  it('Read with several credentials picks its own by username; an empty result removes the resource', async () => {
    const a = await tf('POST', AUTH, { applicationId: application.uid, environmentId: env.uid, target: 'KAFKA' });
    const b = await tf('POST', AUTH, { applicationId: application.uid, environmentId: env.uid, target: 'KAFKA' });
    expect([a.status, b.status]).toEqual([201, 201]);
    const found = (await find(application.uid, env.uid)).body as any[];
    expect(found.map((c) => c.username).sort()).toEqual([a.body[0].authData.username, b.body[0].authData.username].sort());
    for (const r of [a, b]) {
      expect((await tf('DELETE', AUTH, { applicationId: application.uid, environmentId: env.uid, target: 'KAFKA', configs: { username: r.body[0].authData.username } })).status).toBe(204);
    }
    const empty = await find(application.uid, env.uid);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });
});
