/**
 * General endpoints and transport conventions (docs/contract.md §1.3, §1.4, §3.1): the index, /info, the OpenAPI
 * documents, X-Request-Id, HEAD and the tolerated trailing slash.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';
import { expectError } from '../support/errors';

let app: TestApp;
let t: TestTenant;

beforeAll(async () => { ({ app, t } = await startWithTenant('general')); });
afterAll(async () => app?.stop());

const TEMPLATED = [
  'users', 'groups', 'instances', 'clusters', 'environments', 'tenants', 'streams', 'stream_configs', 'schemas',
  'schema_versions', 'applications', 'application_principals', 'application_access', 'application_access_grants',
  'application_deployments', 'connect_plugins', 'application_credentials', 'confidentialities', 'integrities', 'support_tiers',
];
/** Collections beyond the contract's 24 (additive): templated as theirs. */
const EXTRA_COLLECTIONS = ['webhooks'];
const PLAIN = ['user', 'group', 'tenant', 'profile'];
/** Relations beyond the contract's 24 (additive): not collections, so plain links. */
const EXTRA: Record<string, string> = { auditHistory: '/audit-history', openapi: '/openapi.json', docs: '/docs' };

describe('GET /api/ (index)', () => {
  it('has the 24 relations of the contract, the extra ones and nothing but _links', async () => {
    const res = await call(app, 'GET', '/', { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/hal\+json/);
    expect(Object.keys(res.body)).toEqual(['_links']);
    expect(Object.keys(res.body._links).sort()).toEqual([...TEMPLATED, ...EXTRA_COLLECTIONS, ...PLAIN, ...Object.keys(EXTRA)].sort());
    expect(Object.keys(res.body._links)).toHaveLength(28);
  });

  it.each(Object.entries(EXTRA))('%s links %s, which answers without a token', async (rel, path) => {
    const res = await call(app, 'GET', '/', { token: t.admin.token });
    expect(res.body._links[rel]).toEqual({ href: `${app.api}${path}` });
    const target = await call(app, 'GET', res.body._links[rel].href, { token: rel === 'auditHistory' ? t.admin.token : undefined });
    expect(target.status).toBe(200);
  });

  it.each([...TEMPLATED, ...EXTRA_COLLECTIONS])('%s is an absolute templated link with {?page,size,sort}', async (rel) => {
    const res = await call(app, 'GET', '/', { token: t.admin.token });
    expect(res.body._links[rel]).toEqual({ href: `${app.api}/${rel}{?page,size,sort}`, templated: true });
  });

  it.each(PLAIN)('%s is an absolute plain link', async (rel) => {
    const res = await call(app, 'GET', '/', { token: t.admin.token });
    expect(res.body._links[rel].href).toBe(`${app.api}/${rel}`);
    expect(res.body._links[rel].templated ?? false).toBe(false);
  });

  it('is served without the trailing slash as well', async () => {
    const res = await call(app, 'GET', '', { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body._links)).toHaveLength(28);
  });

  it('needs a token', async () => {
    const res = await call(app, 'GET', '/');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/info', () => {
  it('answers without a token with name, description and version x.y.z+build', async () => {
    const res = await call(app, 'GET', '/info');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['description', 'name', 'version']);
    expect(res.body.name).toBe('platform-management-service');
    expect(typeof res.body.description).toBe('string');
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+\+[A-Za-z0-9.-]+$/);
  });

  it('ignores an invalid token (public endpoint)', async () => {
    const res = await call(app, 'GET', '/info', { token: 'garbage' });
    expect(res.status).toBe(200);
  });
});

describe('OpenAPI documents', () => {
  it('/api/openapi.json is public JSON describing the clusters path', async () => {
    const res = await call(app, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/clusters']).toBeDefined();
  });

  it('/api/openapi.yaml is public YAML', async () => {
    const res = await call(app, 'GET', '/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/yaml/);
    expect(res.text).toMatch(/^openapi: ['"]?3\./m);
    expect(res.text).toContain('/clusters');
  });
});

describe('reference page', () => {
  it.each(['/docs', '/docs/'])('GET %s is public HTML held to the service by its Content-Security-Policy', async (path) => {
    const res = await call(app, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="swagger-ui"');
    expect(res.text).toContain('data-token-url="/auth/realms/demo/protocol/openid-connect/token"');
    expect(res.text).not.toMatch(/<script>|\son[a-z]+=/i);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
  });

  it('names the token endpoint of the realm it is asked for', async () => {
    const res = await call(app, 'GET', `/docs?realm=${t.shortName}`);
    expect(res.text).toContain(`data-token-url="/auth/realms/${t.shortName}/protocol/openid-connect/token"`);
    expect(res.text).toContain(`value="${t.shortName}"`);
  });

  it("with an external IdP names the endpoints its discovery document names, and lets the page reach its token endpoint", async () => {
    const idp = createServer((req, res) => {
      if (req.url !== `/auth/realms/${t.shortName}/.well-known/openid-configuration`) return void res.writeHead(404).end();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ authorization_endpoint: 'https://login.kc.example/authorize', token_endpoint: 'https://tokens.kc.example/token' }));
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    const external = await startTestApp({ externalAuthUrl: `http://127.0.0.1:${(idp.address() as AddressInfo).port}/auth` });
    try {
      const res = await call(external, 'GET', `/docs?realm=${t.shortName}`);
      expect(res.text).toContain('data-authorization-url="https://login.kc.example/authorize"');
      expect(res.text).toContain('data-token-url="https://tokens.kc.example/token"');
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' https://tokens.kc.example;");
    } finally {
      await external.stop();
      idp.close();
    }
  });

  it("with an external IdP that cannot be asked, Keycloak's layout under AUTH_URL", async () => {
    const external = await startTestApp({ externalAuthUrl: 'http://127.0.0.1:1/auth' });
    try {
      const res = await call(external, 'GET', `/docs?realm=${t.shortName}`);
      expect(res.text).toContain(`data-token-url="http://127.0.0.1:1/auth/realms/${t.shortName}/protocol/openid-connect/token"`);
      expect(res.text).toContain(`data-authorization-url="http://127.0.0.1:1/auth/realms/${t.shortName}/protocol/openid-connect/auth"`);
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:1;");
    } finally {
      await external.stop();
    }
  });

  it('refuses a realm that no tenant could have', async () => {
    expectError(await call(app, 'GET', '/docs?realm=%3Cscript%3E'), 400, { field: 'realm' });
  });

  it.each([
    ['swagger-ui-bundle.js', /^text\/javascript/],
    ['swagger-ui.css', /^text\/css/],
    ['reference-page.js', /^text\/javascript/],
    ['reference-page.css', /^text\/css/],
    ['oauth2-redirect.html', /^text\/html/],
    ['oauth2-redirect.js', /^text\/javascript/],
  ])('serves %s publicly, and 304 for a current copy', async (file, type) => {
    const res = await call(app, 'GET', `/docs/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.text.length).toBeGreaterThan(100);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await call(app, 'GET', `/docs/${file}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it.each(['index.html', 'swagger-initializer.js', 'package.json', 'swagger-ui-bundle.js.map', '..%2Fpackage.json', '.env'])(
    'answers 404 for any other name (%s)', async (file) => {
      expectError(await call(app, 'GET', `/docs/${file}`), 404);
    },
  );

  it.each([['POST', '/docs'], ['DELETE', '/docs/swagger-ui.css']])('%s %s → 405 with Allow: GET, HEAD, no token read', async (method, path) => {
    const res = await call(app, method, path, { token: 'garbage' });
    expectError(res, 405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('X-Request-Id', () => {
  it.each([
    ['a simple id', 'abc-123'],
    ['dots and underscores', 'req_1.2.3'],
    ['128 characters', 'x'.repeat(128)],
  ])('echoes a valid incoming id (%s)', async (_label, id) => {
    const res = await call(app, 'GET', '/info', { headers: { 'X-Request-Id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it.each([
    ['129 characters', 'x'.repeat(129)],
    ['spaces', 'has space'],
    ['a slash', 'a/b'],
  ])('replaces an invalid incoming id (%s) with a new one', async (_label, id) => {
    const res = await call(app, 'GET', '/info', { headers: { 'X-Request-Id': id } });
    const got = res.headers.get('x-request-id');
    expect(got).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(got).not.toBe(id);
  });

  it('generates a distinct id when none is sent, also on errors', async () => {
    const a = await call(app, 'GET', '/info');
    const b = await call(app, 'GET', '/clusters');
    expect(b.status).toBe(401);
    expect(a.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('HEAD and trailing slash', () => {
  it.each(['/', '/info', '/clusters', '/clusters/search'])('HEAD %s answers 200 without a body', async (path) => {
    const res = await call(app, 'HEAD', path, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('HEAD on an item answers 200 with its ETag and no body', async () => {
    const created = await call(app, 'POST', '/clusters', { token: t.admin.token, body: { name: 'head-1', bootstrapServers: ['b:9092'] } });
    const res = await call(app, 'HEAD', `/clusters/${created.body.uid}`, { token: t.admin.token });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('etag')).toBe('"0"');
  });

  it('tolerates a trailing slash on a collection and an item', async () => {
    const created = await call(app, 'POST', '/clusters/', { token: t.admin.token, body: { name: 'slash-1', bootstrapServers: ['b:9092'] } });
    expect(created.status).toBe(201);
    const list = await call(app, 'GET', '/clusters/', { token: t.admin.token });
    expect(list.status).toBe(200);
    expect(list.body._embedded.clusters.map((c: { name: string }) => c.name)).toContain('slash-1');
    const one = await call(app, 'GET', `/clusters/${created.body.uid}/`, { token: t.admin.token });
    expect(one.status).toBe(200);
    expect(one.body.uid).toBe(created.body.uid);
  });
});

describe('query parameters the operation does not declare', () => {
  it.each([
    ['a projection on a collection', () => '/clusters?projection=summary'],
    ['a projection on an item (the templated member links invite it)', () => `/users/${t.admin.user.uid}?projection=summary`],
    ['an unknown parameter on a search', () => '/groups/search/findByName?name=x&utm_source=mail'],
    ['an unknown parameter on /user', () => '/user?x=1'],
  ])('are ignored: %s', async (_label, path) => {
    const res = await call(app, 'GET', path(), { token: t.admin.token });
    expect(res.status).toBe(200);
  });

  it('do not hide a declared one that is invalid', async () => {
    const res = await call(app, 'GET', '/clusters?projection=summary&size=0', { token: t.admin.token });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/^size: /);
  });
});

describe('the caller\'s own items', () => {
  it.each(['/user', '/tenant'])('%s answers like GET of its id, ETag and 304 included', async (path) => {
    const res = await call(app, 'GET', path, { token: t.admin.token });
    expect(res.status).toBe(200);
    const item = await call(app, 'GET', res.body._links.self.href, { token: t.admin.token });
    expect(res.body).toEqual(item.body);
    expect(res.headers.get('etag')).toBe(item.headers.get('etag'));
    const again = await call(app, 'GET', path, { token: t.admin.token, headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});
