/**
 * Traces, through @opentelemetry/api only (the SDK is started apart, by server/telemetry/tracing-sdk, and only when
 * tracing is on): a server span per request named by its operationId, a child span per database statement and per
 * provider call (core/observe), `traceparent` taken from requests and sent on provider calls, and the trace id on
 * every log line of the request. Until `enableTraces` nothing here runs, so no span object is ever made.
 *
 * Span attributes are bounded and public: no SQL text or bound values, no request or provider headers, no query string.
 */
import type { IncomingMessage } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { addObserver, type Observer } from '../../core/observe';
import { setLogLineFields } from '../../core/logger';

let tracer: Tracer | undefined;

export const tracingOn = (): boolean => tracer !== undefined;

const observer: Observer = {
  statement(kind, table, system, startedAt, endedAt) {
    const span = tracer!.startSpan(table ? `${kind} ${table}` : kind, {
      kind: SpanKind.CLIENT,
      startTime: startedAt,
      attributes: { 'db.system': system, 'db.system.name': system, 'db.operation.name': kind, ...(table ? { 'db.collection.name': table } : {}) },
    });
    span.end(endedAt);
  },
  providerCall(call, startedAt) {
    const span = tracer!.startSpan(`${call.provider} ${call.method}`, {
      kind: SpanKind.CLIENT,
      startTime: startedAt,
      attributes: { 'provider.name': call.provider, 'server.address': call.host, ...(call.headers ? { 'http.request.method': call.method } : {}) },
    });
    if (call.headers) propagation.inject(trace.setSpan(context.active(), span), call.headers);
    return (outcome, endedAt, status) => {
      span.setAttribute('provider.outcome', outcome);
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (outcome !== 'ok' && outcome !== 'client_error') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(endedAt);
    };
  },
};

/** The trace and span a log line belongs to: the active span's, if any. */
function lineFields(): Record<string, unknown> | undefined {
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/** Spans from now on, through the tracer provider registered with @opentelemetry/api; the answer stops them. */
export function enableTraces(): () => void {
  tracer = trace.getTracer('platform-management-service');
  const detach = addObserver(observer);
  setLogLineFields(lineFields);
  return () => {
    tracer = undefined;
    detach();
    setLogLineFields(undefined);
  };
}

/**
 * The server span of a request, a child of the caller's `traceparent` when it sends one, and the context to serve
 * the request in. Named by its method until routing knows the operation (`nameSpan`).
 */
export function startRequestSpan(req: IncomingMessage, path: string): { span: Span; context: Context } {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer!.startSpan(req.method ?? 'GET', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': req.method ?? 'GET', 'url.path': path },
  }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export function endRequestSpan(span: Span, name: string, status: number, requestId: string, error: unknown): void {
  span.updateName(name);
  span.setAttribute('http.response.status_code', status);
  span.setAttribute('request.id', requestId);
  if (status >= 500 || status === 0) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    if (error !== undefined) span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
  }
  span.end();
}
