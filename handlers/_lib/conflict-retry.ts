/**
 * A write that collides with a concurrent one fails and is rolled back whole: an InnoDB or PostgreSQL deadlock
 * victim, on a MariaDB Galera cluster a transaction that lost certification at COMMIT to a write made through
 * another node (docs/operations.md, "MariaDB Galera"), or a write that met the other one's row at a unique index
 * (`requestCollided`). Nothing of it was kept, so a request whose every effect is in that database can simply run
 * again: it reads the rows afresh and either succeeds or answers what the winner's write now makes true (e.g. 409
 * already decided). After a bounded number of runs, or for a request that reaches outside the database, the
 * collision is answered 409 (server/error-body).
 */
import { UniqueConstraintError } from 'sequelize';
import { isDeadlock } from '../../models/db-errors';
import type { Handler } from './reply';

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts: number;
  /** Waited before run `attempt` (2, 3, …): a little jitter, so that the colliding requests do not meet again. */
  pause: (attempt: number) => Promise<void>;
}

export const CONFLICT_RETRY: RetryOptions = {
  attempts: 3,
  pause: (attempt) => new Promise((resolve) => setTimeout(resolve, (attempt - 1) * (5 + Math.random() * 20))),
};

/**
 * A request's unique clash at the index is a collision too: a concurrent request wrote the value after the request's
 * own checks looked (a stream's config in an environment, a deployment's pair). Run again, those checks see the
 * winner's row and answer their 409 in the request's terms, not the index's.
 */
export const requestCollided = (err: unknown): boolean => isDeadlock(err) || err instanceof UniqueConstraintError;

/**
 * Runs `run` again while it fails with a collision (`collided`: a deadlock unless told), at most `attempts` times in
 * all; any other outcome at once.
 */
export async function retryOnConflict<T>(run: () => Promise<T>, options: RetryOptions = CONFLICT_RETRY, collided: (err: unknown) => boolean = isDeadlock): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!collided(err) || attempt >= options.attempts) throw err;
    }
    await options.pause(attempt + 1);
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The handlers, those of writing methods re-run on a collision (`requestCollided`), except `outside`: operations
 * whose effects do not all live in the database's one transaction (a provider called, several commits), which a
 * second run would repeat. A handler's marks (precheck, itemModel) stay on it.
 */
export function rerunOnConflict<H extends Record<string, Handler>>(handlers: H, outside: readonly string[], options: RetryOptions = CONFLICT_RETRY): H {
  const wrapped: Record<string, Handler> = {};
  for (const [operationId, handler] of Object.entries(handlers)) {
    if (outside.includes(operationId)) { wrapped[operationId] = handler; continue; }
    // Within a caller's transaction a collision ends that transaction: only its owner may run again.
    const rerun: Handler = (ctx) => (WRITES.has(ctx.method) && !ctx.transaction ? retryOnConflict(async () => handler(ctx), options, requestCollided) : handler(ctx));
    wrapped[operationId] = Object.assign(rerun, handler);
  }
  return wrapped as H;
}
