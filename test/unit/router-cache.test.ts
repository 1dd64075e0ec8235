import { OpenAPIBackend } from 'openapi-backend';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cacheRouting } from '../../server/router-cache';

const definition = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

async function router(cached: boolean) {
  const api = new OpenAPIBackend({ definition: structuredClone(definition), apiRoot: '/api', quick: true, validate: false });
  await api.init();
  if (cached) cacheRouting(api);
  return api.router;
}

describe('cached routing', () => {
  const requests: Array<[string, string]> = [
    ['GET', '/api/users'], ['GET', '/api/user'], ['POST', '/api/users'], ['GET', '/api/clusters/0123456789abcdef0123456789abcdef'],
    ['PATCH', '/api/clusters/0123456789abcdef0123456789abcdef'], ['GET', '/api/clusters/search/findByName'],
    ['GET', '/api/groups/0123456789abcdef0123456789abcdef/members/fedcba9876543210fedcba9876543210'],
    ['POST', '/api/environments/0123456789abcdef0123456789abcdef/synchronize'], ['GET', '/api/'],
  ];

  it('answers the same operation as the library, the first time and when remembered', async () => {
    const plain = await router(false);
    const fast = await router(true);
    for (const [method, path] of requests) {
      const expected = plain.matchOperation({ method, path, headers: {} } as never)?.operationId;
      expect(expected, `${method} ${path}`).toBeDefined();
      for (let i = 0; i < 2; i++) expect(fast.matchOperation({ method, path, headers: {} } as never)?.operationId, `${method} ${path}`).toBe(expected);
    }
  });

  it('answers like the library for every operation of the document, with ids, trailing slashes and other methods', async () => {
    const plain = await router(false);
    const fast = await router(true);
    const id = '0123456789abcdef0123456789abcdef';
    const outcome = (r: typeof plain, method: string, path: string) => {
      try {
        return r.matchOperation({ method, path, headers: {} } as never, true)?.operationId;
      } catch (e) {
        return String((e as Error).message).slice(0, 3);
      }
    };
    let compared = 0;
    for (const op of plain.getOperations()) {
      const concrete = `/api${op.path.replace(/\{[^}]+\}/g, id)}`;
      for (const path of [concrete, `${concrete}/`, concrete.replace(id, 'search')]) {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
          expect(outcome(fast, method, path), `${method} ${path}`).toBe(outcome(plain, method, path));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('keeps 404 and 405 answers (nothing is remembered for them)', async () => {
    const fast = await router(true);
    for (let i = 0; i < 2; i++) {
      expect(() => fast.matchOperation({ method: 'GET', path: '/api/nothing-here', headers: {} } as never, true)).toThrow(/404/);
      expect(() => fast.matchOperation({ method: 'DELETE', path: '/api/user', headers: {} } as never, true)).toThrow(/405/);
      expect(fast.matchOperation({ method: 'GET', path: '/api/nothing-here', headers: {} } as never)).toBeUndefined();
    }
  });
});
