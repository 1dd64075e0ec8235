/**
 * server/app serves a request whose parameters cannot fail with the validator's compiled body check alone. That is
 * only right if, for every operation that takes a JSON body, the body check answers exactly what the whole
 * validator answers for the same body: the same errors, in the same order, and none where it has none.
 */
import { describe, expect, it } from 'vitest';
import { requestValidatorApi } from '../../server/app';
import { spec } from '../../core/spec';

const UID = '0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f';
const METHODS = ['post', 'put', 'patch', 'delete'] as const;

/**
 * Bodies every schema has an answer for: wrong types, empty, unknown and misspelt fields, nulls, deep values. Only
 * parsed objects, arrays and null take the body check alone (a JSON string, number or boolean goes through the whole
 * validator, as does a request without a body).
 */
const BODIES: unknown[] = [
  {}, [], null, { name: 7 }, { name: null }, { name: '' }, { name: 'x'.repeat(300) },
  { unknownField: 1 }, { description: { nested: true } }, { properties: { a: 1 } }, { owners: 12, keyType: 'NOPE' },
  [{ uid: UID }], { name: 'ok', shortName: 'ok', members: ['x'] }, { status: 'Approved', comment: 3 },
];

describe('the body check alone answers what the whole validator answers', async () => {
  const api = requestValidatorApi('/api');
  await api.init();
  const withBody = Object.entries(spec.paths as Record<string, Record<string, { operationId?: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>)
    .flatMap(([path, item]) => METHODS.filter((m) => item[m]?.requestBody?.content?.['application/json']?.schema !== undefined)
      .map((m) => ({ path: `/api${path.replace(/\{[^}]+\}/g, UID)}`, method: m.toUpperCase(), operationId: item[m]!.operationId! })));

  it('there are operations with JSON bodies to compare', () => {
    expect(withBody.length).toBeGreaterThan(50);
  });

  it.each(withBody)('$operationId', ({ path, method, operationId }) => {
    const [checkBody] = api.validator.getRequestValidatorsForOperation(operationId);
    for (const body of BODIES) {
      const whole = api.validator.validateRequest({ method, path, headers: { 'content-type': 'application/json' }, body }, operationId);
      checkBody({ requestBody: body });
      expect(checkBody.errors ?? null, JSON.stringify(body)).toEqual(whole.errors);
    }
  });
});
