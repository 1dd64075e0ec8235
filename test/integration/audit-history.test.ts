/**
 * `GET /audit-history` (docs/contract.md §8): every filter, relative and absolute time bounds, paging and sort, 400 naming
 * the bad parameter, who sees which entries, single entries and the list of actions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_VISIBLE_AS_VALUES } from '../../models/audit-event';
import { COUNT_WINDOW as AUDIT_COUNT_WINDOW } from '../../handlers/_lib/paging';
import { createTenant, createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { expectError } from '../support/errors';
import { call, created } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let member: TestUser;
let outsider: TestUser;
let group: any;
let cluster: any;
let privateApp: any;
let publicApp: any;
let stream: any;
let startedAt: number;

/** The specification's §6 list of audit actions, copied here as written there, so the test does not read it from the code. */
const SPECIFICATION_ACTIONS = (
  'CREATED, UPDATED, DELETED, BROWSED, TOPIC_BROWSED, APPLICATION_ACCESS_REQUESTED, APPLICATION_ACCESS_CANCELLED, '
  + 'APPLICATION_ACCESS_APPROVED, APPLICATION_ACCESS_DENIED, APPLICATION_ACCESS_REVOKED, AUTHENTICATION_CONFIGURED, '
  + 'AUTHENTICATION_UNCONFIGURED, APPLICATION_CONFIGURED, APPLICATION_UNCONFIGURED, APPLICATION_STARTED, APPLICATION_STOPPED, '
  + 'APPLICATION_RESTARTED, APPLICATION_RESET, TOPIC_CONFIGURED, TOPIC_UNCONFIGURED, TOPIC_MASKING_CONFIGURED, '
  + 'SCHEMA_REGISTRY_CONFIGURED, SCHEMA_REGISTRY_UNCONFIGURED, BROWSE_PERMISSION_GRANTED, BROWSE_PERMISSION_REVOKED, '
  + 'SCHEMA_VERSION_UPLOADED, SCHEMA_VERSION_DELETED, SCHEMA_OWNERSHIP_TRANSFERRED, SCHEMA_MASKING_CONFIGURED, CLUSTER_ADDED, '
  + 'CLUSTER_REMOVED, KSML_PROVISIONER_CONFIGURED, KSML_PROVISIONER_UNCONFIGURED, SYNCHRONIZED'
).split(', ');

const tok = () => t.admin.token;
const post = (path: string, body: unknown, token = tok()) => created(app, path, body, token);
const history = (query: string, token = tok()) => call(app, 'GET', `/audit-history${query}`, { token });
async function events(query: string, token = tok()): Promise<any[]> {
  const res = await history(query, token);
  expect(res.status, res.text).toBe(200);
  return res.body._embedded.events;
}

