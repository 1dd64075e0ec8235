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
    const field = clashField(collidingColumns(err).at(-1));
    return new ConflictError(field ? `${field}: already taken by another resource` : 'A resource with the same unique value already exists');
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

/**
 * The field a client sends for the column a unique index ends with (models/db-errors), where no check of the
 * request named the clash in its own words: never a column's name (`environment_uid`, `name_key`) or its
 * attribute's (`environmentUid`). The audit sequence is no client's value.
 */
const CLASH_FIELDS: Record<string, string> = {
  application_id_key: 'applicationId', plugin_class_key: 'pluginClass', environment_uid: 'environment', short_name_key: 'shortName',
  federated_subject: 'federatedSubject', access_type: 'accessType', version_key: 'version', short_name: 'shortName',
  email_key: 'emailAddress', client_id: 'clientId', name_key: 'name', open_key: 'environment', identity: 'principal',
  username: 'username', type: 'type',
};

export const clashField = (column: string | undefined): string | undefined => (column ? CLASH_FIELDS[column] : undefined);

export function sendError(req: IncomingMessage, res: ServerResponse, error: HttpError): void {
  if (res.headersSent) { res.end(); return; }
  res.statusCode = error.status;
  for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/hal+json;charset=UTF-8');
  const payload = JSON.stringify(error.toBody());
  if (req.method === 'HEAD') { res.end(); return; }
  res.end(payload);
}
