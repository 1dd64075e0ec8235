/** Typed errors; one middleware (server/error-body) serialises them to the docs/contract.md §2 body. */

export interface SubError { field: string; message: string; rejectedValue?: unknown }

const REASONS: Record<number, string> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE', 408: 'REQUEST_TIMEOUT', 409: 'CONFLICT', 412: 'PRECONDITION_FAILED', 413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG', 415: 'UNSUPPORTED_MEDIA_TYPE', 422: 'UNPROCESSABLE_ENTITY', 431: 'REQUEST_HEADER_FIELDS_TOO_LARGE', 500: 'INTERNAL_SERVER_ERROR', 502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** `BAD_REQUEST` → `Bad request`: the default message is the status in words. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}
export function defaultMessage(status: number): string {
  const words = reasonPhrase(status).toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly errors: string[] = [],
    readonly subErrors: SubError[] | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? defaultMessage(status));
  }

  toBody() {
    return {
      status: reasonPhrase(this.status),
      message: this.message,
      errors: this.errors.length > 0 ? this.errors : [this.message],
      subErrors: this.subErrors,
    };
  }
}

export const BAD_BODY = 'Invalid request body. Please check API docs for building correct request.';

export class BadRequestError extends HttpError {
  constructor(errors: string[] = [], subErrors: SubError[] | null = null, message = 'Bad request') {
    super(400, message, errors, subErrors);
  }
}
export class BadBodyError extends HttpError {
  constructor() { super(400, 'Bad request', [BAD_BODY], null); }
}
export class UnauthorizedError extends HttpError {
  constructor(reason = 'Full authentication is required to access this resource', tokenSent = false) {
    super(401, 'Unauthorized', [reason], null, {
      'WWW-Authenticate': tokenSent ? 'Bearer error="invalid_token"' : 'Bearer',
    });
  }
}
export class ForbiddenError extends HttpError {
  constructor(reason = 'Access is denied') { super(403, 'Forbidden', [reason]); }
}
export class NotFoundError extends HttpError {
  constructor(reason = 'Resource not found') { super(404, 'Not found', [reason]); }
}
export class MethodNotAllowedError extends HttpError {
  constructor(allowed: string[], method: string) {
    super(405, 'Method not allowed', [`Request method '${method}' is not supported`], null, { Allow: allowed.join(', ') });
  }
}
export class ConflictError extends HttpError {
  constructor(reason: string) { super(409, 'Conflict', [reason]); }
}
export class PreconditionFailedError extends HttpError {
  constructor(reason = 'The resource was modified since the given ETag') { super(412, 'Precondition failed', [reason]); }
}
export class UnprocessableError extends HttpError {
  constructor(reason: string | string[]) {
    const list = Array.isArray(reason) ? reason : [reason];
    super(422, list.length === 1 ? list[0] : 'Unprocessable entity', list);
  }
}
/** Seconds a client waits before sending again: a restarted or failed-over database usually answers by then. */
export const RETRY_AFTER_SECONDS = 2;

export class ServiceUnavailableError extends HttpError {
  constructor(reason = 'The database is not reachable') { super(503, 'Service unavailable', [reason], null, { 'Retry-After': String(RETRY_AFTER_SECONDS) }); }
}
