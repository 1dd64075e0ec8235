/**
 * Stream configs (docs/contract.md §5.8, §7, §8, §11.10): defaults and topic names, validation, pinned versions and
 * backward compatibility, plain version reads, permissions, browse permissions, searches, blockers, audit and the
 * requests of the Terraform provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { auditOf } from '../support/audit';
import { call, created, type CallResult } from '../support/http';
import { terraformCall } from '../support/terraform-client';

let app: TestApp;
let t: TestTenant;
let owner: TestUser;
let stranger: TestUser;
let streamAdmin: TestUser;
let viewer: TestUser;
let nobody: TestUser;
let envOwner: TestUser;
let owners: any;
let viewers: any;
let inst: any;
let dev: any;
let acc: any;
let priv: any;
let auto: any;
let plainEnv: any;
let schema: { uid: string; v1: string; v2: string; v3: string };
let other: { uid: string; v1: string };
let n = 0;

const tok = () => t.admin.token;
const post = (path: string, body: unknown) => created(app, path, body, tok());
const avro = (name: string, fields: unknown[]) => JSON.stringify({ type: 'record', name, namespace: 'io.cfg', fields });
const upload = async (schemaText: string, version: string) => {
  const res = await call(app, 'POST', '/schemas/upload', { token: owner.token, body: { schema: schemaText, version } });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  return res.body as { id: string; schemaUid: string };
};

beforeAll(async () => {
  ({ app, t } = await startWithTenant('cfgs'));
  owner = await createUser(app, t, ['STREAM_AUTHOR'], 'owner');
  stranger = await createUser(app, t, ['STREAM_AUTHOR'], 'stranger');
  streamAdmin = await createUser(app, t, ['STREAM_ADMIN'], 'streamadmin');
  viewer = await createUser(app, t, [], 'viewer');
  nobody = await createUser(app, t, [], 'nobody');
  envOwner = await createUser(app, t, ['ENVIRONMENT_AUTHOR'], 'envowner');
  owners = await post('/groups', { name: 'Cfg Owners', members: [owner.user.uid, envOwner.user.uid] });
  viewers = await post('/groups', { name: 'Cfg Viewers', members: [viewer.user.uid] });
  await post('/groups', { name: 'Cfg Strangers', members: [stranger.user.uid] });
  const envOwners = await post('/groups', { name: 'Cfg Env Owners', members: [envOwner.user.uid] });
  inst = await post('/instances', { name: 'Cfg Instance', shortName: 'cfginst', granularBrowsePermission: true });
  const plainInst = await post('/instances', { name: 'Plain Instance', shortName: 'plain' });
  dev = await post('/environments', { name: 'cfg-dev', shortName: 'Dev', instance: inst.uid, owners: owners.uid, partitions: 3, retentionTime: 86400000 });
  acc = await post('/environments', { name: 'cfg-acc', shortName: 'acc', instance: inst.uid, owners: owners.uid });
  priv = await post('/environments', { name: 'cfg-priv', shortName: 'priv', instance: inst.uid, owners: envOwners.uid, visibility: 'Private', authorizationIssuer: 'Auto' });
  auto = await post('/environments', { name: 'cfg-auto', shortName: 'auto', instance: inst.uid, owners: owners.uid, authorizationIssuer: 'Auto' });
  plainEnv = await post('/environments', { name: 'cfg-plain', shortName: 'plainenv', instance: plainInst.uid, owners: owners.uid });
  const v1 = await upload(avro('Payment', [{ name: 'id', type: 'long' }]), '1');
  const v2 = await upload(avro('Payment', [{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }]), '2');
  const v3 = await upload(avro('Payment', [{ name: 'id', type: 'long' }, { name: 'amount', type: 'double' }]), '3');
  schema = { uid: v1.schemaUid, v1: v1.id, v2: v2.id, v3: v3.id };
  const o1 = await upload(avro('Other', [{ name: 'x', type: 'int' }]), '1');
  other = { uid: o1.schemaUid, v1: o1.id };
});
afterAll(async () => app?.stop());

/** A new stream with an Avro value (schema `Payment`), owned by `owners`. */
async function stream(over: Record<string, unknown> = {}) {
  n += 1;
  return post('/streams', { name: `payments-${n}`, keyType: 'String', valueType: 'AVRO', valueSchema: schema.uid, owners: owners.uid, ...over });
}
const create = (body: Record<string, unknown>, token = owner.token) => call(app, 'POST', '/stream_configs', { token, body });

