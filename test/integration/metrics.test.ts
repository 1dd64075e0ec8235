/**
 * Issue 30: `/metrics` in the Prometheus text format. A known sequence of requests, sign-ins, audited writes,
 * AsyncAPI reads and provider calls shows up as exactly those counts; no label value carries an id, a tenant or a
 * path; the endpoint answers GET and HEAD only, and with METRICS_PORT it moves to a port of its own. The cluster's
 * sum across workers: metrics-cluster.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations';
import { statementKind } from '../../core/observe';
import { freePort } from '../../scripts/embedded-postgres';
import { startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditOf } from '../support/audit';
import { expectError } from '../support/errors';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { configuredStream, newEnvironment } from '../support/fixtures';
import { call, created } from '../support/http';
import { delta, scrape, valueOf, type Sample } from '../support/metrics';

const AIVEN_TOKEN = 'metrics-aiven-token-0001';

let app: TestApp;
let t: TestTenant;
let aiven: FakeAiven;
/** Statements the service sent, by kind, as Sequelize's own afterQuery hook sees them. */
const statements = new Map<string, number>();

beforeAll(async () => {
  aiven = await startFakeAiven({ token: AIVEN_TOKEN, projects: { acme: [{ name: 'kafka-prod', type: 'kafka', uri: 'kafka-prod.example:1234' }] } });
  ({ app, t } = await startWithTenant('metrics', { aivenApiUrl: aiven.url }));
  app.models.sequelize.addHook('afterQuery', (_options, query) => {
    const kind = statementKind((query as unknown as { sql?: string }).sql);
    statements.set(kind, (statements.get(kind) ?? 0) + 1);
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await aiven?.close();
});

const metricsUrl = () => `${app.url}/metrics`;
const tokenUrl = () => `${app.authUrl}/realms/${t.shortName}/protocol/openid-connect/token`;
const token = (form: Record<string, string>) => fetch(tokenUrl(), { method: 'POST', body: new URLSearchParams(form) });
const requests = (samples: Sample[], operation: string, method: string, statusClass: string) =>
  valueOf(samples, 'http_server_request_duration_seconds_count', { operation, method, status_class: statusClass });

describe('/metrics: counts after a known sequence of requests', () => {
  it('requests by operation and status class, token grants, audit entries, AsyncAPI cache, provider calls, statements', async () => {
    const admin = t.admin.token;
    const group = await created(app, '/groups', { name: 'Metrics Team' }, admin);
    const instance = await created(app, '/instances', { name: 'Metrics Instance', shortName: 'metricsinst' }, admin);
    const environment = await newEnvironment(app, admin, { tag: 'metrics', instance: instance.uid, owners: group.uid });
    const { configs: [config] } = await configuredStream(app, admin, { name: 'metrics-orders', owners: group.uid, environments: [environment.uid] });
    const auditBefore = (await auditOf(app, { tenantUid: t.tenant.uid })).length;
    const aivenBefore = aiven.requests.length;

    const before = await scrape(metricsUrl());
    const statementsBefore = new Map(statements);
    expect(before.status).toBe(200);

    // Sign-ins: one issued, one wrong password, one unknown grant type.
    expect((await token({ client_id: 'self-service', grant_type: 'password', username: t.admin.email, password: t.admin.password })).status).toBe(200);
    expect((await token({ client_id: 'self-service', grant_type: 'password', username: t.admin.email, password: 'wrong' })).status).toBe(401);
    expect((await token({ client_id: 'self-service', grant_type: 'magic' })).status).toBe(400);
    // Reads: three of the caller, one unknown item, one path no operation serves.
    for (let i = 0; i < 3; i++) expect((await call(app, 'GET', '/user', { token: admin })).status).toBe(200);
    expect((await call(app, 'GET', `/clusters/${'0'.repeat(32)}`, { token: admin })).status).toBe(404);
    expect((await call(app, 'GET', '/no-such-collection', { token: admin })).status).toBe(404);
    // Audited writes.
    await created(app, '/groups', { name: 'Metrics Second Team' }, admin);
    expect((await call(app, 'PATCH', `/groups/${group.uid}`, { token: admin, body: { description: 'renamed' } })).status).toBe(200);
    // The AsyncAPI document twice: made, then from the cache.
    for (let i = 0; i < 2; i++) expect((await call(app, 'GET', `/stream_configs/${config.uid}/asyncapi`, { token: admin })).status).toBe(200);
    // Provider calls: Aiven answering, a Kafka cluster nobody listens for.
    const aivenFields = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': AIVEN_TOKEN };
    expect((await call(app, 'POST', '/providers/validateCredentials', { token: admin, body: aivenFields })).status).toBe(200);
    const kafkaFields = {
      'Svc-Provider-Type': 'APACHE_KAFKA', 'Svc-Bootstrap-Server-B': '127.0.0.1:1', 'Svc-Broker-Protocol-Type-B': 'SASL/PLAIN',
      'Svc-Broker-Security-Protocol-Type-B': 'SASL_PLAINTEXT', 'Svc-Broker-Username-B': 'u', 'Svc-Broker-Password-B': 'p',
    };
    expect((await call(app, 'POST', '/providers/validateCredentials', { token: admin, body: kafkaFields })).status).toBe(502);

    const after = await scrape(metricsUrl());
    const statementsAfter = new Map(statements);
    const auditAfter = (await auditOf(app, { tenantUid: t.tenant.uid })).length;
    const d = (name: string, labels: Record<string, string> = {}) => delta(before.samples, after.samples, name, labels);
    const requestDelta = (operation: string, method: string, statusClass: string) =>
      requests(after.samples, operation, method, statusClass) - requests(before.samples, operation, method, statusClass);

    expect(requestDelta('getCurrentUser', 'GET', '2xx')).toBe(3);
    expect(requestDelta('getCluster', 'GET', '4xx')).toBe(1);
    expect(requestDelta('unmatched', 'GET', '4xx')).toBe(1);
    expect(requestDelta('createGroup', 'POST', '2xx')).toBe(1);
    expect(requestDelta('patchGroup', 'PATCH', '2xx')).toBe(1);
    expect(requestDelta('getStreamConfigAsyncApi', 'GET', '2xx')).toBe(2);
    expect(requestDelta('validateProviderCredentials', 'POST', '2xx')).toBe(1);
    expect(requestDelta('validateProviderCredentials', 'POST', '5xx')).toBe(1);
    expect(requestDelta('issuerToken', 'POST', '2xx')).toBe(1);
    expect(requestDelta('issuerToken', 'POST', '4xx')).toBe(2);
    // The first scrape itself, answered before the second began.
    expect(requestDelta('metrics', 'GET', '2xx')).toBe(1);
    expect(d('http_server_request_duration_seconds_count')).toBe(3 + 1 + 1 + 2 + 2 + 2 + 3 + 1);
    // The second scrape is the one request in flight.
    expect(valueOf(after.samples, 'http_server_requests_in_flight')).toBe(1);

    expect(d('auth_token_grants_total', { grant_type: 'password', outcome: 'issued' })).toBe(1);
    expect(d('auth_token_grants_total', { grant_type: 'password', outcome: 'invalid_grant' })).toBe(1);
    expect(d('auth_token_grants_total', { grant_type: 'other', outcome: 'unsupported_grant_type' })).toBe(1);
    expect(d('auth_token_grants_total')).toBe(3);

    expect(auditAfter - auditBefore).toBeGreaterThan(0);
    expect(d('audit_entries_written_total')).toBe(auditAfter - auditBefore);

    expect(d('asyncapi_cache_requests_total', { result: 'miss' })).toBe(1);
    expect(d('asyncapi_cache_requests_total', { result: 'hit' })).toBe(1);

    const aivenCalls = aiven.requests.length - aivenBefore;
    expect(aivenCalls).toBeGreaterThan(0);
    expect(d('provider_calls_total', { provider: 'AIVEN', outcome: 'ok' })).toBe(aivenCalls);
    expect(d('provider_calls_total', { provider: 'APACHE_KAFKA', outcome: 'unavailable' })).toBe(1);
    expect(d('provider_call_duration_seconds_count')).toBe(aivenCalls + 1);

    // Every statement the service sent, by kind, and nothing else.
    for (const kind of new Set([...statementsAfter.keys(), ...statementsBefore.keys()])) {
      const sent = (statementsAfter.get(kind) ?? 0) - (statementsBefore.get(kind) ?? 0);
      expect(d('db_statement_duration_seconds_count', { operation: kind }), kind).toBe(sent);
    }
    expect(d('db_statement_duration_seconds_count', { operation: 'INSERT' })).toBeGreaterThan(0);

    // At rest: no connection lent out, nobody waiting, no sign-in queued.
    expect(valueOf(after.samples, 'db_pool_connections', { state: 'used' })).toBe(0);
    expect(valueOf(after.samples, 'db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    expect(valueOf(after.samples, 'db_pool_waiting')).toBe(0);
    expect(after.samples.some((s) => s.name === 'auth_sign_in_queue_length')).toBe(true);
    expect(valueOf(after.samples, 'auth_sign_in_queue_length')).toBe(0);
    // Node's default process metrics.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(after.samples.some((s) => s.name === name), name).toBe(true);
    }
  });

  it('no label value is an id, a tenant, an e-mail address or a path; operations are operationIds or fixed names', async () => {
    const { samples, text } = await scrape(metricsUrl());
    expect(samples.length).toBeGreaterThan(50);
    const known = new Set([...Object.keys(operations), 'metrics', 'unmatched', 'issuerToken', 'issuerCerts', 'issuerDiscovery', 'issuerAuthorize', 'issuerSignIn', 'issuerUserinfo', 'issuerLogout', 'issuerRevoke']);
    for (const sample of samples) {
      for (const [label, value] of Object.entries(sample.labels)) {
        const where = `${sample.name}{${label}="${value}"}`;
        expect(value, where).not.toMatch(/[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-/i);
        expect(value, where).not.toContain('/');
        expect(value, where).not.toContain('@');
        expect(value.toLowerCase(), where).not.toContain(t.shortName);
      }
      if (sample.labels.operation && sample.name.startsWith('http_')) expect(known.has(sample.labels.operation), sample.labels.operation).toBe(true);
    }
    expect(text).not.toContain(t.admin.email);
  });
});

describe('/metrics: the endpoint', () => {
  it('GET and HEAD in the Prometheus text format; query parameters change nothing; no cache', async () => {
    const got = await scrape(`${metricsUrl()}?name[]=nodejs_version_info&format=json`);
    expect(got.status).toBe(200);
    expect(got.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(got.samples.some((s) => s.name === 'http_server_request_duration_seconds_bucket')).toBe(true);
    const head = await fetch(metricsUrl(), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(await head.text()).toBe('');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 with the error body and Allow: GET, HEAD', async (method) => {
    const res = await call(app, method, metricsUrl(), { body: { any: 'thing' } });
    expectError(res, 405, { errors: [`Request method '${method}' is not supported`] });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('only /metrics itself: /metrics/ and /metricsx are unknown paths', async () => {
    for (const path of ['/metrics/', '/metricsx', '/Metrics']) expectError(await call(app, 'GET', `${app.url}${path}`), 404);
  });
});

describe('METRICS_PORT', () => {
  let own: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    own = await startTestApp({ metricsPort: port });
  }, 60_000);
  afterAll(async () => { await own?.stop(); });

  it('serves /metrics on that port only, and nothing else there', async () => {
    expect(own.metricsPort).toBe(port);
    expectError(await call(own, 'GET', `${own.url}/metrics`), 404);
    expect((await call(own, 'GET', '/info')).status).toBe(200);
    const scraped = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(valueOf(scraped.samples, 'http_server_request_duration_seconds_count', { operation: 'getInfo' })).toBeGreaterThanOrEqual(1);
    expectError(await call(own, 'GET', `http://127.0.0.1:${port}/api/info`), 404);
    expectError(await call(own, 'DELETE', `http://127.0.0.1:${port}/metrics`), 405);
  });
});
