/**
 * Issue 30: traces, with the OpenTelemetry SDK started as `npm start` starts it when tracing is on, exporting to an
 * in-memory exporter. One request is one server span named by its operationId, a child of the caller's
 * `traceparent`, with one child span per database statement; its log lines carry its trace id; a provider call is a
 * child span whose context travels in the `traceparent` the loopback fakes receive.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { logger } from '../../core/logger';
import { schemaRegistryClient } from '../../providers/schema-registry';
import { startTracing, type Tracing } from '../../server/telemetry/tracing-sdk';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';
import { startFakeConfluentCloud, type FakeConfluentCloud } from '../support/fake-confluent-cloud';
import { startFakeRegistry, type FakeRegistry } from '../support/fake-registry';
import { call } from '../support/http';
import { startLogCapture } from '../support/log-capture';

const AIVEN_TOKEN = 'tracing-aiven-token-0001';
const CC_KEY = 'TRACINGKEY000001';
const CC_SECRET = `tracingCcSecret0001${'t'.repeat(45)}`;

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let app: TestApp;
let t: TestTenant;
let aiven: FakeAiven;
let cloud: FakeConfluentCloud;
let registry: FakeRegistry;
let statements = 0;

beforeAll(async () => {
  tracing = await startTracing({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  aiven = await startFakeAiven({ token: AIVEN_TOKEN, projects: { acme: [{ name: 'kafka-prod', type: 'kafka', uri: 'kafka-prod.example:1234' }] } });
  cloud = await startFakeConfluentCloud({ apiKey: CC_KEY, secret: CC_SECRET, environments: [{ id: 'env-1', kafkaClusters: [{ id: 'lkc-1', bootstrap: 'SASL_SSL://pkc-1.example:9092' }] }] });
  registry = await startFakeRegistry({ subjects: { 'orders-value': [{ version: 1, schema: '{"type":"string"}' }] } });
  ({ app, t } = await startWithTenant('tracing', { aivenApiUrl: aiven.url, confluentCloudApiUrl: cloud.url }));
  app.models.sequelize.addHook('afterQuery', () => { statements += 1; });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([aiven?.close(), cloud?.close(), registry?.close()]);
  await tracing?.stop();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A caller's W3C trace context: a new trace id and the id of the caller's own span. */
function callerContext() {
  const traceId = hex(16);
  const parentId = hex(8);
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
}