describe('stream configs: create and read', () => {
  it('defaults partitions and retention to the environment, names the topic, embeds and links', async () => {
    const s = await stream();
    const res = await create({ stream: s._links.self.href, environment: dev.uid });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.body).toMatchObject({
      partitions: 3, retentionTime: 86400000, properties: {}, topicName: `${t.shortName}-cfginst-dev-${s.name}`,
      _embedded: { stream: { uid: s.uid, name: s.name }, environment: { uid: dev.uid, shortName: 'Dev' } },
    });
    expect(res.body._embedded.keySchemaVersion).toBeUndefined();
    expect(res.body).not.toHaveProperty('force');
    const self = res.body._links.self.href;
    expect(res.body._links).toMatchObject({
      streamConfig: { href: self }, stream: { href: `${self}/stream` }, environment: { href: `${self}/environment` },
      keySchemaVersion: { href: `${self}/keySchemaVersion` }, valueSchemaVersion: { href: `${self}/valueSchemaVersion` },
      asyncapi: { href: `${self}/asyncapi` }, permissions: { href: `${self}/permissions{?type}`, templated: true },
      edit: { href: self }, delete: { href: self },
    });
    const byStream = await call(app, 'GET', s._links.streamConfigs.href, { token: stranger.token });
    expect(byStream.body._embedded.stream_configs.map((c: any) => c.uid)).toEqual([res.body.uid]);
    expect(byStream.body._embedded.stream_configs[0]._links.edit).toBeUndefined();
  });

  it('takes partitions, retention, properties and a pinned value version', async () => {
    const s = await stream();
    const properties = { 'segment.ms': '600000', 'retention.bytes': '-1', 'min.compaction.lag.ms': '0', 'max.compaction.lag.ms': '9223372036854775807', 'message.timestamp.difference.max.ms': '5', 'message.timestamp.type': 'LogAppendTime' };
    const res = await create({ stream: s.uid, environment: acc.uid, partitions: 120000, retentionTime: 160704000000, properties, valueSchemaVersion: schema.v1 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ partitions: 120000, retentionTime: 160704000000, properties, _embedded: { valueSchemaVersion: { uid: schema.v1, version: '1' } } });
  });

  it.each([
    ['partitions 0', { partitions: 0 }, 'partitions'],
    ['partitions 120001', { partitions: 120001 }, 'partitions'],
    ['retentionTime 999', { retentionTime: 999 }, 'retentionTime'],
    ['retentionTime beyond the maximum', { retentionTime: 160704000001 }, 'retentionTime'],
    ['an unknown property', { properties: { 'cleanup.policy': 'compact' } }, 'properties.cleanup.policy'],
    ['a non-integer segment.ms', { properties: { 'segment.ms': '1.5' } }, 'properties.segment.ms'],
    ['retention.bytes below -1', { properties: { 'retention.bytes': '-2' } }, 'properties.retention.bytes'],
    ['a negative max.compaction.lag.ms', { properties: { 'max.compaction.lag.ms': '-1' } }, 'properties.max.compaction.lag.ms'],
    ['another timestamp type', { properties: { 'message.timestamp.type': 'createtime' } }, 'properties.message.timestamp.type'],
    ['a key version on a String key', { keySchemaVersion: 'KEY' }, 'keySchemaVersion'],
    ['a value version of another schema', { valueSchemaVersion: 'OTHER' }, 'valueSchemaVersion'],
    ['an unknown value version', { valueSchemaVersion: '0'.repeat(32) }, 'valueSchemaVersion'],
    ['no environment', { environment: undefined }, 'environment'],
    ['an unknown environment', { environment: '0'.repeat(32) }, 'environment'],
    ['a Private environment the caller may not use', { environment: 'PRIVATE' }, 'environment'],
    ['no stream', { stream: null }, 'stream'],
  ])('400 for %s, naming %s', async (_label, over, field) => {
    const s = await stream();
    const fill: Record<string, string> = { KEY: schema.v1, OTHER: other.v1, PRIVATE: priv.uid };
    const body: Record<string, unknown> = { stream: s.uid, environment: dev.uid, ...over };
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string' && fill[v]) body[k] = fill[v];
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(`${field}: `)), res.text).toBe(true);
  });

  it('the pair is unique (409); stream, environment and partitions are immutable (422)', async () => {
    const s = await stream();
    const first = await create({ stream: s.uid, environment: dev.uid });
    expect(first.status).toBe(201);
    expect((await create({ stream: s.uid, environment: dev.uid, partitions: 5 })).status).toBe(409);
    const self = first.body._links.self.href;
    for (const body of [{ partitions: 4 }, { environment: acc.uid }, { stream: (await stream()).uid }]) {
      const res = await call(app, 'PATCH', self, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const same = await call(app, 'PATCH', self, { token: owner.token, body: { partitions: 3, stream: s.uid, environment: dev._links.self.href, retentionTime: 5000 } });
    expect([same.status, same.body.retentionTime]).toEqual([200, 5000]);
    const put = await call(app, 'PUT', self, { token: owner.token, body: { stream: s.uid, environment: dev.uid, properties: { 'segment.ms': '1' } } });
    expect(put.body).toMatchObject({ partitions: 3, retentionTime: 86400000, properties: { 'segment.ms': '1' } });
    const merged = await call(app, 'PATCH', self, { token: owner.token, body: { properties: { 'segment.ms': null, 'retention.bytes': '10' } } });
    expect(merged.body.properties).toEqual({ 'retention.bytes': '10' });
    expect((await call(app, 'PATCH', self, { token: owner.token, body: { properties: {} } })).body.properties).toEqual({});
  });

  it('a topic name longer than 249 characters or with other characters → 422', async () => {
    const long = await post('/instances', { name: 'Long Instance', shortName: 'long', topicNamePattern: `${'x'.repeat(100)}-{stream}` });
    const longEnv = await post('/environments', { name: 'cfg-long', shortName: 'long', instance: long.uid, owners: owners.uid });
    const spaced = await post('/instances', { name: 'Spaced Instance', shortName: 'spaced', topicNamePattern: 'team {environment} {stream}' });
    const spacedEnv = await post('/environments', { name: 'cfg-spaced', shortName: 'spaced', instance: spaced.uid, owners: owners.uid });
    const s = await stream({ name: `p${'y'.repeat(170)}` });
    const tooLong = await create({ stream: s.uid, environment: longEnv.uid });
    expect([tooLong.status, tooLong.body.errors[0]]).toEqual([422, expect.stringMatching(/at most 249/)]);
    const bad = await create({ stream: s.uid, environment: spacedEnv.uid });
    expect([bad.status, bad.body.errors[0]]).toEqual([422, expect.stringMatching(/may contain only/)]);
  });
});

