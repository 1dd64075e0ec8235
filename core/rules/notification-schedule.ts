/**
 * When a notification that could not be delivered is tried again (issue 44): exponential backoff with full jitter,
 * from 30 seconds doubling up to an hour between attempts, for at least 24 hours after the first attempt; after that
 * the notification is dead-lettered (kept, listed, retried only by hand). Pure: the caller gives the clock and the
 * randomness, so the schedule is tested exactly.
 */

export const FIRST_RETRY_MS = 30_000;
export const LONGEST_WAIT_MS = 3_600_000;
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

export type NextAttempt = { retryAt: Date } | { dead: true };

/**
 * After failed attempt number `attempts` (1 for the first), made at `now`, of a notification first tried at
 * `firstAttemptAt`: when to try again, or dead. `random` is in [0, 1): the wait is a uniform draw from half to all of
 * the backoff ("equal jitter"), so hosts that failed together do not retry together, and no wait is ever near zero.
 */
export function nextAttempt(attempts: number, firstAttemptAt: Date, now: Date, random: number): NextAttempt {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`attempts must be a whole number ≥ 1, not ${attempts}`);
  if (now.getTime() - firstAttemptAt.getTime() >= GIVE_UP_AFTER_MS) return { dead: true };
  const backoff = Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 30));
  const wait = backoff / 2 + Math.min(Math.max(random, 0), 0.999_999) * (backoff / 2);
  return { retryAt: new Date(now.getTime() + Math.round(wait)) };
}