/** The finished spans of a trace, once its server span has ended (it ends when the response is done). */
async function traceOf(traceId: string): Promise<{ server: ReadableSpan; spans: ReadableSpan[] }> {
  for (const until = Date.now() + 10_000; ;) {
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    if (server) return { server, spans };
    if (Date.now() > until) throw new Error(`no server span of trace ${traceId}: ${spans.map((s) => s.name).join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const childrenOf = (parent: ReadableSpan, spans: ReadableSpan[]) => spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const attributeText = (spans: ReadableSpan[]) => JSON.stringify(spans.map((s) => [s.name, s.attributes]));

describe('traces', () => {
  it('one request: a server span named by its operationId below the caller\'s span, one child span per statement', async () => {
    const caller = callerContext();
    const before = statements;
    const res = await call(app, 'GET', '/user', { token: t.admin.token, headers: { traceparent: caller.header } });
    expect(res.status).toBe(200);
    const sent = statements - before;
    const { server, spans } = await traceOf(caller.traceId);

    expect(server.name).toBe('getCurrentUser');
    expect(server.parentSpanContext?.spanId).toBe(caller.parentId);
    expect(server.attributes['http.response.status_code']).toBe(200);
    expect(server.attributes['http.request.method']).toBe('GET');
    expect(server.attributes['request.id']).toBe(res.headers.get('x-request-id'));

    const database = childrenOf(server, spans).filter((s) => s.attributes['db.system'] !== undefined);
    expect(sent).toBeGreaterThan(0);
    expect(database).toHaveLength(sent);
    expect(spans).toHaveLength(1 + sent);
    for (const span of database) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.name).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|SET|OTHER)( [a-z_]+)?$/);
      expect(span.attributes['db.system']).toBe(app.models.sequelize.getDialect() === 'postgres' ? 'postgresql' : app.models.sequelize.getDialect());
      expect(Object.keys(span.attributes).filter((k) => /statement|query/.test(k))).toEqual([]);
    }
    // No SQL text, no bound value: the caller's e-mail address and tenant appear in no span.
    expect(attributeText(spans)).not.toMatch(/WHERE|FROM/i);
    expect(attributeText(spans)).not.toContain(t.admin.email);
    expect(attributeText(spans)).not.toContain(t.shortName);
  });

  it('without a caller\'s traceparent the request starts a trace of its own; a write has its statements below it too', async () => {
    const res = await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Traced Team' } });
    expect(res.status).toBe(201);
    const requestId = res.headers.get('x-request-id');
    let server: ReadableSpan | undefined;
    for (const until = Date.now() + 10_000; !server && Date.now() < until; await new Promise((r) => setTimeout(r, 10))) {
      server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['request.id'] === requestId);
    }
    expect(server?.name).toBe('createGroup');
    expect(server?.parentSpanContext).toBeUndefined();
    const { spans } = await traceOf(server!.spanContext().traceId);
    const names = childrenOf(server!, spans).map((s) => s.name.split(' ')[0]);
    expect(names).toContain('INSERT');
    expect(names).toContain('COMMIT');
  });

  it('every log line of the request carries its trace id', async () => {
    const caller = callerContext();
    const capture = startLogCapture();
    app.models.sequelize.addHook('afterQuery', 'probe', () => { logger.info({ probe: 'statement' }, 'a line logged while the request runs'); });
    try {
      const res = await call(app, 'GET', '/user', { token: t.admin.token, headers: { traceparent: caller.header } });
      expect(res.status).toBe(200);
      const { server } = await traceOf(caller.traceId);
      const requestId = res.headers.get('x-request-id');
      const lines = capture.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const probes = lines.filter((l) => l.probe === 'statement');
      const request = lines.filter((l) => l.requestId === requestId);
      expect(probes.length).toBeGreaterThan(0);
      expect(request).toHaveLength(1);
      expect(request[0]).toMatchObject({ operationId: 'getCurrentUser', status: 200, traceId: caller.traceId, msg: 'request' });
      expect(typeof request[0].durationMs).toBe('number');
      for (const line of [...probes, ...request]) expect(line.traceId, JSON.stringify(line)).toBe(caller.traceId);
      for (const line of probes) expect(line.spanId).toBe(server.spanContext().spanId);
    } finally {
      app.models.sequelize.removeHook('afterQuery', 'probe');
      capture.stop();
    }
  });

  it.each([
    ['AIVEN', () => aiven.requests, { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': AIVEN_TOKEN }],
    ['CONFLUENT_CLOUD', () => cloud.requests, { 'Svc-Provider-Type': 'CONFLUENT_CLOUD', 'Svc-Api-Key-C': CC_KEY, 'Svc-Secret-C': CC_SECRET }],
  ] as const)('a call to %s is a child span, and its traceparent reaches the provider', async (provider, received, fields) => {
    const caller = callerContext();
    const before = received().length;
    const res = await call(app, 'POST', '/providers/validateCredentials', { token: t.admin.token, body: fields, headers: { traceparent: caller.header } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.credentialsValid).toBe(true);
    const { server, spans } = await traceOf(caller.traceId);
    expect(server.name).toBe('validateProviderCredentials');
    const calls = childrenOf(server, spans).filter((s) => s.attributes['provider.name'] === provider);
    const arrived = received().slice(before);
    expect(arrived.length).toBeGreaterThan(0);
    expect(calls).toHaveLength(arrived.length);
    for (const span of calls) {
      expect(span.name).toBe(`${provider} GET`);
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes['provider.outcome']).toBe('ok');
      expect(span.attributes['http.response.status_code']).toBe(200);
    }
    // Each request the provider received names the trace and, as its parent, one of the call spans.
    const callIds = new Set(calls.map((s) => s.spanContext().spanId));
    for (const request of arrived) {
      const [version, traceId, parentId, flags] = (request.traceparent ?? '').split('-');
      expect([version, traceId, flags]).toEqual(['00', caller.traceId, '01']);
      expect(callIds.has(parentId)).toBe(true);
    }
    expect(attributeText(spans)).not.toContain(provider === 'AIVEN' ? AIVEN_TOKEN : CC_SECRET);
  });

  it('a schema registry call made inside a span carries that trace to the registry', async () => {
    const tracer = trace.getTracer('tracing-test');
    const { traceId, spanId } = await tracer.startActiveSpan('caller', async (root) => {
      expect(await schemaRegistryClient({ url: registry.url, protocol: 'No-Auth', caValidation: false }, 2_000).subjects()).toEqual(['orders-value']);
      root.end();
      return root.spanContext();
    });
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const [call] = spans.filter((s) => s.parentSpanContext?.spanId === spanId);
    expect(call.name).toBe('APACHE_KAFKA GET');
    const [request] = registry.requests.slice(-1);
    expect(request.traceparent).toBe(`00-${traceId}-${call.spanContext().spanId}-01`);
  });
});
