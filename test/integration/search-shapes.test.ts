/**
 * docs/contract.md §3.3, §5, §11.8: only the searches marked single answer one item (404 when nothing matches); every
 * other search answers the collection shape (an empty page when nothing matches). Every search of the OpenAPI
 * document is walked, so a new search must be classified here before it can land.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spec from '../../generated/openapi.json';
import { accessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { call, created } from '../support/http';

/** docs/contract.md §5's single-entity searches, by collection. */
const SINGLE = new Set(['tenants/findByShortName', 'instances/findByName', 'instances/findByShortName',
  'applications/findByName', 'applications/findByShortName', 'applications/findByApplicationId', 'schema_versions/findBySchemaAndVersion']);
SINGLE.add('connect_plugins/findByPluginClass');
SINGLE.add('application_access/findByGrantsContaining');
/**
 * docs/contract.md §5.12, §11.6: the credential searches answer a plain JSON array of credentials (no `_embedded`, no
 * `page`, no links) whatever the Accept; `page` and `size` slice it.
 */
const ARRAY = new Set(['application_credentials/findAllByApplicationIdAndEnvironmentId', 'application_credentials/findByApplicationIdAndEnvironmentId',
  'application_credentials/findAllByApplicationIdAndEnvironmentIdAndTypesType', 'application_credentials/findByApplicationId',
  'application_credentials/findByApplicationIdAndTypesType']);
/** Parameters that name another resource: an unknown one answers 404 (docs/contract.md §4.1). */
const REFERENCES = new Set(['instance', 'owners', 'schema', 'stream', 'environment', 'application', 'applicationAccessGrant', 'streamId', 'environmentId']);
/** `applicationId` is a reference in the grant search, the application's own `applicationId` in the application one. */
const isReference = (collection: string, param: string) => REFERENCES.has(param) || (param === 'applicationId' && collection !== 'applications');
/** Collection searches whose items are embedded under another key than the collection's name. */
const EMBEDDED_AS: Record<string, string> = { 'application_access_grants/findByAttributes': 'applicationAccessGrantResponses' };
/** Values of enum parameters that are valid but match no fixture row (a miss must not be a 400). */
const MISS: Record<string, Record<string, string>> = {
  'application_access_grants/findByAttributes': { accessType: 'PRODUCER', statuses: 'Rejected', expiringBefore: '2000-01-01T00:00:00Z', awaitingMyDecision: 'true', myApplications: 'true' },
  // The fixture credential holds SCRAM_SHA_512 only.
  ...Object.fromEntries([...ARRAY].map((k) => [k, { type: 'PLAIN' }])),
};

const searches = Object.keys(spec.paths)
  .map((p) => /^\/([a-z_]+)\/search\/([A-Za-z]+)$/.exec(p))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ collection: m[1], method: m[2], key: `${m[1]}/${m[2]}` }));

let app: TestApp;
let t: TestTenant;
const rows: Record<string, any> = {};
/** Matching values of parameters that are no field of the fixture row, by `collection/param`. */
const matches: Record<string, string> = {};