describe('stream configs: schema versions', () => {
  it('the issue flow: two environments pin different versions; an incompatible one needs force', async () => {
    const s = await stream();
    const inDev = await create({ stream: s.uid, environment: dev.uid, valueSchemaVersion: schema.v1 });
    const inAcc = await create({ stream: s.uid, environment: acc.uid, valueSchemaVersion: schema.v2 });
    expect([inDev.status, inAcc.status]).toEqual([201, 201]);
    const self = inDev.body._links.self.href;
    const compatible = await call(app, 'PATCH', self, { token: owner.token, body: { valueSchemaVersion: `${app.api}/schema_versions/${schema.v2}` } });
    expect([compatible.status, compatible.body._embedded.valueSchemaVersion.version]).toEqual([200, '2']);
    const refused = await call(app, 'PATCH', inAcc.body._links.self.href, { token: owner.token, body: { valueSchemaVersion: schema.v3 } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Schema version 3 is not backward compatible with 2; retry with force=true');
    expect(refused.body.errors[0]).toBe(refused.body.message);
    expect(refused.body.errors.length).toBeGreaterThan(1);
    expect(refused.body.errors.slice(1).join(' ')).toMatch(/amount/);
    const viaAssociation = await call(app, 'PUT', `${inAcc.body._links.self.href}/valueSchemaVersion`, { token: owner.token, body: `${app.api}/schema_versions/${schema.v3}`, headers: { 'Content-Type': 'text/uri-list' } });
    expect(viaAssociation.status).toBe(422);
    const forced = await call(app, 'PATCH', inAcc.body._links.self.href, { token: owner.token, body: { valueSchemaVersion: schema.v3, force: true } });
    expect([forced.status, forced.body._embedded.valueSchemaVersion.uid]).toEqual([200, schema.v3]);
    const back = await call(app, 'GET', inAcc.body._links.self.href, { token: owner.token });
    expect(back.body).not.toHaveProperty('force');
  });

  it('keySchemaVersion/valueSchemaVersion: 404 unset, plain for application/json, HAL otherwise', async () => {
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: dev.uid, valueSchemaVersion: schema.v2 })).body;
    const get = (rel: string, accept: string) => call(app, 'GET', `/stream_configs/${cfg.uid}/${rel}`, { token: stranger.token, headers: { Accept: accept } });
    expect((await get('keySchemaVersion', 'application/json')).status).toBe(404);
    expect((await get('keySchemaVersion', 'application/hal+json')).status).toBe(404);
    const asPlain = await get('valueSchemaVersion', 'application/json');
    expect(asPlain.status).toBe(200);
    expect(asPlain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(asPlain.body).toMatchObject({ id: schema.v2, uid: schema.v2, version: '2', schema: { id: schema.uid, name: 'io.cfg.Payment', type: 'AVRO' } });
    const asHal = await get('valueSchemaVersion', 'application/hal+json');
    expect(asHal.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(asHal.body).toMatchObject({ uid: schema.v2, version: '2', _links: { self: { href: `${app.api}/schema_versions/${schema.v2}` } } });
    const uris = await get('valueSchemaVersion', 'text/uri-list');
    expect(uris.text).toBe(`${app.api}/schema_versions/${schema.v2}`);
    expect((await call(app, 'DELETE', `/stream_configs/${cfg.uid}/valueSchemaVersion`, { token: owner.token })).status).toBe(204);
    expect((await get('valueSchemaVersion', 'application/json')).status).toBe(404);
    expect((await call(app, 'DELETE', `/stream_configs/${cfg.uid}/stream`, { token: owner.token })).status).toBe(422);
  });

  it('pinned versions block version, schema and stream-typing changes; configs block stream and environment deletes', async () => {
    const up = await upload(avro('Pinned', [{ name: 'id', type: 'long' }]), '1');
    const s = await stream({ valueSchema: up.schemaUid });
    const env = await post('/environments', { name: `cfg-block`, shortName: 'block', instance: inst.uid, owners: owners.uid });
    const cfg = (await create({ stream: s.uid, environment: env.uid, valueSchemaVersion: up.id })).body;
    const expect422 = async (res: Promise<CallResult>, pattern: RegExp) => expect(expectError(await res, 422).errors[0]).toMatch(pattern);
    await expect422(call(app, 'DELETE', `/schema_versions/${up.id}`, { token: tok() }), /pinned/);
    await expect422(call(app, 'DELETE', `/schemas/${up.schemaUid}`, { token: tok() }), /pinned/);
    await expect422(call(app, 'PATCH', `/streams/${s.uid}`, { token: owner.token, body: { valueType: 'String', valueSchema: null } }), /pins a schema version/);
    await expect422(call(app, 'DELETE', `/streams/${s.uid}`, { token: owner.token }), new RegExp(cfg.topicName));
    await expect422(call(app, 'DELETE', `/environments/${env.uid}`, { token: tok() }), /stream config/);
    expect((await call(app, 'PATCH', `/stream_configs/${cfg.uid}`, { token: owner.token, body: { valueSchemaVersion: null } })).status).toBe(200);
    expect((await call(app, 'PATCH', `/streams/${s.uid}`, { token: owner.token, body: { description: 'still fine' } })).status).toBe(200);
    await expect422(call(app, 'DELETE', `/schemas/${up.schemaUid}`, { token: tok() }), /used by stream/);
    expect((await call(app, 'DELETE', `/schema_versions/${up.id}`, { token: tok() })).status).toBe(204);
    expect((await call(app, 'DELETE', `/stream_configs/${cfg.uid}`, { token: owner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/streams/${s.uid}`, { token: owner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/environments/${env.uid}`, { token: tok() })).status).toBe(204);
  });
});

describe('stream configs: permissions', () => {
  it.each([
    ['an owner of the stream', () => owner, 201],
    ['a STREAM_ADMIN', () => streamAdmin, 201],
    ['a tenant admin', () => t.admin, 201],
    ['a STREAM_AUTHOR outside the owners group', () => stranger, 403],
    ['a user without roles or groups', () => nobody, 403],
  ])('create by %s → %i', async (_label, who, status) => {
    const s = await stream();
    expect((await create({ stream: s.uid, environment: dev.uid }, who().token)).status).toBe(status);
  });

  it('a Private environment is usable by its owners; a Private stream hides its configs', async () => {
    const s = await stream({ visibility: 'Private', viewers: [viewers.uid] });
    expect((await create({ stream: s.uid, environment: priv.uid }, envOwner.token)).status).toBe(201);
    const inDev = (await create({ stream: s.uid, environment: dev.uid })).body;
    const get = (u: TestUser) => call(app, 'GET', `/stream_configs/${inDev.uid}`, { token: u.token });
    expect((await get(stranger)).status).toBe(404);
    expect((await get(viewer)).status).toBe(200);
    expect((await get(viewer)).body._links.edit).toBeUndefined();
    expect((await call(app, 'PATCH', `/stream_configs/${inDev.uid}`, { token: viewer.token, body: { retentionTime: 2000 } })).status).toBe(403);
    expect((await call(app, 'DELETE', `/stream_configs/${inDev.uid}`, { token: stranger.token })).status).toBe(404);
    const listed = await call(app, 'GET', '/stream_configs?size=10000', { token: stranger.token });
    expect(listed.body._embedded.stream_configs.map((c: any) => c.uid)).not.toContain(inDev.uid);
    const byEnv = await call(app, 'GET', `/stream_configs/search/findByEnvironment?environment=${priv.uid}`, { token: owner.token });
    expect(byEnv.status).toBe(404);
    const auth = (u: TestUser, q: string) => call(app, 'GET', `/auth?${q}`, { token: u.token });
    expect((await auth(owner, `action=STREAM_CONFIG_EDIT&resourceType=STREAM_CONFIG&resourceUid=${inDev.uid}`)).status).toBe(200);
    expect((await auth(viewer, `action=STREAM_CONFIG_EDIT&resourceType=STREAM_CONFIG&resourceUid=${inDev.uid}`)).status).toBe(403);
    expect((await auth(owner, `action=STREAM_CONFIG_CREATE&resourceType=STREAM_CONFIG&resourceUid=${s.uid}`)).status).toBe(200);
    expect((await auth(viewer, `action=STREAM_CONFIG_CREATE&resourceType=STREAM_CONFIG&resourceUid=${s.uid}`)).status).toBe(403);
    expect((await auth(stranger, `action=STREAM_CONFIG_CREATE&resourceType=STREAM_CONFIG&resourceUid=${s.uid}`)).status).toBe(404);
    expect((await auth(owner, `action=STREAM_CONFIG_BROWSE_PERMISSION&resourceType=STREAM_CONFIG&resourceUid=${inDev.uid}`)).status).toBe(200);
  });

  it('searches take references and answer 404 for unknown ones', async () => {
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: acc.uid })).body;
    const find = (q: string) => call(app, 'GET', `/stream_configs/search/${q}`, { token: owner.token });
    expect((await find(`findByStreamAndEnvironment?stream=${encodeURIComponent(s._links.self.href)}&environment=${acc.uid}`)).body._embedded.stream_configs.map((c: any) => c.uid)).toEqual([cfg.uid]);
    expect((await find(`findByStreamAndEnvironment?stream=${s.uid}&environment=${dev.uid}`)).body._embedded.stream_configs).toEqual([]);
    expect((await find(`findByEnvironment?environment=${acc.uid}`)).body._embedded.stream_configs.map((c: any) => c.uid)).toContain(cfg.uid);
    expect((await find(`findByStream?stream=${'0'.repeat(32)}`)).status).toBe(404);
    expect((await find('findByStream')).status).toBe(400);
  });
});

