/** The embedded issuer's brute-force rules (auth/brute-force.ts), with Keycloak's defaults and with small ones. */
import { describe, expect, it } from 'vitest';
import { hasLapsed, isLocked, lockedUntilAfter, lockoutView, resetBefore, verdict, waitSeconds, type LoginFailureState } from '../../auth/brute-force';
import { loadConfig, type LockoutSettings } from '../../core/config';

const KEYCLOAK = loadConfig({}).lockout;
const SMALL: LockoutSettings = { failureFactor: 3, waitIncrementSeconds: 10, maxFailureWaitSeconds: 25, maxDeltaTimeSeconds: 100 };
const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const state = (failures: number, lastFailureAt: Date, lockedUntil: Date | null = null): LoginFailureState => ({ failures, lastFailureAt, lockedUntil });

describe('settings', () => {
  it("defaults to Keycloak's: 30 failures, 60 s more per 30, at most 15 min, a count forgotten after 12 h", () => {
    expect(KEYCLOAK).toEqual({ failureFactor: 30, waitIncrementSeconds: 60, maxFailureWaitSeconds: 900, maxDeltaTimeSeconds: 43_200 });
  });

  it.each([
    ['LOCKOUT_FAILURES', '0'], ['LOCKOUT_WAIT_INCREMENT_SECONDS', '-1'], ['LOCKOUT_MAX_WAIT_SECONDS', 'soon'],
    ['LOCKOUT_FAILURE_RESET_SECONDS', '1.5'], ['SIGN_IN_QUEUE', '0'],
  ])('%s=%s stops the start naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('reads each setting from its variable', () => {
    const config = loadConfig({
      LOCKOUT_FAILURES: '5', LOCKOUT_WAIT_INCREMENT_SECONDS: '2', LOCKOUT_MAX_WAIT_SECONDS: '7', LOCKOUT_FAILURE_RESET_SECONDS: '9', SIGN_IN_QUEUE: '3',
    });
    expect(config.lockout).toEqual({ failureFactor: 5, waitIncrementSeconds: 2, maxFailureWaitSeconds: 7, maxDeltaTimeSeconds: 9 });
    expect(config.signInQueue).toBe(3);
    expect(loadConfig({}).signInQueue).toBe(64);
  });
});

describe('the wait after the n-th failure', () => {
  it.each([
    [0, 0], [1, 0], [2, 0], [3, 10], [4, 10], [5, 10], [6, 20], [8, 20], [9, 25], [12, 25], [1000, 25],
  ])('small settings: after %i failures %i s', (failures, seconds) => {
    expect(waitSeconds(failures, SMALL)).toBe(seconds);
  });

  it.each([
    [29, 0], [30, 60], [31, 60], [59, 60], [60, 120], [90, 180], [449, 840], [450, 900], [10_000, 900],
  ])("Keycloak's defaults: after %i failures %i s", (failures, seconds) => {
    expect(waitSeconds(failures, KEYCLOAK)).toBe(seconds);
  });

  it('never falls as failures grow, and never passes the maximum', () => {
    let previous = 0;
    for (let n = 0; n <= 200; n++) {
      const wait = waitSeconds(n, SMALL);
      expect(wait).toBeGreaterThanOrEqual(previous);
      expect(wait).toBeLessThanOrEqual(SMALL.maxFailureWaitSeconds);
      previous = wait;
    }
  });

  it('locks from the failure on, for the wait; not at all below the factor', () => {
    expect(lockedUntilAfter(2, at(5), SMALL)).toBeNull();
    expect(lockedUntilAfter(3, at(5), SMALL)).toEqual(at(15));
    expect(lockedUntilAfter(6, at(5), SMALL)).toEqual(at(25));
    expect(lockedUntilAfter(99, at(5), SMALL)).toEqual(at(30));
  });
});

describe('locked', () => {
  it.each([
    ['no record', undefined, false],
    ['failures but no lock', state(2, at(0)), false],
    ['a lock ending later', state(3, at(0), at(10)), true],
    ['a lock ending now', state(3, at(0), at(5)), false],
    ['a lock that ended', state(3, at(0), at(4)), false],
  ])('%s at t=5: %s', (_label, s, locked) => {
    expect(isLocked(s, at(5))).toBe(locked);
  });
});

describe('the count runs out', () => {
  it('a failure more than maxDeltaTime after the previous starts afresh, one at exactly that time does not', () => {
    expect(resetBefore(at(150), SMALL)).toEqual(at(50));
    expect(hasLapsed(state(2, at(49)), at(150), SMALL)).toBe(true);
    expect(hasLapsed(state(2, at(50)), at(150), SMALL)).toBe(false);
    expect(hasLapsed(state(2, at(149)), at(150), SMALL)).toBe(false);
  });
});

describe('one sign-in of a known account: every state × right or wrong secret', () => {
  const states: Array<[string, LoginFailureState | undefined]> = [
    ['no failures', undefined],
    ['failures, unlocked', state(2, at(0))],
    ['locked', state(3, at(0), at(10))],
    ['a lock that ended', state(3, at(0), at(4))],
  ];
  const expected: Record<string, { right: object; wrong: object }> = {
    'no failures': { right: { accepted: true, countFailure: false, clear: false }, wrong: { accepted: false, countFailure: true, clear: false } },
    'failures, unlocked': { right: { accepted: true, countFailure: false, clear: true }, wrong: { accepted: false, countFailure: true, clear: false } },
    // Locked: the right secret is refused as a wrong one is, and neither adds to the count.
    locked: { right: { accepted: false, countFailure: false, clear: false }, wrong: { accepted: false, countFailure: false, clear: false } },
    'a lock that ended': { right: { accepted: true, countFailure: false, clear: true }, wrong: { accepted: false, countFailure: true, clear: false } },
  };
  for (const [label, s] of states) {
    it(`${label}: the right secret`, () => expect(verdict(s, at(5), true)).toEqual(expected[label].right));
    it(`${label}: a wrong secret`, () => expect(verdict(s, at(5), false)).toEqual(expected[label].wrong));
  }
});

describe('what a tenant admin sees', () => {
  it.each([
    ['nothing stored', undefined, { locked: false, failures: 0, lastFailureAt: null, lockedUntil: null }],
    ['failures, unlocked', state(2, at(0)), { locked: false, failures: 2, lastFailureAt: at(0), lockedUntil: null }],
    ['locked', state(3, at(0), at(10)), { locked: true, failures: 3, lastFailureAt: at(0), lockedUntil: at(10) }],
    ['a lock that ended', state(3, at(0), at(4)), { locked: false, failures: 3, lastFailureAt: at(0), lockedUntil: null }],
  ])('%s', (_label, s, view) => {
    expect(lockoutView(s, at(5), SMALL)).toEqual(view);
  });

  it('a count that has run out reads as none, unless a lock still holds', () => {
    expect(lockoutView(state(2, at(0)), at(101), SMALL)).toEqual({ locked: false, failures: 0, lastFailureAt: null, lockedUntil: null });
    const long = { ...SMALL, maxFailureWaitSeconds: 500, waitIncrementSeconds: 500 };
    expect(lockoutView(state(3, at(0), at(500)), at(101), long)).toMatchObject({ locked: true, failures: 3 });
  });
});
