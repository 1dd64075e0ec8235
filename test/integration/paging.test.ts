/**
 * Paging, sorting, compact listings and searches of a collection (docs/contract.md §3.3, §3.6; docs/contract.md §3.3), with clusters
 * as the subject: 7 clusters in this file's tenant, an empty fresh tenant for the empty case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_WINDOW } from '../../handlers/_lib/paging';
import { createTenant, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let empty: TestTenant;

/** name → location; names sort alphabetically in this order. */
const CLUSTERS: [string, string][] = [
  ['alpha', 'eu'], ['bravo', 'us'], ['charlie', 'eu'], ['delta', 'us'], ['echo', 'eu'], ['foxtrot', 'us'], ['golf', 'eu'],
];
const NAMES = CLUSTERS.map(([n]) => n);

beforeAll(async () => {
  ({ app, t } = await startWithTenant('paging'));
  empty = await createTenant(app, 'paging-empty');
  for (const [name, location] of CLUSTERS) {
    const res = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name, location, bootstrapServers: ['b:9092'] } });
    if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${res.text}`);
  }
});
afterAll(async () => app?.stop());

const list = (query: string, token = t.admin.token, headers?: Record<string, string>) =>
  call(app, 'GET', `/clusters${query}`, { token, headers });
const names = (body: any) => body._embedded.clusters.map((c: { name: string }) => c.name);
const pagingRels = (links: Record<string, unknown>) => ['first', 'prev', 'next', 'last'].filter((r) => r in links);

describe('collection shape', () => {
  it('an empty collection keeps [] and a zero page, without first/last/next/prev', async () => {
    const res = await list('', empty.admin.token);
    expect(res.status).toBe(200);
    expect(res.body._embedded).toEqual({ clusters: [] });
    expect(res.body.page).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 });
    expect(pagingRels(res.body._links)).toEqual([]);
    expect(res.body._links.self.href).toBe(`${app.api}/clusters?page=0&size=20`);
    expect(res.body._links.profile.href).toBe(`${app.api}/profile/clusters`);
    expect(res.body._links.search.href).toBe(`${app.api}/clusters/search`);
    expect(res.body._links.create.href).toBe(`${app.api}/clusters`);
  });

  it('a single page has no paging links beyond self', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ size: 20, totalElements: 7, totalPages: 1, number: 0 });
    expect(res.body._embedded.clusters).toHaveLength(7);
    expect(pagingRels(res.body._links)).toEqual([]);
  });

  it('a tenant never sees the clusters of another (visibility before paging)', async () => {
    const res = await list('?size=1', empty.admin.token);
    expect(res.body.page.totalElements).toBe(0);
  });
});

describe('several pages (7 items, size 3 → 3 pages)', () => {
  it.each([
    { page: 0, items: ['alpha', 'bravo', 'charlie'], rels: ['first', 'next', 'last'] },
    { page: 1, items: ['delta', 'echo', 'foxtrot'], rels: ['first', 'prev', 'next', 'last'] },
    { page: 2, items: ['golf'], rels: ['first', 'prev', 'last'] },
  ])('page $page holds $items and links $rels', async ({ page, items, rels }) => {
    const res = await list(`?page=${page}&size=3&sort=name`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(items);
    expect(res.body.page).toEqual({ size: 3, totalElements: 7, totalPages: 3, number: page });
    expect(pagingRels(res.body._links)).toEqual(rels);
    const href = (p: number) => `${app.api}/clusters?page=${p}&size=3&sort=name,asc`;
    expect(res.body._links.self.href).toBe(href(page));
    if (rels.includes('first')) expect(res.body._links.first.href).toBe(href(0));
    if (rels.includes('last')) expect(res.body._links.last.href).toBe(href(2));
    if (rels.includes('prev')) expect(res.body._links.prev.href).toBe(href(page - 1));
    if (rels.includes('next')) expect(res.body._links.next.href).toBe(href(page + 1));
  });

  it('following next links visits every item once', async () => {
    const seen: string[] = [];
    let url: string | undefined = `${app.api}/clusters?size=2&sort=name,desc`;
    let pages = 0;
    while (url) {
      const res = await call(app, 'GET', url, { token: t.admin.token });
      expect(res.status).toBe(200);
      seen.push(...names(res.body));
      url = res.body._links.next?.href;
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual([...NAMES].reverse());
  });

  it('a page past the end is empty with the correct totals', async () => {
    const res = await list('?page=5&size=3');
    expect(res.status).toBe(200);
    expect(res.body._embedded.clusters).toEqual([]);
    expect(res.body.page).toEqual({ size: 3, totalElements: 7, totalPages: 3, number: 5 });
    expect(res.body._links.next).toBeUndefined();
    expect(res.body._links.first.href).toContain('page=0');
    expect(res.body._links.last.href).toContain('page=2');
  });

  it.each([10000, 9999])('size=%i is accepted', async (size) => {
    const res = await list(`?size=${size}`);
    expect(res.status).toBe(200);
    expect(res.body.page).toEqual({ size, totalElements: 7, totalPages: 1, number: 0 });
  });
});

describe(`a collection larger than the count window (COUNT_WINDOW ${COUNT_WINDOW})`, () => {
  const TOTAL = COUNT_WINDOW + 110;
  let big: TestTenant;
  const bigList = (query: string) => call(app, 'GET', `/clusters${query}`, { token: big.admin.token });

  beforeAll(async () => {
    big = await createTenant(app, 'paging-big');
    const now = new Date();
    await app.models.Cluster.bulkCreate(Array.from({ length: TOTAL }, (_, i) => ({
      tenantUid: big.tenant.uid, name: `big-${String(i).padStart(5, '0')}`, nameKey: `big-${String(i).padStart(5, '0')}`, bootstrapServers: ['b:9092'],
      createdBy: 'seed', modifiedBy: 'seed', createdAt: now, modifiedAt: now,
    })));
  });

  it('the first page counts only up to the window: a lower bound, next but no last', async () => {
    const res = await bigList('?size=20&sort=name,asc');
    expect(res.status).toBe(200);
    expect(res.body._embedded.clusters.map((c: { name: string }) => c.name).slice(0, 2)).toEqual(['big-00000', 'big-00001']);
    const lowerBound = 20 + COUNT_WINDOW + 1;
    expect(res.body.page).toEqual({ size: 20, totalElements: lowerBound, totalPages: Math.ceil(lowerBound / 20), number: 0 });
    expect(res.body._links.next.href).toContain('page=1');
    expect(res.body._links.last).toBeUndefined();
  });

  it('a page whose window reaches the end has the exact total and a last link', async () => {
    const res = await bigList('?size=20&page=10&sort=name,asc');
    expect(res.body.page).toEqual({ size: 20, totalElements: TOTAL, totalPages: Math.ceil(TOTAL / 20), number: 10 });
    expect(res.body._links.last.href).toContain(`page=${Math.ceil(TOTAL / 20) - 1}`);
  });

  it('the last, partial page knows the exact total; a page past the end too', async () => {
    const lastPage = Math.ceil(TOTAL / 20) - 1;
    const last = await bigList(`?size=20&page=${lastPage}&sort=name,asc`);
    expect(last.body._embedded.clusters).toHaveLength(TOTAL % 20);
    expect(last.body.page.totalElements).toBe(TOTAL);
    expect(last.body._links.next).toBeUndefined();
    const past = await bigList(`?size=20&page=${lastPage + 5}`);
    expect(past.body._embedded.clusters).toEqual([]);
    expect(past.body.page.totalElements).toBe(TOTAL);
  });

  it('following next from the first page reaches every row exactly once', async () => {
    const seen = new Set<string>();
    let href: string | undefined = `${app.api}/clusters?size=500&sort=name,desc`;
    while (href) {
      const res = await call(app, 'GET', href.slice(app.api.length), { token: big.admin.token });
      for (const c of res.body._embedded.clusters) seen.add(c.name);
      href = res.body._links.next?.href;
    }
    expect(seen.size).toBe(TOTAL);
  });
});

describe('bad paging parameters → 400 naming the parameter', () => {
  it.each([
    ['size', '?size=0'],
    ['size', '?size=10001'],
    ['size', '?size=abc'],
    ['page', '?page=-1'],
    ['page', '?page=abc'],
    ['page', '?page=1.5'],
    ['sort', '?sort=unknownField'],
    ['sort', '?sort=name,sideways'],
    ['sort', '?sort=name,asc,extra'],
  ])('%s in %s', async (param, query) => {
    const res = await list(query);
    expectError(res, 400, { message: 'Bad request' });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatch(new RegExp(`^${param}: `));
    expect(res.body.subErrors).toEqual([expect.objectContaining({ field: param })]);
  });
});

describe('sorting', () => {
  it.each([
    ['name,asc', NAMES],
    ['name', NAMES],
    ['name,desc', [...NAMES].reverse()],
    ['name,DESC', [...NAMES].reverse()],
  ])('sort=%s', async (sort, expected) => {
    const res = await list(`?sort=${sort}`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(expected);
  });

  it('two sort fields: location asc, then name desc', async () => {
    const res = await list('?sort=location,asc&sort=name,desc');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['golf', 'echo', 'charlie', 'alpha', 'foxtrot', 'delta', 'bravo']);
    expect(res.body._links.self.href).toBe(`${app.api}/clusters?page=0&size=20&sort=location,asc&sort=name,desc`);
  });

  it('paging links keep both sort fields', async () => {
    const res = await list('?size=2&page=1&sort=location,asc&sort=name,desc');
    expect(names(res.body)).toEqual(['charlie', 'alpha']);
    for (const rel of ['first', 'prev', 'self', 'next', 'last']) {
      expect(res.body._links[rel].href).toContain('sort=location,asc&sort=name,desc');
    }
  });

  it.each(['created_at', 'modified_at'])('the common field %s is sortable', async (field) => {
    const res = await list(`?sort=${field},desc`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.clusters).toHaveLength(7);
  });
});

describe('compact listing', () => {
  it('Accept: application/x-spring-data-compact+json answers links only', async () => {
    const full = await list('?size=3&sort=name');
    const res = await list('?size=3&sort=name', t.admin.token, { Accept: 'application/x-spring-data-compact+json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-spring-data-compact\+json/);
    expect(Object.keys(res.body).sort()).toEqual(['content', 'links', 'page']);
    expect(res.body.content).toEqual([]);
    expect(res.body.page).toEqual(full.body.page);
    const items = res.body.links.filter((l: { rel: string }) => l.rel === 'cluster');
    expect(items.map((l: { href: string }) => l.href)).toEqual(full.body._embedded.clusters.map((c: any) => c._links.self.href));
    expect(res.body.links).toContainEqual({ rel: 'self', href: full.body._links.self.href });
    expect(res.body.links).toContainEqual({ rel: 'next', href: full.body._links.next.href });
  });
});

describe('searches', () => {
  it('the search index lists findByName as a templated link', async () => {
    const res = await call(app, 'GET', '/clusters/search', { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body._links.self.href).toBe(`${app.api}/clusters/search`);
    expect(res.body._links.findByName).toEqual({ href: `${app.api}/clusters/search/findByName{?name,page,size,sort}`, templated: true });
  });

  it.each(['charlie', 'CHARLIE', 'Charlie'])('findByName?name=%s matches ignoring case', async (name) => {
    const res = await call(app, 'GET', `/clusters/search/findByName?name=${name}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['charlie']);
    expect(res.body.page).toEqual({ size: 20, totalElements: 1, totalPages: 1, number: 0 });
    expect(res.body._links.self.href).toBe(`${app.api}/clusters/search/findByName?name=${name}&page=0&size=20`);
  });

  it('findByName with no match is an empty page, not 404', async () => {
    const res = await call(app, 'GET', '/clusters/search/findByName?name=nope', { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.body._embedded.clusters).toEqual([]);
  });

  it('findByName only searches the caller\'s tenant', async () => {
    const res = await call(app, 'GET', '/clusters/search/findByName?name=alpha', { token: empty.admin.token });
    expect(res.status).toBe(200);
    expect(res.body._embedded.clusters).toEqual([]);
  });

  it.each(['', '?name='])('findByName%s without a name → 400 naming it', async (query) => {
    const res = await call(app, 'GET', `/clusters/search/findByName${query}`, { token: t.admin.token });
    expectError(res, 400);
    expect(res.body.errors).toEqual([expect.stringMatching(/^name: /)]);
  });

  it('search results are compact on request', async () => {
    const res = await call(app, 'GET', '/clusters/search/findByName?name=golf', {
      token: t.admin.token, headers: { Accept: 'application/x-spring-data-compact+json' },
    });
    expect(res.status).toBe(200);
    expect(res.body.links.filter((l: { rel: string }) => l.rel === 'cluster')).toHaveLength(1);
    expect(res.body.content).toEqual([]);
  });
});
