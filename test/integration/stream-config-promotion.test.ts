/**
 * Promotion of a stream config (docs/contract.md §5.8, "Promotion"): create and update in the target through the
 * rules of a direct write, the dry run's plan (and that it writes nothing), refusals, environments' successors and
 * their cycles, the default target, the `promote` link, the audit entry and two promotions racing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { expectError } from '../support/errors';
import { call, created, expectStatus } from '../support/http';

let app: TestApp;
let t: TestTenant;
let owner: TestUser;
let stranger: TestUser;
let owners: any;
let inst: any;
let dev: any;
let acc: any;
let prod: any;
let priv: any;
let schema: { uid: string; v1: string; v2: string; v3: string };
let n = 0;

const tok = () => t.admin.token;
const post = (path: string, body: unknown) => created(app, path, body, tok());
const avro = (fields: unknown[]) => JSON.stringify({ type: 'record', name: 'Order', namespace: 'io.promo', fields });
const upload = async (schemaText: string, version: string) => {
  const res = expectStatus(await call(app, 'POST', '/schemas/upload', { token: owner.token, body: { schema: schemaText, version } }), 201);
  return res.body as { id: string; schemaUid: string };
};
const promote = (config: any, body: Record<string, unknown>, token = owner.token) => call(app, 'POST', `/stream_configs/${config.uid}/promote`, { token, body });
const configure = async (s: any, env: any, extra: Record<string, unknown> = {}) =>
  expectStatus(await call(app, 'POST', '/stream_configs', { token: owner.token, body: { stream: s.uid, environment: env.uid, ...extra } }), 201).body;
const get = async (config: any, token = owner.token) => expectStatus(await call(app, 'GET', `/stream_configs/${config.uid}`, { token }), 200).body;
const setSuccessor = (env: any, successor: string | null) => call(app, 'PATCH', `/environments/${env.uid}`, { token: tok(), body: { successor } });

/** Rows a dry run must not add to: the tenant's stream configs and audit entries. */
async function rowCounts() {
  const tenantUid = t.tenant.uid;
  return { configs: await app.models.StreamConfig.count({ where: { tenantUid } }), audit: await app.models.AuditEvent.count({ where: { tenantUid } }) };
}

beforeAll(async () => {
  ({ app, t } = await startWithTenant('promo'));
  owner = await createUser(app, t, ['STREAM_AUTHOR'], 'owner');
  stranger = await createUser(app, t, ['STREAM_AUTHOR'], 'stranger');
  owners = await post('/groups', { name: 'Promo Owners', members: [owner.user.uid] });
  const others = await post('/groups', { name: 'Promo Others', members: [stranger.user.uid] });
  inst = await post('/instances', { name: 'Promo Instance', shortName: 'pinst' });
  dev = await post('/environments', { name: 'promo-dev', shortName: 'dev', instance: inst.uid, owners: owners.uid, partitions: 3, retentionTime: 86400000 });
  acc = await post('/environments', { name: 'promo-acc', shortName: 'acc', instance: inst.uid, owners: owners.uid });
  prod = await post('/environments', { name: 'promo-prod', shortName: 'prod', instance: inst.uid, owners: owners.uid });
  priv = await post('/environments', { name: 'promo-priv', shortName: 'priv', instance: inst.uid, owners: others.uid, visibility: 'Private', authorizationIssuer: 'Auto' });
  const v1 = await upload(avro([{ name: 'id', type: 'long' }]), '1');
  const v2 = await upload(avro([{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }]), '2');
  const v3 = await upload(avro([{ name: 'id', type: 'long' }, { name: 'amount', type: 'double' }]), '3');
  schema = { uid: v1.schemaUid, v1: v1.id, v2: v2.id, v3: v3.id };
});
afterAll(async () => app?.stop());

/** A new Public stream with an Avro value, owned by `owners`. */
async function stream() {
  n += 1;
  return post('/streams', { name: `orders-${n}`, keyType: 'String', valueType: 'AVRO', valueSchema: schema.uid, owners: owners.uid });
}

