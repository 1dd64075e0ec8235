/**
 * Brute-force detection of the embedded issuer, as Keycloak's (docs/operations.md, "Brute force and floods"):
 * failed sign-ins of one account are counted; every `failureFactor` of them lock it for `waitIncrementSeconds`
 * more, at most `maxFailureWaitSeconds`; a failure more than `maxDeltaTimeSeconds` after the previous one starts
 * the count afresh; a successful sign-in clears it. Pure rules only: the count lives in `login_failures`
 * (models/login-failure.ts), shared by every process on the database.
 */
import type { LockoutSettings } from '../core/config';

/** One account's failures as stored. */
export interface LoginFailureState {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

/** What the token endpoint does with one sign-in of a known account. */
export interface Verdict {
  /** The credentials open the account: tokens are issued. */
  accepted: boolean;
  /** The attempt adds one failure to the count. */
  countFailure: boolean;
  /** The count is cleared. */
  clear: boolean;
}

/** Locked at `now`: the last lock has not run out. */
export function isLocked(state: LoginFailureState | undefined, now: Date): boolean {
  return state?.lockedUntil != null && state.lockedUntil.getTime() > now.getTime();
}

/** A failure at `now` starts the count afresh when the previous one was before this instant (Keycloak: maxDeltaTime). */
export function resetBefore(now: Date, settings: LockoutSettings): Date {
  return new Date(now.getTime() - settings.maxDeltaTimeSeconds * 1000);
}

/** The count has run out: the next failure starts afresh, and until then the account has none. */
export function hasLapsed(state: LoginFailureState, now: Date, settings: LockoutSettings): boolean {
  return state.lastFailureAt.getTime() < resetBefore(now, settings).getTime();
}

/**
 * Seconds the account waits after its `failures`-th failure: `waitIncrementSeconds` for every whole
 * `failureFactor` failures, at most `maxFailureWaitSeconds`; 0 below the first `failureFactor`. So after the
 * first lock each further failure locks again, and the wait grows by one increment every `failureFactor` failures.
 */
export function waitSeconds(failures: number, settings: LockoutSettings): number {
  const steps = Math.floor(Math.max(0, failures) / settings.failureFactor);
  return Math.min(settings.maxFailureWaitSeconds, steps * settings.waitIncrementSeconds);
}

/** Until when the `failures`-th failure, made at `at`, locks the account; null when it does not. */
export function lockedUntilAfter(failures: number, at: Date, settings: LockoutSettings): Date | null {
  const wait = waitSeconds(failures, settings);
  return wait > 0 ? new Date(at.getTime() + wait * 1000) : null;
}

/**
 * One sign-in of a known account. While it is locked nothing opens it, the right secret included, and the attempt
 * is not counted (the lock already holds); the answer is the one a wrong secret gets, so it tells an attacker
 * nothing. Otherwise a wrong secret counts one failure and the right one clears the count, if there is one.
 */
export function verdict(state: LoginFailureState | undefined, now: Date, secretMatches: boolean): Verdict {
  if (isLocked(state, now)) return { accepted: false, countFailure: false, clear: false };
  if (!secretMatches) return { accepted: false, countFailure: true, clear: false };
  return { accepted: true, countFailure: false, clear: state !== undefined };
}

/** The account's state as a tenant admin sees it: a lapsed count is no count. */
export interface LockoutView {
  locked: boolean;
  failures: number;
  lastFailureAt: Date | null;
  lockedUntil: Date | null;
}

export function lockoutView(state: LoginFailureState | undefined, now: Date, settings: LockoutSettings): LockoutView {
  if (!state || (hasLapsed(state, now, settings) && !isLocked(state, now))) {
    return { locked: false, failures: 0, lastFailureAt: null, lockedUntil: null };
  }
  const locked = isLocked(state, now);
  return { locked, failures: state.failures, lastFailureAt: state.lastFailureAt, lockedUntil: locked ? state.lockedUntil : null };
}
