/**
 * The per-process expiry sweep (issue 33): every `ACCESS_EXPIRY_SWEEP_MS` this process revokes the Approved grants
 * past their `expiresAt` (models/grant-expiry.ts). The timer only says when to look; the database decides what is
 * revoked, so every worker of every host may sweep at once and each grant is still revoked once. Sweeps never
 * overlap within a process (the next is scheduled when one ends), and `stop` waits for the one running. The same
 * timer removes what the embedded issuer's browser sign-in no longer needs (expired requests and codes, ended
 * sessions with their refresh-token families; models/issuer-state), and marks the grants ending within seven days,
 * whose application owners are told once (issue 44).
 */
import type { Models } from '../models';
import { expireDueGrants, warnExpiringGrants } from '../models/grant-expiry';
import { sweepIssuerState } from '../models/issuer-state';
import { logger } from '../core/logger';

export interface Sweeper { stop: () => Promise<void> }

/** `publicRoot`: the portal's root for the notices' links, known once the service listens. */
const sweepAll = (publicRoot: () => string) => async (models: Models): Promise<string[]> => {
  const now = new Date();
  const revoked = await expireDueGrants(models, now, publicRoot());
  await warnExpiringGrants(models, now, publicRoot());
  await sweepIssuerState(models, now);
  return revoked;
};

export function startExpirySweeper(models: Models, intervalMs: number, publicRoot: () => string, sweep: (models: Models) => Promise<string[]> = sweepAll(publicRoot)): Sweeper {
  if (intervalMs <= 0) return { stop: async () => undefined };
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const run = async () => {
    try {
      const revoked = await sweep(models);
      if (revoked.length > 0) logger.info({ revoked: revoked.length }, 'expired access grants revoked');
    } catch (err) {
      // A database outage or restart: the next sweep tries again, nothing is lost (the rows are still due).
      logger.warn({ err: (err as Error).message }, 'access expiry sweep failed; retrying at the next interval');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined;
        schedule();
      });
    }, intervalMs);
    // The sweep never keeps a process alive by itself.
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