beforeAll(async () => {
  ({ app, t } = await startWithTenant('audit'));
  other = await createTenant(app, 'audit-other');
  member = await createUser(app, t, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR'], 'member');
  outsider = await createUser(app, t, ['APPLICATION_AUTHOR'], 'outsider');
  startedAt = Date.now() - 1;
  group = await post('/groups', { name: 'Audit Owners', members: [member.user.uid] });
  cluster = await post('/clusters', { name: 'Audit-Cluster', bootstrapServers: ['a:9092'] });
  expect((await call(app, 'PATCH', `/clusters/${cluster.uid}`, { token: tok(), body: { description: 'changed' } })).status).toBe(200);
  privateApp = await post('/applications', { applicationId: 'audit.private', name: 'Audit Private', shortName: 'audit_private', applicationType: 'Custom', owners: group.uid, visibility: 'Private' }, member.token);
  publicApp = await post('/applications', { applicationId: 'audit.public', name: 'Audit Public', shortName: 'audit_public', applicationType: 'Custom', owners: group.uid }, member.token);
  stream = await post('/streams', { name: 'audit-stream', keyType: 'String', valueType: 'String', owners: group.uid }, member.token);
  await post('/clusters', { name: 'other-cluster', bootstrapServers: ['o:9092'] }, other.admin.token);
});
afterAll(async () => app?.stop());

describe('audit history: the query', () => {
  it('a tenant admin sees the whole tenant, newest first, in events with page and links', async () => {
    const res = await history('?size=100');
    expect(res.status).toBe(200);
    const list = res.body._embedded.events;
    const times = list.map((e: any) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list[0]).toMatchObject({ action: 'CREATED', resourceType: 'Topic', resourceName: 'audit-stream', resourceId: stream.uid, actor: member.email, tenant: t.shortName });
    expect(list[0]._links.self.href).toBe(`${app.api}/audit-history/${list[0].uid}`);
    expect(list.every((e: any) => e.tenant === t.shortName)).toBe(true);
    expect(res.body.page).toMatchObject({ size: 100, number: 0, totalElements: list.length, totalPages: 1 });
    expect(list.map((e: any) => e.resourceName)).not.toContain('other-cluster');
    const asc = await events('?size=100&sort=timestamp,asc');
    expect(asc.map((e) => e.uid)).toEqual(list.map((e: any) => e.uid).reverse());
  });

  it('filters: action, resourceType (Stream = Topic), actor, resourceName, resourceId, all any case', async () => {
    expect((await events('?action=updated')).map((e) => e.resourceId)).toEqual([cluster.uid]);
    expect((await events('?resourceType=stream')).map((e) => e.resourceId)).toEqual([stream.uid]);
    expect((await events('?resourceType=TOPIC')).map((e) => e.resourceId)).toEqual([stream.uid]);
    const mine = await events(`?actor=${encodeURIComponent(member.email.toUpperCase())}&size=50`);
    expect(new Set(mine.map((e) => e.actor))).toEqual(new Set([member.email]));
    expect(mine.map((e) => e.resourceId)).toEqual(expect.arrayContaining([privateApp.uid, publicApp.uid, stream.uid]));
    expect((await events('?resourceName=AUDIT-cluster')).map((e) => e.action)).toEqual(['UPDATED', 'CREATED']);
    const dashed = cluster.uid.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect((await events(`?resourceId=${dashed}`)).map((e) => e.action)).toEqual(['UPDATED', 'CREATED']);
    expect(await events(`?resourceId=${cluster.uid}&action=CREATED&resourceType=Cluster&actor=${encodeURIComponent(t.admin.email)}`)).toHaveLength(1);
    expect(await events('?action=BROWSED')).toEqual([]);
  });

  it('entries of a deleted resource stay findable by name', async () => {
    const gone = await post('/clusters', { name: 'Soon-Gone', bootstrapServers: ['g:9092'] });
    expect((await call(app, 'DELETE', `/clusters/${gone.uid}`, { token: tok() })).status).toBe(204);
    expect((await events('?resourceName=soon-gone')).map((e) => e.action)).toEqual(['DELETED', 'CREATED']);
  });

  it('time bounds: epoch ms, now, now-<n><unit>, ISO durations and instants; from inclusive, to exclusive', async () => {
    const all = await events('?size=200');
    const newest = (await app.models.AuditEvent.findOne({ where: { uid: all[0].uid } }))!;
    const newestMs = new Date(newest.timestamp).getTime();
    expect((await events(`?fromTimestamp=${newestMs}&size=200`)).map((e) => e.uid)).toContain(newest.uid);
    expect(await events(`?fromTimestamp=${newestMs + 1}`)).toEqual([]);
    expect((await events(`?fromTimestamp=${startedAt}&size=200`)).length).toBe(all.length);
    expect((await events('?fromTimestamp=now-1h&size=200')).length).toBe(all.length);
    expect((await events('?fromTimestamp=PT1H&toTimestamp=now&size=200')).length).toBe(all.length);
    expect(await events('?toTimestamp=now-1d')).toEqual([]);
    expect(await events('?fromTimestamp=now-2w&toTimestamp=now-7d')).toEqual([]);
    expect(await events(`?toTimestamp=${new Date(startedAt - 60_000).toISOString()}`)).toEqual([]);
    const first = (await events('?sort=timestamp,asc&size=1'))[0];
    const ms = Date.parse(`${first.timestamp}Z`);
    const exact = await app.models.AuditEvent.findOne({ where: { uid: first.uid } });
    const stored = new Date(exact!.timestamp).getTime();
    expect((await events(`?fromTimestamp=${stored}&toTimestamp=${stored}`))).toEqual([]);
    expect((await events(`?fromTimestamp=${stored}&toTimestamp=${stored + 1}&size=50`)).map((e) => e.uid)).toContain(first.uid);
    expect(ms).toBeLessThanOrEqual(stored);
  });

  it('paging: links carry the filters; pages do not overlap', async () => {
    const res = await history('?resourceName=audit-cluster&size=1');
    expect(res.body.page).toMatchObject({ size: 1, totalElements: 2, totalPages: 2, number: 0 });
    expect(res.body._links.next.href).toContain('resourceName=audit-cluster');
    const next = await call(app, 'GET', res.body._links.next.href, { token: tok() });
    expect(next.body._embedded.events[0].uid).not.toBe(res.body._embedded.events[0].uid);
  });

  it.each([
    ['action=FLEW', 'action'],
    ['resourceType=Planet', 'resourceType'],
    ['resourceId=not-a-uid', 'resourceId'],
    ['fromTimestamp=yesterday', 'fromTimestamp'],
    ['toTimestamp=now%2B1d', 'toTimestamp'],
    ['fromTimestamp=now&toTimestamp=now-1h', 'fromTimestamp'],
    ['sort=actor,asc', 'sort'],
    ['sort=timestamp,sideways', 'sort'],
    ['size=0', 'size'],
  ])('400 for %s, naming %s', async (query, field) => {
    const res = await history(`?${query}`);
    expectError(res, 400);
    expect(res.body.subErrors.map((s: any) => s.field)).toContain(field);
  });

  it('reading the history writes nothing', async () => {
    const before = await app.models.AuditEvent.count();
    await history('?size=5');
    await history('?action=nope');
    await call(app, 'GET', '/audit-history/actions', { token: tok() });
    expect(await app.models.AuditEvent.count()).toBe(before);
  });
});

describe('audit history: who sees what', () => {
  it('others see their own entries, open kinds and the resources they can view; not Private ones of others', async () => {
    const seen = await events('?size=200', outsider.token);
    const ids = seen.map((e) => e.resourceId);
    expect(ids).toContain(cluster.uid);
    expect(ids).toContain(group.uid);
    expect(ids).toContain(publicApp.uid);
    expect(ids).toContain(stream.uid);
    expect(ids).not.toContain(privateApp.uid);
    expect(await events(`?resourceId=${privateApp.uid}`, outsider.token)).toEqual([]);
    expect((await events(`?resourceId=${privateApp.uid}`, member.token)).map((e) => e.action)).toEqual(['CREATED']);
  });

  it('a member\'s pages: every visible entry once, newest first, the same in small pages and one big one', async () => {
    for (const [who, token] of [['member', member.token], ['outsider', outsider.token]] as const) {
      const all = await history('?size=200', token);
      const everything = all.body._embedded.events as any[];
      expect(all.body.page.totalElements, who).toBe(everything.length);
      expect(new Set(everything.map((e) => e.uid)).size, who).toBe(everything.length);
      const times = everything.map((e) => e.timestamp);
      expect(times, who).toEqual([...times].sort().reverse());
      const paged: any[] = [];
      for (let n = 0; n * 3 < everything.length; n++) paged.push(...(await events(`?size=3&page=${n}`, token)));
      expect(paged.map((e) => e.uid), who).toEqual(everything.map((e) => e.uid));
      const oldest = await events('?size=200&sort=timestamp,asc', token);
      expect(oldest.map((e) => e.uid), who).toEqual(everything.map((e) => e.uid).reverse());
    }
    // The member's own entries (it created the private application) are among them, once.
    const mine = (await events('?size=200', member.token)).filter((e) => e.actor === member.email);
    expect(mine.length).toBeGreaterThan(0);
    expect((await history(`?resourceType=Application&size=200`, member.token)).body._embedded.events.map((e: any) => e.resourceId)).toContain(privateApp.uid);
  });

  it('one entry: visible → 200, invisible or another tenant\'s → 404', async () => {
    const [entry] = await events(`?resourceId=${privateApp.uid}`);
    expect((await call(app, 'GET', `/audit-history/${entry.uid}`, { token: member.token })).body).toMatchObject({ uid: entry.uid, action: 'CREATED', resourceType: 'Application' });
    const hidden = await call(app, 'GET', `/audit-history/${entry.uid}`, { token: outsider.token });
    expectError(hidden, 404);
    expect((await call(app, 'GET', `/audit-history/${entry.uid}`, { token: other.admin.token })).status).toBe(404);
    expect((await call(app, 'GET', '/audit-history/zzz', { token: tok() })).status).toBe(404);
    expect(await events(`?resourceId=${cluster.uid}`, other.admin.token)).toEqual([]);
  });

  it('the actions: exactly the specification\'s §6 list, in its order, as a plain array; nothing else is a filter', async () => {
    const res = await call(app, 'GET', '/audit-history/actions', { token: outsider.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SPECIFICATION_ACTIONS);
    // A client generated from the specification knows these values only: a value beyond them is no filter either.
    expectError(await history('?action=USER_LOCKOUT_CLEARED'), 400, { field: 'action' });
    expect((await call(app, 'GET', '/audit-history/actions')).status).toBe(401);
  });
});

describe('audit history: many visible rows', () => {
  it('a member sees the same entries whether its visible streams are few (listed) or many (a subquery)', async () => {
    const m = await createTenant(app, 'audit-many');
    const viewer = await createUser(app, m, [], 'viewer');
    const owners = await post('/groups', { name: 'Stream Owners' }, m.admin.token);
    const open = await post('/streams', { name: 'open-stream', keyType: 'String', valueType: 'String', owners: owners.uid }, m.admin.token);
    const hidden = await post('/streams', { name: 'hidden-stream', keyType: 'String', valueType: 'String', owners: owners.uid, visibility: 'Private' }, m.admin.token);
    const topics = async (token: string) => (await events('?resourceType=Topic&size=1000', token)).map((e) => e.uid);
    const check = async () => {
      const all = await events('?resourceType=Topic&size=1000', m.admin.token);
      expect(all.some((e) => e.resourceId === hidden.uid)).toBe(true);
      expect(await topics(viewer.token)).toEqual(all.filter((e) => e.resourceId !== hidden.uid).map((e) => e.uid));
      const unfiltered = await events('?size=1000', viewer.token);
      expect(unfiltered.map((e) => e.resourceId)).toContain(open.uid);
      expect(unfiltered.map((e) => e.resourceId)).not.toContain(hidden.uid);
    };
    await check();
    // Past the threshold, written straight to the tables: hundreds of streams over HTTP would test nothing more.
    const many = await app.models.Stream.bulkCreate(Array.from({ length: AUDIT_VISIBLE_AS_VALUES }, (_, i) => ({
      tenantUid: m.tenant.uid, name: `bulk-${i}`, nameKey: `bulk-${i}`, keyType: 'String', valueType: 'String', ownersUid: owners.uid,
    })));
    await app.models.AuditEvent.bulkCreate(many.slice(0, 5).map((row, i) => ({
      tenantUid: m.tenant.uid, tenant: m.shortName, timestamp: new Date(Date.now() - i), actor: 'bulk@audit.test', actorKey: 'bulk@audit.test',
      action: 'UPDATED', resourceType: 'Topic', resourceName: `bulk-${i}`, resourceNameKey: `bulk-${i}`, resourceId: (row as any).uid, details: null,
    })));
    await check();
    expect((await topics(viewer.token)).length).toBe((await topics(m.admin.token)).length - 1);
  });
});

describe('audit history: the bounded count', () => {
  it('exact within the window past the page; beyond it a lower bound with next and no last', async () => {
    const big = await createTenant(app, 'audit-big');
    const total = AUDIT_COUNT_WINDOW + 200;
    const base = Date.now() - 3_600_000;
    // Written straight to the table: 1,200 changes over HTTP would test nothing more and take long.
    await app.models.AuditEvent.bulkCreate(Array.from({ length: total }, (_, i) => ({
      tenantUid: big.tenant.uid, tenant: big.shortName, timestamp: new Date(base + i), actor: 'bulk@audit.test', actorKey: 'bulk@audit.test',
      action: i % 10 === 0 ? 'DELETED' : 'UPDATED', resourceType: 'Cluster', resourceName: `c${i % 7}`, resourceNameKey: `c${i % 7}`, resourceId: null, details: null,
    })));
    const page = async (query: string) => {
      const res = await history(query, big.admin.token);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const first = await page('?size=20');
    expect(first.page).toEqual({ size: 20, number: 0, totalElements: 20 + AUDIT_COUNT_WINDOW + 1, totalPages: Math.ceil((21 + AUDIT_COUNT_WINDOW) / 20) });
    expect(Object.keys(first._links).sort()).toEqual(['first', 'next', 'self']);
    // Newest first: the last written entry heads the page.
    expect(Date.parse(`${first._embedded.events[0].timestamp}Z`)).toBeGreaterThan(base + total - 1000);
    // A page whose window reaches the end: the exact count, and a last link that is the last page.
    const deep = await page('?size=20&page=20');
    expect(deep.page).toEqual({ size: 20, number: 20, totalElements: total, totalPages: total / 20 });
    expect(deep._links.last.href).toContain(`page=${total / 20 - 1}`);
    const last = await page(`?size=20&page=${total / 20 - 1}`);
    expect(last._embedded.events).toHaveLength(20);
    expect(last._links.next).toBeUndefined();
    // Filtered queries within the window are exact.
    expect((await page('?action=DELETED&size=5')).page).toMatchObject({ totalElements: total / 10, totalPages: total / 50 });
    expect((await page('?resourceName=C3&size=1000')).page.totalElements).toBe(Array.from({ length: total }, (_, i) => i).filter((i) => i % 7 === 3).length);
    expect((await page(`?fromTimestamp=${base + total - 10}`)).page.totalElements).toBe(10);
  });
});
