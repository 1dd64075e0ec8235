/**
 * The one place where failures become the docs/contract.md §2 body. Stack traces and SQL never reach a client; the
 * failure behind a 5xx reaches the request's log line (server/telemetry/requests).
 */
import { collidingColumns, isConnectionLost, isDeadlock } from '../models/db-errors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ConnectionError, ForeignKeyConstraintError, OptimisticLockError, TimeoutError, UniqueConstraintError,
} from 'sequelize';
import { ConflictError, HttpError, ServiceUnavailableError, UnprocessableError } from '../core/errors';

export function errorReply(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const clientError = httpClientError(err);
  if (clientError) return clientError;
  if (err instanceof ConnectionError || err instanceof TimeoutError || isConnectionLost(err)) return new ServiceUnavailableError();
  if (err instanceof UniqueConstraintError) {
    const field = collidingColumns(err).map(wireName)[0];
    return new ConflictError(field ? `${field}: already exists` : 'A resource with the same unique value already exists');
  }
  if (err instanceof OptimisticLockError) return new ConflictError('The resource was changed by a concurrent update; reload and retry');
  if (isDeadlock(err)) return new ConflictError('The request collided with a concurrent one; retry it');
  if (err instanceof ForeignKeyConstraintError) return new UnprocessableError('The resource is in use by other resources');
  return new HttpError(500, 'Internal server error', ['Internal server error']);
}

/**
 * Express and its parsers mark the client's mistakes with a 4xx `status` (an undecodable route parameter, a
 * malformed form body); those are the client's errors, not 500s.
 */
function httpClientError(err: unknown): HttpError | undefined {
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499 || !(err instanceof Error)) return undefined;
  return new HttpError(status, undefined, [err.message.slice(0, 200)]);
}

/** `short_name_key` → `shortName`. */
function wireName(column: string): string {
  return column.replace(/_key$/, '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: HttpError): void {
  if (res.headersSent) { res.end(); return; }
  res.statusCode = error.status;
  for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/hal+json;charset=UTF-8');
  const payload = JSON.stringify(error.toBody());
  if (req.method === 'HEAD') { res.end(); return; }
  res.end(payload);
}