describe('stream configs: browse permissions', () => {
  const perms = (cfg: any, method: string, body?: unknown, token = owner.token, query = '?type=browse') =>
    call(app, method, `/stream_configs/${cfg.uid}/permissions${query}`, { token, body });

  it('grants, lists and revokes users and groups; audited on the stream', async () => {
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: acc.uid })).body;
    expect((await perms(cfg, 'GET')).body).toEqual([]);
    const granted = await perms(cfg, 'POST', { type: 'BROWSE', users: [stranger.user.uid], groups: [`${app.api}/groups/${viewers.uid}`] }, owner.token, '');
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual([
      { uid: stranger.user.uid, type: 'USER', firstName: 'Test', middleName: null, lastName: 'stranger', emailAddress: { email: stranger.email } },
      { uid: viewers.uid, type: 'GROUP', name: 'Cfg Viewers', emailAddress: null },
    ]);
    expect((await perms(cfg, 'POST', { type: 'browse', users: [stranger.user.uid] }, owner.token, '')).body).toHaveLength(2);
    expect((await perms(cfg, 'GET', undefined, viewer.token)).body).toHaveLength(2);
    expect((await perms(cfg, 'DELETE', { type: 'browse', groups: [viewers.uid] })).status).toBe(204);
    expect((await perms(cfg, 'GET')).body.map((p: any) => p.uid)).toEqual([stranger.user.uid]);
    const events = await auditOf(app, s.uid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'TOPIC_CONFIGURED', 'BROWSE_PERMISSION_GRANTED', 'BROWSE_PERMISSION_GRANTED', 'BROWSE_PERMISSION_REVOKED']);
    expect(events[2]).toMatchObject({ resourceType: 'Topic', resourceName: s.name });
    expect(events[2].details).toMatchObject({ environment: 'acc', streamConfig: cfg.uid, users: [stranger.user.uid], groups: [viewers.uid] });
  });

  it.each([
    ['an instance without granular browse permission', 'PLAIN', { users: ['STRANGER'] }, 422, /granular/],
    ['a Private environment', 'PRIV', { users: ['STRANGER'] }, 422, /Private/],
    ['a Public environment with Auto approval', 'AUTO', { users: ['STRANGER'] }, 422, /automatically/],
    ['oneself', 'ACC', { users: ['ME'] }, 422, /yourself/],
    ['an own group', 'ACC', { groups: ['OWNERS'] }, 422, /group you belong to/],
    ['an unknown user', 'ACC', { users: ['0'.repeat(32)] }, 400, /^users\[0\]: unknown/],
    ['another type', 'ACC', { type: 'read', users: ['STRANGER'] }, 400, /^type: /],
  ])('refuses %s (%i)', async (_label, envKey, over, status, pattern) => {
    const env = ({ PLAIN: plainEnv, PRIV: priv, AUTO: auto, ACC: acc } as Record<string, any>)[envKey];
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: env.uid }, t.admin.token)).body;
    const fill = (list?: string[]) => list?.map((v) => ({ STRANGER: stranger.user.uid, ME: owner.user.uid, OWNERS: owners.uid } as Record<string, string>)[v] ?? v);
    const o = over as { type?: string; users?: string[]; groups?: string[] };
    // Only the Private environment's owners (who own the stream too) see a config there.
    const caller = envKey === 'PRIV' ? envOwner : owner;
    const res = await perms(cfg, 'POST', { type: o.type ?? 'browse', users: fill(o.users), groups: fill(o.groups) }, caller.token, '');
    expect(res.status, res.text).toBe(status);
    expect(res.body.errors[0]).toMatch(pattern);
  });

  it('only stream editors change them; GET needs type=browse', async () => {
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: acc.uid })).body;
    expect((await perms(cfg, 'POST', { type: 'browse', users: [viewer.user.uid] }, stranger.token, '')).status).toBe(403);
    expect((await perms(cfg, 'GET', undefined, owner.token, '?type=read')).status).toBe(400);
  });
});

