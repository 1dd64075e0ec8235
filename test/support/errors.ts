/**
 * The one error matcher of the tests. Every API failure answers the same body, as application/hal+json:
 * `{ status, message, errors, subErrors }`, `status` the reason phrase of the HTTP code, `errors` at least one line,
 * `subErrors` null or the field-level entries.
 */
import { expect } from 'vitest';

/** The reason phrase of each HTTP status the API answers, written out here so the tests do not read it from the code. */
const REASON: Record<number, string> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE', 408: 'REQUEST_TIMEOUT', 409: 'CONFLICT', 412: 'PRECONDITION_FAILED', 413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG', 415: 'UNSUPPORTED_MEDIA_TYPE', 422: 'UNPROCESSABLE_ENTITY', 431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  500: 'INTERNAL_SERVER_ERROR', 502: 'BAD_GATEWAY', 503: 'SERVICE_UNAVAILABLE',
};

/** The body of an unreadable or wrongly shaped JSON request. */
export const BAD_BODY = {
  status: 'BAD_REQUEST', message: 'Bad request',
  errors: ['Invalid request body. Please check API docs for building correct request.'], subErrors: null,
};

/** A reply as `call` answers it, or as a raw socket client does (headers as a plain object, the body as text). */
export interface ErrorReply { status: number; headers: Headers | Record<string, unknown>; body?: any; text?: string }

export interface ExpectedError {
  /** The `message`, exactly. */
  message?: string;
  /** The `errors`, exactly and in order. */
  errors?: string[];
  /** One of the `errors` names this field (`field: …`). */
  field?: string;
  /** The `subErrors`, exactly (`null` where no field is to blame). */
  subErrors?: unknown;
}

/** Asserts the status and the error body's shape, and what `expected` names; answers the body. */
export function expectError(res: ErrorReply, status: number, expected: ExpectedError = {}): any {
  const body = res.body ?? (res.text ? JSON.parse(res.text) : undefined);
  expect(res.status, res.text ?? JSON.stringify(body)).toBe(status);
  const type = res.headers instanceof Headers ? res.headers.get('content-type') : res.headers['content-type'];
  expect(type).toMatch(/^application\/hal\+json/);
  expect(Object.keys(body).sort()).toEqual(['errors', 'message', 'status', 'subErrors']);
  expect(REASON[status], `no reason phrase known for ${status}`).toBeDefined();
  expect(body.status).toBe(REASON[status]);
  expect(typeof body.message).toBe('string');
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const e of body.errors) expect(typeof e).toBe('string');
  expect(body.subErrors === null || Array.isArray(body.subErrors)).toBe(true);
  if (expected.message !== undefined) expect(body.message).toBe(expected.message);
  if (expected.errors) expect(body.errors).toEqual(expected.errors);
  if ('subErrors' in expected) expect(body.subErrors).toEqual(expected.subErrors);
  if (expected.field) expect(body.errors.some((e: string) => e.startsWith(`${expected.field}: `)), JSON.stringify(body.errors)).toBe(true);
  return body;
}

/** A 400 whose validation entries name exactly `fields`, in order, in `errors` and in `subErrors`. */
export function expectFieldErrors(res: ErrorReply, fields: string[]): any {
  const body = expectError(res, 400);
  expect(body.errors.map((e: string) => e.split(':')[0])).toEqual(fields);
  expect(body.subErrors.map((s: { field: string }) => s.field)).toEqual(fields);
  return body;
}

/**
 * A 401 and its challenge: `invalid_token` when a token was sent and refused, a bare `Bearer` challenge when none
 * was sent.
 */
export function expectUnauthorized(res: ErrorReply & { headers: Headers }, challenge: 'invalid_token' | 'bare' = 'invalid_token'): any {
  const body = expectError(res, 401, { message: 'Unauthorized' });
  expect(body.subErrors).toBeNull();
  const header = res.headers.get('www-authenticate') ?? '';
  if (challenge === 'invalid_token') expect(header).toBe('Bearer error="invalid_token"');
  else expect(header).toBe('Bearer');
  return body;
}
