import { describe, expect, it } from 'vitest';
import { DatabaseError, UniqueConstraintError } from 'sequelize';
import { rerunOnConflict, retryOnConflict, type RetryOptions } from '../../handlers/_lib/conflict-retry';
import type { Handler } from '../../handlers/_lib/reply';
import { withPrecheck } from '../../handlers/_lib/reply';
import type { RequestContext } from '../../core/context';

/** A Galera certification failure as Sequelize hands it over: errno 1213 on the driver's error. */
const collision = () => new DatabaseError(Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { errno: 1213, code: 'ER_LOCK_DEADLOCK', sqlState: '40001' }) as never);

function counting(failures: unknown[]) {
  const pauses: number[] = [];
  const options: RetryOptions = { attempts: 3, pause: async (attempt) => { pauses.push(attempt); } };
  let runs = 0;
  const run = async () => {
    const failure = failures[runs++];
    if (failure) throw failure;
    return 'done';
  };
  return { options, run, runs: () => runs, pauses };
}

describe('retryOnConflict', () => {
  it('runs a collided transaction again, pausing before each further run', async () => {
    const c = counting([collision(), collision()]);
    await expect(retryOnConflict(c.run, c.options)).resolves.toBe('done');
    expect(c.runs()).toBe(3);
    expect(c.pauses).toEqual([2, 3]);
  });

  it('answers the collision after the bounded number of runs', async () => {
    const c = counting([collision(), collision(), collision(), collision()]);
    await expect(retryOnConflict(c.run, c.options)).rejects.toBeInstanceOf(DatabaseError);
    expect(c.runs()).toBe(3);
  });

  it.each([
    ['a unique clash', new UniqueConstraintError({ message: 'dup' })],
    ['a lost connection', new DatabaseError(Object.assign(new Error('gone'), { code: 'ECONNRESET' }) as never)],
    ['a refusal of the request', new Error('not found')],
  ])('does not run again after %s', async (_what, failure) => {
    const c = counting([failure]);
    await expect(retryOnConflict(c.run, c.options)).rejects.toBe(failure);
    expect(c.runs()).toBe(1);
  });
});

describe('rerunOnConflict', () => {
  const options: RetryOptions = { attempts: 3, pause: async () => undefined };
  const ctx = (method: string, extra: Partial<RequestContext> = {}) => ({ method, ...extra }) as RequestContext;
  const collidingOnce = () => {
    let runs = 0;
    const handler: Handler = async () => {
      if (runs++ === 0) throw collision();
      return { status: 204 };
    };
    return { handler, runs: () => runs };
  };

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('re-runs a %s whose transaction collided', async (method) => {
    const h = collidingOnce();
    const { op } = rerunOnConflict({ op: h.handler }, [], options);
    await expect(op(ctx(method))).resolves.toEqual({ status: 204 });
    expect(h.runs()).toBe(2);
  });

  it('re-runs a write that met a concurrent request\'s row at a unique index, so its own checks answer the 409', async () => {
    let runs = 0;
    const handler: Handler = async () => {
      if (runs++ === 0) throw new UniqueConstraintError({ message: 'dup' });
      return { status: 409 };
    };
    const { op } = rerunOnConflict({ op: handler }, [], options);
    await expect(op(ctx('POST'))).resolves.toEqual({ status: 409 });
    expect(runs).toBe(2);
  });

  it('leaves an operation that reaches outside the database to the 409', async () => {
    const h = collidingOnce();
    const { op } = rerunOnConflict({ op: h.handler }, ['op'], options);
    await expect(op(ctx('POST'))).rejects.toBeInstanceOf(DatabaseError);
    expect(h.runs()).toBe(1);
  });

  it('leaves a handler running inside a caller\'s transaction to that caller', async () => {
    const h = collidingOnce();
    const { op } = rerunOnConflict({ op: h.handler }, [], options);
    await expect(op(ctx('POST', { transaction: {} as never }))).rejects.toBeInstanceOf(DatabaseError);
    expect(h.runs()).toBe(1);
  });

  it('keeps the handler\'s precheck', () => {
    const precheck = async () => undefined;
    const { op } = rerunOnConflict({ op: withPrecheck(async () => ({ status: 200 }), precheck) }, [], options);
    expect((op as { precheck?: unknown }).precheck).toBe(precheck);
  });
});