describe('stream configs: audit', () => {
  it('create and update are TOPIC_CONFIGURED, delete TOPIC_UNCONFIGURED, filed under the stream', async () => {
    const s = await stream();
    const cfg = (await create({ stream: s.uid, environment: dev.uid })).body;
    await call(app, 'PATCH', `/stream_configs/${cfg.uid}`, { token: owner.token, body: { retentionTime: 7000, valueSchemaVersion: schema.v1 } });
    await call(app, 'PATCH', `/stream_configs/${cfg.uid}`, { token: owner.token, body: { retentionTime: 7000 } });
    await call(app, 'DELETE', `/stream_configs/${cfg.uid}`, { token: owner.token });
    const events = await auditOf(app, s.uid);
    expect(events.map((e: any) => e.action)).toEqual(['CREATED', 'TOPIC_CONFIGURED', 'TOPIC_CONFIGURED', 'TOPIC_UNCONFIGURED']);
    expect(events.slice(1).every((e: any) => e.resourceType === 'Topic' && e.resourceName === s.name)).toBe(true);
    expect(events[1].details).toMatchObject({ environment: 'Dev', streamConfig: cfg.uid, partitions: 3, retentionTime: 86400000, stream: s.uid });
    expect(events[2].details).toMatchObject({ environment: 'Dev', retentionTime: { old: 86400000, new: 7000 }, valueSchemaVersion: { old: null, new: schema.v1 } });
    expect(events[3].details).toMatchObject({ environment: 'Dev', streamConfig: cfg.uid });
  });
});

