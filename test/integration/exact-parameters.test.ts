/**
 * What the document says of path and query values holds on the wire: a uid in each accepted form, other path
 * values naming nothing (404), the `page` bound, enum query values in any spelling (docs/contract.md §4.3), and the
 * adapter's refusals answered with statuses the operation declares (the response validator is on).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call, created } from '../support/http';

let app: TestApp;
let t: TestTenant;
let group: any;
const get = (path: string) => call(app, 'GET', path, { token: t.admin.token });

beforeAll(async () => {
  ({ app, t } = await startWithTenant('exact', { maxBodyBytes: 1024 }));
  group = await created(app, '/groups', { name: 'Exact Parameters', members: [t.admin.user.uid] }, t.admin.token);
});
afterAll(() => app?.stop());

describe('the id of a path', () => {
  it.each([
    ['as in self links', (uid: string) => uid],
    ['in capitals', (uid: string) => uid.toUpperCase()],
    ['in the UUID form', (uid: string) => uid.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')],
  ])('names the resource %s', async (_name, form) => {
    const res = await get(`/groups/${form(group.uid)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('Exact Parameters');
  });

  it.each(['not-a-uid', `${'0'.repeat(31)}g`, '0'.repeat(33)])('%s names nothing: 404', async (id) => {
    expectError(await get(`/groups/${id}`), 404);
  });

  it('an unknown association or a linked id of another form names nothing: 404', async () => {
    expectError(await get(`/groups/${group.uid}/owners`), 404);
    expectError(await get(`/groups/${group.uid}/members/not-a-uid`), 404);
    expect((await get(`/groups/${group.uid}/members/${t.admin.user.uid}`)).status).toBe(200);
  });

  it('an ill-formed percent-encoding is 400 naming the parameter', async () => {
    expectError(await get('/groups/%zz'), 400, { field: 'id' });
    expectError(await get(`/groups/${group.uid}/members/%zz`), 400, { field: 'propertyId' });
  });
});

describe('page', () => {
  it('takes up to 1,000,000,000; beyond is 400 naming page', async () => {
    const last = await get('/groups?page=1000000000');
    expect(last.status, last.text).toBe(200);
    expect(last.body.page.number).toBe(1_000_000_000);
    expectError(await get('/groups?page=1000000001'), 400, { field: 'page' });
  });
});

describe('enum query values', () => {
  it.each(['CREATED', 'created', ' Created ', 'topic-configured', 'Topic Configured'])('audit action %j is a filter', async (action) => {
    const res = await get(`/audit-history?action=${encodeURIComponent(action)}`);
    expect(res.status, res.text).toBe(200);
  });

  it('a blank filter is no filter', async () => {
    const all = await get('/audit-history?resourceType=Group');
    const blank = await get('/audit-history?action=&resourceType=group');
    expect(blank.status, blank.text).toBe(200);
    expect(blank.body.page.totalElements).toBe(all.body.page.totalElements);
  });

  it('Stream means Topic', async () => {
    expect((await get('/audit-history?resourceType=stream')).status).toBe(200);
  });

  it('an unknown deployment action still answers the unknown target first: 404, not 400', async () => {
    const res = await call(app, 'PUT', `/application_deployments/${'0'.repeat(32)}/operation?action=nope`, { token: t.admin.token });
    expectError(res, 404);
  });

  it.each([['action=nope', 'action'], ['resourceType=Streams', 'resourceType']])('%s is 400 naming the parameter', async (query, field) => {
    expectError(await get(`/audit-history?${query}`), 400, { field });
  });
});

describe('a body where the operation reads none', () => {
  it('over MAX_BODY_BYTES is the declared 413', async () => {
    const res = await call(app, 'DELETE', `/groups/${group.uid}`, { token: t.admin.token, raw: 'x'.repeat(2048), headers: { 'Content-Type': 'text/plain' } });
    expectError(res, 413);
  });
});
