/**
 * What stands between a guess and a hash at the token endpoint (docs/operations.md, "Brute force and floods"): a
 * bound on the sign-ins one process holds, and the brute-force rules of auth/brute-force.ts applied to the count in
 * `login_failures`. Password sign-ins and client secrets both pass here, keyed by the user row they name.
 */
import type { LockoutSettings } from '../core/config';
import type { Models } from '../core/context';
import { burnVerification, verifySecret } from '../core/passwords';
import type { Row } from '../models/define';
import { clearLoginFailures, countLoginFailure, extendLock, findLoginFailure } from '../models/login-failure';
import { lockedUntilAfter, resetBefore, verdict } from './brute-force';
import { signInsBusy } from './oauth-error';

/**
 * Seconds a sign-in refused for a full queue is asked to wait. A full queue of the default size drains in about
 * that long on two cores, and a client that waits one second does not add to the flood.
 */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The sign-ins one process holds at once: each waits for, or runs, its one hash. */
export interface SignInGate {
  /** Runs one sign-in, or throws 503 `temporarily_unavailable` at once when `limit` are already held. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createSignInGate(limit: number): SignInGate {
  let held = 0;
  return {
    async run(work) {
      if (held >= limit) throw signInsBusy(BUSY_RETRY_AFTER_SECONDS);
      held += 1;
      try {
        return await work();
      } finally {
        held -= 1;
      }
    },
  };
}

export interface SignInDeps {
  models: Pick<Models, 'LoginFailure'>;
  config: { lockout: LockoutSettings };
}

/**
 * Whether `plain` opens the account whose stored hash is `stored`. Exactly one hash in every case — an unknown
 * account (null) or one without a secret hashes against nothing, a locked one is checked and refused all the
 * same — so neither the answer nor the work behind it tells an attacker which accounts exist or are locked.
 */
export async function checkSecret(deps: SignInDeps, account: Row | null, stored: string | null | undefined, plain: string): Promise<boolean> {
  if (!account || !stored) {
    await burnVerification(plain);
    return false;
  }
  const model = deps.models.LoginFailure;
  const state = (await findLoginFailure(model, account.uid)) ?? undefined;
  const matches = await verifySecret(plain, stored);
  const now = new Date();
  const decided = verdict(state, now, matches);
  if (decided.countFailure) await countFailure(deps, account, now);
  if (decided.clear) await clearLoginFailures(model, account.uid);
  return decided.accepted;
}

/**
 * A person's sign-in with email and password, as the password grant and the browser's sign-in form both do it:
 * the same lookup, the same single hash, the same lockout count, and null alike for an unknown address, a service
 * account, a wrong password and a locked account.
 */
export async function signInPerson(deps: SignInDeps & { models: Pick<Models, 'User'> }, tenant: Row, username: string, password: string): Promise<Row | null> {
  const found = await deps.models.User.findOne({ where: { tenantUid: tenant.uid, emailKey: username.trim().toLowerCase() } });
  // Service accounts authenticate with client credentials, never with a password.
  const person = found && !found.serviceAccount ? found : null;
  return (await checkSecret(deps, person, person?.passwordHash as string | null | undefined, password)) ? person : null;
}

async function countFailure(deps: SignInDeps, account: Row, now: Date): Promise<void> {
  const { lockout } = deps.config;
  const model = deps.models.LoginFailure;
  const row = await countLoginFailure(model, { userUid: account.uid, tenantUid: account.tenantUid }, now, resetBefore(now, lockout));
  const until = lockedUntilAfter(row.failures, now, lockout);
  if (until) await extendLock(model, account.uid, until);
}