describe('stream configs: the Terraform provider', () => {
  it('creates, reads the pinned versions as JSON, updates with force and deletes as it does', async () => {
    const s = await stream({ keyType: 'AVRO', keySchema: schema.uid });
    const tf = (method: string, path: string, body?: unknown) => terraformCall(app, t.shortName, owner.token, method, path, body);
    const versionRef = (uid: string) => `${app.api}/schemas/${uid}`;
    const created = await tf('POST', '/stream_configs', {
      partitions: 1, retentionTime: 864001, stream: `${app.api}/streams/${s.uid}`, environment: `${app.api}/environments/${acc.uid}`,
      properties: { 'segment.ms': '600013', 'retention.bytes': '2' }, keySchemaVersion: versionRef(schema.v1), valueSchemaVersion: versionRef(schema.v2),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ uid: expect.any(String), partitions: 1, retentionTime: 864001, properties: { 'segment.ms': '600013', 'retention.bytes': '2' },
      _embedded: { environment: { shortName: 'acc', uid: acc.uid }, stream: { name: s.name, uid: s.uid } } });
    const id = created.body.uid;
    const version = (rel: string) => call(app, 'GET', `/stream_configs/${id}/${rel}`, { token: owner.token, headers: { Realm: t.shortName, Accept: 'application/json', 'Content-Type': 'application/json' } });
    expect((await version('keySchemaVersion')).body.uid).toBe(schema.v1);
    expect((await version('valueSchemaVersion')).body.uid).toBe(schema.v2);
    const update = (over: Record<string, unknown>) => tf('PATCH', `/stream_configs/${id}`, {
      partitions: 1, retentionTime: 864002, stream: `${app.api}/streams/${s.uid}`, environment: `${app.api}/environments/${acc.uid}`,
      properties: { 'segment.ms': null, 'retention.bytes': '3' }, keySchemaVersion: versionRef(schema.v2), valueSchemaVersion: versionRef(schema.v3), ...over,
    });
    const refused = await update({});
    expect(refused.status).toBe(422);
    const updated = await update({ force: true });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ retentionTime: 864002, properties: { 'retention.bytes': '3' } });
    expect((await version('valueSchemaVersion')).body.uid).toBe(schema.v3);
    expect((await tf('GET', `/stream_configs/${id}`)).body.uid).toBe(id);
    expect((await tf('POST', `/stream_configs/${id}/permissions`, { type: 'browse', users: [stranger.user.uid] })).status).toBe(200);
    expect((await tf('GET', `/stream_configs/${id}/permissions?type=browse`)).body.map((p: any) => [p.uid, p.type])).toEqual([[stranger.user.uid, 'USER']]);
    expect((await tf('DELETE', `/stream_configs/${id}/permissions?type=browse`, { type: 'browse', users: [stranger.user.uid] })).status).toBe(204);
    expect((await tf('DELETE', `/stream_configs/${id}`)).status).toBe(204);
    expect((await tf('DELETE', `/stream_configs/${id}`)).status).toBe(404);
  });
});
