/**
 * What every request leaves behind: its duration in the request histogram, the in-flight gauge while it runs, one
 * log line when it ends (operationId, status, duration, request id, trace id; the error of a 5xx) and, with tracing
 * on, its server span. The few values a request needs are kept on its response object and one shared listener ends
 * it, so a request costs a histogram observation and nothing else is allocated unless tracing is on or the line is
 * logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, type Span } from '@opentelemetry/api';
import { BaseError } from 'sequelize';
import { HttpError } from '../../core/errors';
import { logger, logRequest } from '../../core/logger';
import { requestBegan, requestEnded, requestObserved } from './metrics';
import { endRequestSpan, startRequestSpan, tracingOn } from './tracing';
import { readableStack } from '../../core/readable-stack';

const STARTED = Symbol('request started');
const OPERATION = Symbol('request operation');
const REQUEST_ID = Symbol('request id');
const FAILURE = Symbol('request failure');
const SPAN = Symbol('request span');

interface Observed extends ServerResponse {
  [STARTED]: number;
  [OPERATION]: string | undefined;
  [REQUEST_ID]: string;
  [FAILURE]: unknown;
  [SPAN]: Span | undefined;
}

export type Serve = (req: IncomingMessage, res: ServerResponse, requestId: string) => void;

/** Serves a request under observation: `serve` runs at once, inside the request's span when tracing is on. */
export function observeRequest(req: IncomingMessage, res: ServerResponse, requestId: string, serve: Serve): void {
  const observed = res as Observed;
  observed[STARTED] = performance.now();
  observed[OPERATION] = undefined;
  observed[REQUEST_ID] = requestId;
  observed[FAILURE] = undefined;
  observed[SPAN] = undefined;
  requestBegan();
  res.on('close', ended);
  if (!tracingOn()) {
    serve(req, res, requestId);
    return;
  }
  const traced = startRequestSpan(req, pathOf(req.url));
  observed[SPAN] = traced.span;
  context.with(traced.context, serve, undefined, req, res, requestId);
}

/** The request is the operation `name` (its operationId; `metrics` for /metrics). */
export function nameRequest(res: ServerResponse, name: string): void {
  (res as Observed)[OPERATION] = name;
}

/** The failure behind a 5xx answer, for its log line and span. */
export function requestFailed(res: ServerResponse, err: unknown): void {
  (res as Observed)[FAILURE] = err;
}

function ended(this: ServerResponse): void {
  const res = this as Observed;
  requestEnded();
  const seconds = (performance.now() - res[STARTED]) / 1000;
  // A request the client gave up on before its answer was sent counts as status 0 (`aborted`).
  const status = res.writableFinished ? res.statusCode : 0;
  const method = res.req?.method ?? 'GET';
  const operation = res[OPERATION] ?? nameOutsideApi(urlOf(res.req));
  requestObserved(operation, method, status, seconds);
  const span = res[SPAN];
  if (span) endRequestSpan(span, operation, status, res[REQUEST_ID], res[FAILURE]);
  const level = status === 500 ? 'error' : status > 500 || status === 0 ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const traceId = span ? span.spanContext().traceId : callerTraceId(res.req);
  logRequest(level, {
    requestId: res[REQUEST_ID], operationId: operation, method, path: pathOf(urlOf(res.req)), status,
    durationMs: Math.round(seconds * 1e4) / 10, traceId: traceId || undefined,
    error: res[FAILURE] !== undefined ? summary(res[FAILURE]) : undefined,
  }, status === 0 ? 'request abandoned' : 'request');
}

/**
 * A request no operation answered: the embedded issuer's endpoints by name, anything else `unmatched`. Fixed
 * names, so a metric label never holds a path.
 */
function nameOutsideApi(url: string | undefined): string {
  const path = pathOf(url);
  if (!path.startsWith('/auth/')) return 'unmatched';
  if (path.endsWith('/protocol/openid-connect/token')) return 'issuerToken';
  if (path.endsWith('/protocol/openid-connect/certs')) return 'issuerCerts';
  if (path.endsWith('/.well-known/openid-configuration')) return 'issuerDiscovery';
  if (path.endsWith('/protocol/openid-connect/auth')) return 'issuerAuthorize';
  if (path.endsWith('/login-actions/authenticate')) return 'issuerSignIn';
  if (path.endsWith('/protocol/openid-connect/userinfo')) return 'issuerUserinfo';
  if (path.endsWith('/protocol/openid-connect/logout')) return 'issuerLogout';
  if (path.endsWith('/protocol/openid-connect/revoke')) return 'issuerRevoke';
  return 'unmatched';
}

/** The URL as it arrived: Express rewrites `url` below a mount point and keeps the original. */
const urlOf = (req: IncomingMessage | undefined): string | undefined => (req as { originalUrl?: string } | undefined)?.originalUrl ?? req?.url;

function pathOf(url: string | undefined): string {
  const query = url?.indexOf('?') ?? -1;
  return (query >= 0 ? url!.slice(0, query) : url) ?? '/';
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Without tracing, the trace id the caller sent (W3C `traceparent`), so its line still joins the caller's trace. */
function callerTraceId(req: IncomingMessage | undefined): string | undefined {
  const header = req?.headers.traceparent;
  const id = typeof header === 'string' ? TRACEPARENT.exec(header.trim())?.[1] : undefined;
  return id === undefined || /^0+$/.test(id) ? undefined : id;
}

/**
 * What a log line says of a failure: its kind, message and, for an unexpected error, where it happened. An answer
 * we chose (a provider or the database unreachable) needs no stack; the database driver's errors keep only kind
 * and message: their other fields carry the statement and its values.
 */
function summary(err: unknown): Record<string, unknown> {
  if (err instanceof BaseError || err instanceof HttpError) return { type: err.name, message: err.message };
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack === undefined ? undefined : readableStack(err.stack) };
  return { type: typeof err };
}
