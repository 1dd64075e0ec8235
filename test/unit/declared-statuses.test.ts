/**
 * The statuses the adapter (server/app, server/body, server/request-target) can answer for an operation, read off
 * the operation's shape, are declared by it. The statuses of handlers (409, 422, …) are checked by the integration
 * tests instead: with VALIDATE_RESPONSES an undeclared 4xx answers 500 there.
 */
import { describe, expect, it } from 'vitest';
import { spec } from '../../core/spec';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const MUTATING = new Set(['put', 'post', 'patch', 'delete']);

interface Operation { operationId: string; security?: unknown[]; requestBody?: unknown; parameters?: { $ref?: string }[]; responses: Record<string, unknown> }

const operations = Object.entries<Record<string, Operation>>(spec.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method] })));

/** Each status with why the adapter can answer it. */
function expectedStatuses(path: string, method: string, operation: Operation): Record<string, string> {
  const expected: Record<string, string> = {
    400: 'an ill-formed percent-encoding or a NUL in the path or the query',
    413: 'a body over MAX_BODY_BYTES, read or drained',
  };
  if (!(Array.isArray(operation.security) && operation.security.length === 0)) expected[401] = 'no or a bad token';
  if (MUTATING.has(method)) expected[403] = 'the XSRF cookie without its header';
  if (operation.requestBody) expected[415] = 'a body of another media type';
  if (path.includes('{')) expected[404] = 'a path value that names nothing';
  if ((operation.parameters ?? []).some((p) => p.$ref === '#/components/parameters/ifMatch')) expected[412] = 'a stale If-Match';
  return expected;
}

describe('every operation declares the statuses of the adapter', () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o]))('%s', (_name, { path, method, operation }) => {
    const expected = expectedStatuses(path, method, operation);
    const missing = Object.entries(expected).filter(([status]) => !(status in operation.responses)).map(([s, why]) => `${s} (${why})`);
    expect(missing).toEqual([]);
  });
});
