import { describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, GIVE_UP_AFTER_MS, LONGEST_WAIT_MS, nextAttempt } from '../../core/rules/notification-schedule';

const T0 = new Date('2026-11-28T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const waitOf = (attempts: number, random: number, now = T0) => {
  const next = nextAttempt(attempts, T0, now, random);
  if (!('retryAt' in next)) throw new Error('dead');
  return next.retryAt.getTime() - now.getTime();
};

describe('nextAttempt: backoff with jitter, then the dead letter', () => {
  it('waits half to all of 30 s after the first failure', () => {
    expect(waitOf(1, 0)).toBe(FIRST_RETRY_MS / 2);
    expect(waitOf(1, 0.5)).toBe(FIRST_RETRY_MS * 0.75);
    expect(waitOf(1, 0.999_999_9)).toBeLessThanOrEqual(FIRST_RETRY_MS);
    expect(waitOf(1, 0.999_999_9)).toBeGreaterThan(FIRST_RETRY_MS * 0.99);
  });

  it('doubles the backoff with each failure, up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => waitOf(n, 0) * 2)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
    expect(waitOf(50, 0.999)).toBeLessThanOrEqual(LONGEST_WAIT_MS);
    expect(waitOf(1_000, 0)).toBe(LONGEST_WAIT_MS / 2);
  });

  it('keeps random outside [0, 1) within the backoff', () => {
    expect(waitOf(1, -3)).toBe(FIRST_RETRY_MS / 2);
    expect(waitOf(1, 7)).toBeLessThanOrEqual(FIRST_RETRY_MS);
  });

  it('tries for at least 24 hours after the first attempt, then gives up', () => {
    expect('retryAt' in nextAttempt(30, T0, at(GIVE_UP_AFTER_MS - 1), 0.5)).toBe(true);
    expect(nextAttempt(30, T0, at(GIVE_UP_AFTER_MS), 0.5)).toEqual({ dead: true });
    expect(nextAttempt(2, T0, at(GIVE_UP_AFTER_MS + 60_000), 0)).toEqual({ dead: true });
  });

  it('makes about thirty attempts in those 24 hours when every one fails at once', () => {
    let now = T0;
    let attempts = 1;
    for (;;) {
      const next = nextAttempt(attempts, T0, now, 0.5);
      if ('dead' in next) break;
      now = next.retryAt;
      attempts++;
    }
    expect(now.getTime() - T0.getTime()).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
    expect(attempts).toBeGreaterThan(25);
    expect(attempts).toBeLessThan(45);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %d attempts', (attempts) => {
    expect(() => nextAttempt(attempts, T0, T0, 0)).toThrow(RangeError);
  });
});
