/**
 * The issuer's single sign-on session (docs/contract.md §1.2): Keycloak's SSO Session Idle and Max. A session lives
 * until it has been idle for `idle` seconds or has lived `max`, whichever comes first; each use moves its idle end
 * forward, never past its maximum. Pure: times in, times out.
 */
export interface SessionLifetimes { idleSeconds: number; maxSeconds: number }
export interface SessionTimes { authTime: Date; idleExpiresAt: Date; maxExpiresAt: Date }

const after = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

export function newSessionTimes(now: Date, lifetimes: SessionLifetimes): SessionTimes {
  const maxExpiresAt = after(now, lifetimes.maxSeconds);
  return { authTime: now, maxExpiresAt, idleExpiresAt: earlier(after(now, lifetimes.idleSeconds), maxExpiresAt) };
}

export function isAlive(session: Pick<SessionTimes, 'idleExpiresAt' | 'maxExpiresAt'>, now: Date): boolean {
  return now.getTime() < session.idleExpiresAt.getTime() && now.getTime() < session.maxExpiresAt.getTime();
}

/** The idle end after a use at `now`. */
export function touchedIdle(session: Pick<SessionTimes, 'maxExpiresAt'>, now: Date, lifetimes: SessionLifetimes): Date {
  return earlier(after(now, lifetimes.idleSeconds), session.maxExpiresAt);
}

/**
 * Epoch seconds a refresh token of the session expires by: its own lifetime, and never after the session could
 * have ended (idle or max), so a refresh token cannot outlive the session it came from.
 */
export function refreshExpiry(nowSeconds: number, lifetimeSeconds: number, session: Pick<SessionTimes, 'idleExpiresAt' | 'maxExpiresAt'>): number {
  const ends = Math.floor(Math.min(session.idleExpiresAt.getTime(), session.maxExpiresAt.getTime()) / 1000);
  return Math.min(nowSeconds + lifetimeSeconds, ends);
}

/** Whether the user signed in at `authTime` satisfies `max_age` seconds (OpenID Connect Core §3.1.2.1). */
export function withinMaxAge(authTime: Date, now: Date, maxAge: number | undefined): boolean {
  return maxAge === undefined || now.getTime() - authTime.getTime() <= maxAge * 1000;
}
