/**
 * CONTRACT §3.3, §5, §11.8: only the searches marked single answer one item (404 when nothing matches); every
 * other search answers the collection shape (an empty page when nothing matches). Every search of the OpenAPI
 * document is walked, so a new search must be classified here before it can land.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spec from '../../generated/openapi.json';
import { call, createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';

/** CONTRACT §5's single-entity searches, by collection. */
const SINGLE = new Set(['tenants/findByShortName', 'instances/findByName', 'instances/findByShortName',
  'applications/findByName', 'applications/findByShortName', 'applications/findByApplicationId', 'schema_versions/findBySchemaAndVersion']);
/** Parameters that name another resource: an unknown one answers 404 (CONTRACT §4.1). */
const REFERENCES = new Set(['instance', 'owners', 'schema', 'stream', 'environment']);
SINGLE.add('connect_plugins/findByPluginClass');

const searches = Object.keys(spec.paths)
  .map((p) => /^\/([a-z_]+)\/search\/([A-Za-z]+)$/.exec(p))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ collection: m[1], method: m[2], key: `${m[1]}/${m[2]}` }));

let app: TestApp;
let t: TestTenant;
const rows: Record<string, any> = {};

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'searches');
  const post = async (c: string, body: unknown) => {
    const res = await call(app, 'POST', `/${c}`, { token: t.admin.token, body });
    expect(res.status, `${c}: ${res.text}`).toBe(201);
    return res.body;
  };
  rows.clusters = await post('clusters', { name: 'search-cluster', bootstrapServers: ['k:9092'] });
  rows.instances = await post('instances', { name: 'Search Instance', shortName: 'searchinst', clusters: [rows.clusters.uid] });
  rows.groups = await post('groups', { name: 'Search Group', members: [t.admin.user.uid] });
  rows.environments = await post('environments', { name: 'search-env', shortName: 'searchenv', instance: rows.instances.uid, owners: rows.groups.uid });
  rows.applications = await post('applications', { applicationId: 'io.search.app', name: 'Search App', shortName: 'search_app', applicationType: 'Custom', owners: rows.groups.uid });
  for (const c of ['confidentialities', 'integrities', 'support_tiers']) rows[c] = await post(c, { name: `Search ${c}`, level: 5 });
  rows.connect_plugins = await post('connect_plugins', { pluginClass: 'com.example.SearchConnector', pluginType: 'SOURCE' });
  const upload = await call(app, 'POST', '/schemas/upload', { token: t.admin.token, body: { schema: '{"type":"record","name":"Searched","namespace":"io.search","fields":[]}', version: 'v1' } });
  rows.schemas = (await call(app, 'GET', `/schemas/${upload.body.schemaUid}`, { token: t.admin.token })).body;
  rows.schema_versions = (await call(app, 'GET', `/schema_versions/${upload.body.id}`, { token: t.admin.token })).body;
  rows.streams = await post('streams', { name: 'search-stream', keyType: 'String', valueType: 'String', owners: rows.groups.uid });
  rows.stream_configs = await post('stream_configs', { stream: rows.streams.uid, environment: rows.environments.uid });
  rows.users = (await call(app, 'GET', `/users/${t.admin.user.uid}`, { token: t.admin.token })).body;
  rows.tenants = (await call(app, 'GET', '/tenant', { token: t.admin.token })).body;
});
afterAll(async () => app?.stop());

/** The value of a search parameter that matches the collection's fixture row. */
function matching(collection: string, param: string): string {
  const row = rows[collection];
  if (param === 'email') return row.emailAddress.email;
  if (typeof row[param] === 'string') return row[param].toUpperCase() === row[param] ? row[param].toLowerCase() : row[param].toUpperCase();
  const linked = row._embedded?.[param];
  if (linked?.uid) return linked.uid;
  throw new Error(`no fixture value for ${collection} search parameter ${param}`);
}

/** The parameters to search by: the required ones, else every optional one (`findByAttributes{?name,shortName}`). */
const paramsOf = (collection: string, method: string): string[] => {
  const op = (spec.paths as Record<string, any>)[`/${collection}/search/${method}`].get;
  const own = (op.parameters ?? []).filter((p: any) => p.in === 'query' && !['page', 'size', 'sort'].includes(p.name));
  const required = own.filter((p: any) => p.required);
  return (required.length > 0 ? required : own).map((p: any) => p.name);
};

describe('search shapes', () => {
  it('covers every search of the document', () => {
    expect(searches.length).toBeGreaterThan(8);
    for (const s of SINGLE) expect(searches.map((x) => x.key)).toContain(s);
  });

  it.each(searches)('$key: link template, matching and non-matching answers', async ({ collection, method, key }) => {
    const params = paramsOf(collection, method);
    const index = await call(app, 'GET', `/${collection}/search`, { token: t.admin.token });
    expect(index.body._links[method]).toEqual({ href: `${app.api}/${collection}/search/${method}{?${[...params, 'page', 'size', 'sort'].join(',')}}`, templated: true });

    const query = (value: (p: string) => string) => params.map((p) => `${p}=${encodeURIComponent(value(p))}`).join('&');
    const hit = await call(app, 'GET', `/${collection}/search/${method}?${query((p) => matching(collection, p))}`, { token: t.admin.token });
    const miss = await call(app, 'GET', `/${collection}/search/${method}?${query((p) => (REFERENCES.has(p) ? '0'.repeat(32) : 'no-such-value'))}`, { token: t.admin.token });
    if (SINGLE.has(key)) {
      expect(hit.status).toBe(200);
      expect(hit.body.uid).toBe(rows[collection].uid);
      expect(hit.body._embedded?.[collection]).toBeUndefined();
      expect(miss.status).toBe(404);
    } else {
      expect(hit.status).toBe(200);
      expect(hit.body._embedded[collection].map((r: any) => r.uid)).toContain(rows[collection].uid);
      expect(hit.body.page).toMatchObject({ number: 0, size: 20 });
      // An unknown reference in a query answers 404 (CONTRACT §4.1); any other miss is an empty page.
      if (params.some((p) => REFERENCES.has(p))) expect(miss.status).toBe(404);
      else expect([miss.status, miss.body._embedded[collection], miss.body.page.totalElements]).toEqual([200, [], 0]);
    }
  });
});