beforeAll(async () => {
  ({ app, t } = await startWithTenant('searches'));
  const post = (c: string, body: unknown) => created(app, `/${c}`, body, t.admin.token);
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
  // A grant (Pending: the "Stream owner" environment), ending in a day, and the access row it belongs to.
  const w = await accessWorld(app, t, 'ss');
  const grant = await call(app, 'POST', '/application_access_grants', {
    token: w.appOwner.token, body: { applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER', validFor: 'P1D' },
  });
  expect(grant.status, grant.text).toBe(201);
  rows.application_access_grants = (await call(app, 'GET', `/application_access_grants/${grant.body.uid}`, { token: t.admin.token })).body;
  const access = await call(app, 'GET', `/application_access/search/findByGrantsContaining?applicationAccessGrant=${grant.body.uid}`, { token: t.admin.token });
  expect(access.status, access.text).toBe(200);
  rows.application_access = access.body;
  // Search parameters that are no field of the row: the grant's references and enums, in another case than stored.
  matches['application_access/applicationAccessGrant'] = grant.body.uid;
  matches['application_access_grants/streamId'] = w.stream.uid;
  matches['application_access_grants/applicationId'] = `${app.api}/applications/${w.application.uid}`;
  matches['application_access_grants/environmentId'] = w.managed.uid;
  matches['application_access_grants/accessType'] = 'consumer';
  matches['application_access_grants/statuses'] = 'PENDING';
  matches['application_access_grants/expiringBefore'] = '2999-01-01T00:00:00+01:00';
  // The tenant admin may decide every pending grant; it owns no application, so `myApplications` matches only unset.
  matches['application_access_grants/awaitingMyDecision'] = 'true';
  matches['application_access_grants/myApplications'] = 'false';

  // A principal (a one-element array in, its URI as a JSON string out) and a credential (`[{authData}]` out,
  // Location = the credential) of the fixture application.
  const principal = await call(app, 'POST', '/application_principals', {
    token: t.admin.token, body: [{ principal: 'search-client', custom: true, application: rows.applications.uid, environment: rows.environments.uid }],
  });
  expect(principal.status, principal.text).toBe(201);
  expect(principal.body).toBe(principal.headers.get('location'));
  rows.application_principals = (await call(app, 'GET', principal.body, { token: t.admin.token })).body;
  const credential = await call(app, 'POST', '/application_authentications', { token: t.admin.token, body: { applicationId: rows.applications.uid, environmentId: rows.environments.uid } });
  expect(credential.status, credential.text).toBe(201);
  rows.application_credentials = (await call(app, 'GET', credential.headers.get('location')!, { token: t.admin.token })).body;
  matches['application_credentials/applicationId'] = `${app.api}/applications/${rows.applications.uid}`;
  matches['application_credentials/environmentId'] = rows.environments.uid;
  matches['application_credentials/type'] = 'scram_sha_512';
  // A deployment: a Ksml application with a credential and an approved grant where the stream is configured.
  const ksml = await post('applications', { applicationId: 'io.search.ksml', name: 'Search Ksml', shortName: 'search_ksml', applicationType: 'Ksml', owners: rows.groups.uid });
  expect((await call(app, 'POST', '/application_authentications', { token: t.admin.token, body: { applicationId: ksml.uid, environmentId: rows.environments.uid } })).status).toBe(201);
  const ksmlGrant = await post('application_access_grants', { applicationId: ksml.uid, streamId: rows.streams.uid, environmentId: rows.environments.uid, accessType: 'PRODUCER' });
  expect((await call(app, 'PUT', `/application_access_grants/${ksmlGrant.uid}`, { token: t.admin.token })).status).toBe(200);
  const deployment = await call(app, 'POST', '/application_deployments', {
    token: t.admin.token, body: { application: ksml.uid, environment: rows.environments.uid, configs: { ksml_definition: 'streams: {}\npipelines: {}\n' } },
  });
  expect(deployment.status, deployment.text).toBe(201);
  rows.application_deployments = (await call(app, 'GET', deployment.headers.get('location')!, { token: t.admin.token })).body;
});
afterAll(async () => app?.stop());

/** The value of a search parameter that matches the collection's fixture row. */
function matching(collection: string, param: string): string {
  const row = rows[collection];
  if (matches[`${collection}/${param}`] !== undefined) return matches[`${collection}/${param}`];
  if (param === 'email') return row.emailAddress.email;
  if (typeof row[param] === 'string') return row[param].toUpperCase() === row[param] ? row[param].toLowerCase() : row[param].toUpperCase();
  const linked = row._embedded?.[param];
  if (linked?.uid) return linked.uid;
  throw new Error(`no fixture value for ${collection} search parameter ${param}`);
}

/** Every query parameter a search declares besides paging, in the document's order (its link template's). */
const declaredOf = (collection: string, method: string): Array<{ name: string; required?: boolean }> => {
  const op = (spec.paths as Record<string, any>)[`/${collection}/search/${method}`].get;
  return (op.parameters ?? []).filter((p: any) => p.in === 'query' && !['page', 'size', 'sort'].includes(p.name));
};

/** The parameters to search by: the required ones, else every optional one (`findByAttributes{?name,shortName}`). */
const paramsOf = (collection: string, method: string): string[] => {
  const own = declaredOf(collection, method);
  const required = own.filter((p) => p.required);
  return (required.length > 0 ? required : own).map((p) => p.name);
};

/** The schema the document gives the plain JSON 200 answer of a search. */
const documentedPlain = (collection: string, method: string): any => {
  const components = (spec as any).components.schemas as Record<string, any>;
  const deref = (s: any): any => (s?.$ref ? deref(components[s.$ref.split('/').pop()]) : s);
  const op = (spec.paths as Record<string, any>)[`/${collection}/search/${method}`].get;
  return deref(op.responses?.['200']?.content?.['application/json']?.schema);
};

/** The `_embedded` keys the document gives the 200 answer of a search (its collection schema's). */
const documentedEmbedded = (collection: string, method: string): string[] => {
  const components = (spec as any).components.schemas as Record<string, any>;
  const deref = (s: any): any => (s?.$ref ? deref(components[s.$ref.split('/').pop()]) : s);
  const op = (spec.paths as Record<string, any>)[`/${collection}/search/${method}`].get;
  const schema = deref(op.responses?.['200']?.content?.['application/hal+json']?.schema);
  return Object.keys(deref(schema?.properties?._embedded)?.properties ?? {});
};

describe('search shapes', () => {
  it('covers every search of the document', () => {
    expect(searches.length).toBeGreaterThan(8);
    for (const s of [...SINGLE, ...ARRAY]) expect(searches.map((x) => x.key)).toContain(s);
    // The classification agrees with the document: where each collection search embeds its items, and that the
    // array searches answer a plain array (and nothing in HAL).
    for (const { collection, method, key } of searches.filter((x) => !SINGLE.has(x.key) && !ARRAY.has(x.key))) {
      expect(documentedEmbedded(collection, method), key).toEqual([EMBEDDED_AS[key] ?? collection]);
    }
    for (const { collection, method, key } of searches.filter((x) => ARRAY.has(x.key))) {
      expect(documentedPlain(collection, method)?.type, key).toBe('array');
      expect(documentedEmbedded(collection, method), key).toEqual([]);
    }
  });

  it.each(searches)('$key: link template, matching and non-matching answers', async ({ collection, method, key }) => {
    const params = paramsOf(collection, method);
    const index = await call(app, 'GET', `/${collection}/search`, { token: t.admin.token });
    const declared = declaredOf(collection, method).map((p) => p.name);
    expect(index.body._links[method]).toEqual({ href: `${app.api}/${collection}/search/${method}{?${[...declared, 'page', 'size', 'sort'].join(',')}}`, templated: true });

    const query = (value: (p: string) => string) => params.map((p) => `${p}=${encodeURIComponent(value(p))}`).join('&');
    const hit = await call(app, 'GET', `/${collection}/search/${method}?${query((p) => matching(collection, p))}`, { token: t.admin.token });
    const missing = (p: string) => MISS[key]?.[p] ?? (isReference(collection, p) ? '0'.repeat(32) : 'no-such-value');
    const miss = await call(app, 'GET', `/${collection}/search/${method}?${query(missing)}`, { token: t.admin.token });
    if (ARRAY.has(key)) {
      // Every required parameter, and the optional `type` too (it filters): a plain array whatever the Accept.
      const all = declaredOf(collection, method).map((p) => p.name);
      const full = (value: (p: string) => string) => all.map((p) => `${p}=${encodeURIComponent(value(p))}`).join('&');
      for (const accept of [undefined, 'application/hal+json', 'application/json', 'application/x-spring-data-compact+json']) {
        for (const q of [query((p) => matching(collection, p)), full((p) => matching(collection, p))]) {
          const res = await call(app, 'GET', `/${collection}/search/${method}?${q}`, { token: t.admin.token, headers: accept ? { Accept: accept } : {} });
          expect(res.status, `${accept} ${q}: ${res.text}`).toBe(200);
          expect(res.headers.get('content-type'), `${accept}`).toMatch(/^application\/json/);
          expect(Array.isArray(res.body), res.text).toBe(true);
          expect(res.body.map((r: any) => r.uid)).toEqual([rows[collection].uid]);
          expect(res.body[0]).toMatchObject({ id: rows[collection].uid, username: rows[collection].username, types: [{ type: 'SCRAM_SHA_512' }] });
          expect(res.body[0]._links).toBeUndefined();
          expect(res.body[0]._embedded).toBeUndefined();
          expect(res.body[0]).not.toHaveProperty('password');
          expect(res.body[0]).not.toHaveProperty('secret');
        }
      }
      // `page` and `size` slice the array: past the end it is empty, never a page object.
      const sliced = await call(app, 'GET', `/${collection}/search/${method}?${query((p) => matching(collection, p))}&page=1&size=1`, { token: t.admin.token });
      expect([sliced.status, sliced.body], sliced.text).toEqual([200, []]);
      // An unknown reference answers 404 (docs/contract.md §4.1); the right ones with a type nothing holds, an empty array.
      expect(miss.status, miss.text).toBe(404);
      const known = (p: string) => (isReference(collection, p) ? matching(collection, p) : missing(p));
      const empty = await call(app, 'GET', `/${collection}/search/${method}?${full(known)}`, { token: t.admin.token });
      expect([empty.status, empty.body], empty.text).toEqual(all.includes('type') ? [200, []] : [200, [expect.objectContaining({ uid: rows[collection].uid })]]);
    } else if (SINGLE.has(key)) {
      expect(hit.status, hit.text).toBe(200);
      expect(hit.body.uid).toBe(rows[collection].uid);
      expect(hit.body._embedded?.[collection]).toBeUndefined();
      expect(hit.body.page).toBeUndefined();
      expect(miss.status).toBe(404);
    } else {
      const embedded = EMBEDDED_AS[key] ?? collection;
      expect(hit.status, hit.text).toBe(200);
      expect(Object.keys(hit.body._embedded)).toEqual([embedded]);
      expect(hit.body._embedded[embedded].map((r: any) => r.uid)).toContain(rows[collection].uid);
      expect(hit.body.page).toMatchObject({ number: 0, size: 20 });
      // An unknown reference in a query answers 404 (docs/contract.md §4.1); any other miss is an empty page.
      const refs = params.filter((p) => isReference(collection, p));
      if (refs.length > 0) expect(miss.status, miss.text).toBe(404);
      // A search without parameters (`findMine`) has nothing to miss; who it answers what is portal-searches.test.ts's.
      else if (params.length > 0) expect([miss.status, miss.body._embedded[embedded], miss.body.page.totalElements]).toEqual([200, [], 0]);
      if (refs.length > 0 && refs.length < params.length) {
        // With only the non-reference parameters, a miss is an empty page of the same shape.
        const rest = params.filter((p) => !refs.includes(p)).map((p) => `${p}=${encodeURIComponent(missing(p))}`).join('&');
        const empty = await call(app, 'GET', `/${collection}/search/${method}?${rest}`, { token: t.admin.token });
        expect([empty.status, empty.body._embedded?.[embedded], empty.body.page?.totalElements], empty.text).toEqual([200, [], 0]);
      }
    }
  });
});