describe('promotion: create and update in the target', () => {
  it('creates the config in the target with the source\'s values (201), audited with promotedFrom', async () => {
    const s = await stream();
    const properties = { 'segment.ms': '600000', 'message.timestamp.type': 'LogAppendTime' };
    const source = await configure(s, dev, { partitions: 6, retentionTime: 3600000, properties, valueSchemaVersion: schema.v1 });
    const res = await promote(source, { environment: acc._links.self.href });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.body).toMatchObject({
      partitions: 6, retentionTime: 3600000, properties, topicName: `${t.shortName}-pinst-acc-${s.name}`,
      _embedded: { stream: { uid: s.uid }, environment: { uid: acc.uid }, valueSchemaVersion: { uid: schema.v1 } },
    });
    const entries = (await auditOf(app, s.uid)).filter((e) => e.action === 'TOPIC_CONFIGURED');
    expect(entries).toHaveLength(2);
    expect(entries[1].details).toMatchObject({ environment: 'acc', streamConfig: res.body.uid, promotedFrom: { streamConfig: source.uid, environment: 'dev' } });
    expect(entries[0].details.promotedFrom).toBeUndefined();
  });

  it('updates an existing target (200): retention, properties whole and pins; partitions untouched', async () => {
    const s = await stream();
    const source = await configure(s, dev, { partitions: 6, retentionTime: 3600000, properties: { 'segment.ms': '1000' }, valueSchemaVersion: schema.v2 });
    const target = await configure(s, acc, { partitions: 2, properties: { 'retention.bytes': '-1' }, valueSchemaVersion: schema.v1 });
    const res = await promote(source, { environment: acc.uid });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.body).toMatchObject({ uid: target.uid, partitions: 2, retentionTime: 3600000, properties: { 'segment.ms': '1000' }, topicName: target.topicName });
    expect(res.body._embedded.valueSchemaVersion.uid).toBe(schema.v2);
    const [entry] = (await auditOf(app, s.uid)).filter((e) => e.action === 'TOPIC_CONFIGURED' && e.details.promotedFrom);
    expect(entry.details).toMatchObject({
      environment: 'acc', streamConfig: target.uid, promotedFrom: { streamConfig: source.uid, environment: 'dev' },
      retentionTime: { old: 604800000, new: 3600000 }, valueSchemaVersion: { old: schema.v1, new: schema.v2 },
    });
    expect(entry.details.partitions).toBeUndefined();
  });

  it('unpins in the target what the source does not pin; a promotion that changes nothing writes no entry', async () => {
    const s = await stream();
    const source = await configure(s, dev);
    await configure(s, acc, { valueSchemaVersion: schema.v1, retentionTime: 86400000 });
    const res = await promote(source, { environment: acc.uid });
    expect(res.status).toBe(200);
    expect(res.body._embedded?.valueSchemaVersion).toBeUndefined();
    const before = await rowCounts();
    expect((await promote(source, { environment: acc.uid })).status).toBe(200);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('promotion: dry run', () => {
  it('answers the plan of a create and writes nothing, not even audit', async () => {
    const s = await stream();
    const source = await configure(s, dev, { partitions: 6, properties: { 'segment.ms': '1000' }, valueSchemaVersion: schema.v1 });
    const before = await rowCounts();
    const res = await promote(source, { environment: acc.uid, dryRun: true });
    expect(res.status, res.text).toBe(200);
    expect(await rowCounts()).toEqual(before);
    expect(res.body).toEqual({
      dryRun: true,
      action: 'create',
      source: { streamConfig: source.uid, environment: 'dev', topicName: source.topicName },
      target: { streamConfig: null, environment: 'acc', topicName: `${t.shortName}-pinst-acc-${s.name}` },
      changes: [
        { field: 'partitions', from: null, to: 6 },
        { field: 'retentionTime', from: null, to: 86400000 },
        { field: 'properties', from: null, to: { 'segment.ms': '1000' } },
        { field: 'keySchemaVersion', from: null, to: null },
        { field: 'valueSchemaVersion', from: null, to: { uid: schema.v1, version: '1' } },
      ],
      unchanged: [],
      notPromoted: [],
      refusals: [],
      _links: {
        self: { href: `${app.api}/stream_configs/${source.uid}/promote` },
        source: { href: `${app.api}/stream_configs/${source.uid}` },
        environment: { href: `${app.api}/environments/${acc.uid}` },
      },
    });
    expect((await call(app, 'GET', `/stream_configs/search/findByStreamAndEnvironment?stream=${s.uid}&environment=${acc.uid}`, { token: owner.token })).body._embedded.stream_configs).toEqual([]);
  });

  it('answers the plan of an update: from → to, the fields already equal, partitions not promoted', async () => {
    const s = await stream();
    const source = await configure(s, dev, { partitions: 6, valueSchemaVersion: schema.v2 });
    const target = await configure(s, acc, { partitions: 2, retentionTime: 86400000, valueSchemaVersion: schema.v1 });
    const before = await rowCounts();
    const res = await promote(source, { environment: acc.uid, dryRun: true });
    expect(res.status, res.text).toBe(200);
    expect(await rowCounts()).toEqual(before);
    expect(res.body).toMatchObject({
      action: 'update',
      target: { streamConfig: target.uid, environment: 'acc', topicName: target.topicName },
      changes: [{ field: 'valueSchemaVersion', from: { uid: schema.v1, version: '1' }, to: { uid: schema.v2, version: '2' } }],
      unchanged: ['retentionTime', 'properties', 'keySchemaVersion'],
      notPromoted: [{ field: 'partitions', from: 2, to: 6, reason: expect.stringMatching(/immutable/) }],
      refusals: [],
      _links: { target: { href: `${app.api}/stream_configs/${target.uid}` } },
    });
    expect((await get(target))._embedded.valueSchemaVersion.uid).toBe(schema.v1);
  });
});

describe('promotion: refusals', () => {
  it('a caller who may not deploy the stream: 403, and the dry run names the refusal', async () => {
    const s = await stream();
    const source = await configure(s, dev);
    expectError(await promote(source, { environment: acc.uid }, stranger.token), 403);
    const plan = await promote(source, { environment: acc.uid, dryRun: true }, stranger.token);
    expect(plan.status).toBe(200);
    expect(plan.body.refusals).toEqual([expect.objectContaining({ code: 403, status: 'FORBIDDEN' })]);
    await configure(s, acc);
    expectError(await promote(source, { environment: acc.uid }, stranger.token), 403);
    expect((await promote(source, { environment: acc.uid, dryRun: true }, stranger.token)).body.refusals).toEqual([expect.objectContaining({ code: 403 })]);
  });

  it('an incompatible pinned version: 422 with the reasons of a direct update; the dry run shows them; force accepts', async () => {
    const s = await stream();
    const source = await configure(s, dev, { valueSchemaVersion: schema.v3 });
    const target = await configure(s, acc, { valueSchemaVersion: schema.v2 });
    const direct = await call(app, 'PATCH', `/stream_configs/${target.uid}`, { token: owner.token, body: { valueSchemaVersion: schema.v3 } });
    const refused = await promote(source, { environment: acc.uid });
    const body = expectError(refused, 422, { message: 'Schema version 3 is not backward compatible with 2; retry with force=true' });
    expect(body.errors).toEqual(direct.body.errors);
    expect(body.errors.slice(1).join(' ')).toMatch(/amount/);
    const before = await rowCounts();
    const plan = await promote(source, { environment: acc.uid, dryRun: true });
    expect(plan.body.refusals).toEqual([{ code: 422, ...direct.body }]);
    expect(plan.body.changes).toEqual([
      { field: 'retentionTime', from: 604800000, to: 86400000 },
      { field: 'valueSchemaVersion', from: { uid: schema.v2, version: '2' }, to: { uid: schema.v3, version: '3' } },
    ]);
    expect((await promote(source, { environment: acc.uid, dryRun: true, force: true })).body.refusals).toEqual([]);
    expect(await rowCounts()).toEqual(before);
    const forced = await promote(source, { environment: acc.uid, force: true });
    expect([forced.status, forced.body._embedded.valueSchemaVersion.uid]).toEqual([200, schema.v3]);
  });

  it('a topic name the target instance\'s pattern makes too long: 422 as a direct create', async () => {
    const longInst = await post('/instances', { name: 'Promo Long', shortName: 'plong', topicNamePattern: `{tenant}-{stream}-${'x'.repeat(230)}` });
    const far = await post('/environments', { name: 'promo-far', shortName: 'far', instance: longInst.uid, owners: owners.uid });
    const s = await stream();
    const source = await configure(s, dev);
    expect(expectError(await promote(source, { environment: far.uid }), 422).errors[0]).toMatch(/at most 249/);
    const plan = await promote(source, { environment: far.uid, dryRun: true });
    expect(plan.body).toMatchObject({ action: 'create', target: { topicName: null }, refusals: [{ code: 422, errors: [expect.stringMatching(/at most 249/)] }] });
  });

  it.each([
    ['an unknown environment → 400', () => 'ffffffffffffffffffffffffffffffff', 400],
    ['a Private environment the caller cannot see → 400', () => priv.uid, 400],
    ['the source\'s own environment → 422', () => dev.uid, 422],
  ])('%s naming environment', async (_name, environment, status) => {
    const source = await configure(await stream(), dev);
    const body = expectError(await promote(source, { environment: environment() }), status, { field: 'environment' });
    expect(body.subErrors).toEqual([expect.objectContaining({ field: 'environment' })]);
    expectError(await promote(source, { environment: environment(), dryRun: true }), status, { field: 'environment' });
  });

  it('an unknown or invisible source: 404', async () => {
    expectError(await call(app, 'POST', '/stream_configs/ffffffffffffffffffffffffffffffff/promote', { token: owner.token, body: { environment: acc.uid } }), 404);
  });

  /**
   * Racing promotions of one config to one environment: whichever way they interleave, one of them writes (one row,
   * one entry with promotedFrom); each other one collided (409) or came after the winner and found nothing to change.
   */
  const RACERS = 6;
  async function race(source: any, s: any, first: 201 | 200) {
    const answers = await Promise.all(Array.from({ length: RACERS }, () => promote(source, { environment: prod.uid })));
    const statuses = answers.map((a) => a.status);
    if (first === 201) expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    else expect(statuses).toContain(200);
    expect(statuses.every((x) => x === first || x === 200 || x === 409), statuses.join()).toBe(true);
    for (const lost of answers.filter((a) => a.status === 409)) expectError(lost, 409);
    expect(await app.models.StreamConfig.count({ where: { streamUid: s.uid, environmentUid: prod.uid } })).toBe(1);
    expect((await auditOf(app, s.uid)).filter((e) => e.details.promotedFrom)).toHaveLength(1);
  }

  it('promotions racing to create the same config: one creates, the others 409 or change nothing', async () => {
    const s = await stream();
    await race(await configure(s, dev), s, 201);
  });

  it('promotions racing to update the same config: one writes, the others 409 or change nothing', async () => {
    const s = await stream();
    const source = await configure(s, dev, { retentionTime: 5400000 });
    await configure(s, prod);
    await race(source, s, 200);
    expect((await call(app, 'GET', `/stream_configs/search/findByStreamAndEnvironment?stream=${s.uid}&environment=${prod.uid}`, { token: owner.token })).body._embedded.stream_configs[0].retentionTime).toBe(5400000);
  });
});

describe('promotion: successors', () => {
  let stage: any;
  let last: any;
  beforeAll(async () => {
    stage = await post('/environments', { name: 'promo-stage', shortName: 'stage', instance: inst.uid, owners: owners.uid });
    last = await post('/environments', { name: 'promo-last', shortName: 'last', instance: inst.uid, owners: owners.uid });
  });

  it('a chain dev → acc → prod is set; a successor leading back is 422 naming successor', async () => {
    expect((await setSuccessor(dev, acc.uid)).status).toBe(200);
    const accNow = expectStatus(await setSuccessor(acc, prod._links.self.href), 200).body;
    expect(accNow._links.successor.href).toBe(`${app.api}/environments/${acc.uid}/successor`);
    expect(accNow._embedded.successor.uid).toBe(prod.uid);
    const cycle = expectError(await setSuccessor(prod, dev.uid), 422, { field: 'successor' });
    expect(cycle.message).toBe('successor: the chain prod → dev → acc → prod would be a cycle');
    expect(cycle.subErrors).toEqual([expect.objectContaining({ field: 'successor', rejectedValue: dev.uid })]);
    expectError(await setSuccessor(prod, prod.uid), 422, { field: 'successor' });
    const viaAssociation = await call(app, 'PUT', `/environments/${prod.uid}/successor`, { token: tok(), body: `${app.api}/environments/${dev.uid}`, headers: { 'Content-Type': 'text/uri-list' } });
    expectError(viaAssociation, 422);
    expect((await call(app, 'GET', `/environments/${prod.uid}/successor`, { token: tok() })).status).toBe(404);
  });

  it('promote without environment goes one step on; with no successor it is 400 naming environment', async () => {
    const s = await stream();
    const inDev = await configure(s, dev, { retentionTime: 7200000 });
    const inAcc = await promote(inDev, {});
    expect([inAcc.status, inAcc.body._embedded.environment.uid, inAcc.body.retentionTime]).toEqual([201, acc.uid, 7200000]);
    const inProd = await promote(inAcc.body, { environment: null });
    expect([inProd.status, inProd.body._embedded.environment.uid]).toEqual([201, prod.uid]);
    const body = expectError(await promote(inProd.body, {}), 400, { field: 'environment' });
    expect(body.errors[0]).toMatch(/prod declares no successor/);
    expect((await promote(inDev, { dryRun: true })).body).toMatchObject({ action: 'update', target: { environment: 'acc', streamConfig: inAcc.body.uid } });
  });

  it('the promote link: where a successor exists and the caller may deploy there', async () => {
    expect((await setSuccessor(stage, priv.uid)).status).toBe(200);
    const s = await stream();
    const inDev = await configure(s, dev);
    const inProd = await configure(s, prod);
    const inStage = await configure(s, stage);
    const inLast = await configure(s, last);
    expect((await get(inDev))._links.promote).toEqual({ href: `${app.api}/stream_configs/${inDev.uid}/promote` });
    expect(inDev._links.promote).toBeDefined();
    expect((await get(inDev, stranger.token))._links.promote).toBeUndefined();
    expect((await get(inProd))._links.promote).toBeUndefined();
    expect((await get(inLast))._links.promote).toBeUndefined();
    expect((await get(inStage))._links.promote).toBeUndefined();
    expect((await get(inStage, tok()))._links.promote).toBeDefined();
    const page = expectStatus(await call(app, 'GET', `/stream_configs/search/findByStream?stream=${s.uid}`, { token: owner.token }), 200).body;
    const linked = page._embedded.stream_configs.filter((c: any) => c._links.promote).map((c: any) => c.uid);
    expect(linked).toEqual([inDev.uid]);
    expectError(await promote(inStage, {}), 400, { field: 'environment' });
  });

  it('deleting a successor leaves its predecessor without one', async () => {
    const gone = await post('/environments', { name: 'promo-gone', shortName: 'gone', instance: inst.uid, owners: owners.uid });
    expect((await setSuccessor(last, gone.uid)).status).toBe(200);
    expect((await call(app, 'DELETE', `/environments/${gone.uid}`, { token: tok() })).status).toBe(204);
    expect((await call(app, 'GET', `/environments/${last.uid}/successor`, { token: tok() })).status).toBe(404);
  });
});
