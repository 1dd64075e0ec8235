/**
 * Tokens whose signature, issuer, expiry and type were already checked, so a client that sends the same token
 * again does not pay for RS256 verification and the key lookup again. It remembers only what the signature
 * proved (the claims); the tenant and user are read from the database on every request regardless. An entry
 * lives until the token expires or `maxAgeMs` (30 s by default: a signing key retired by rotation, whose
 * verifying key is itself cached for 60 s, stops opening the API within that bound). Bounded in size: the oldest
 * entry goes first.
 */
export interface VerifiedTokenCache<T> {
  get(token: string): T | undefined;
  set(token: string, value: T, expiresAtMs: number): void;
  readonly size: number;
}

export function createVerifiedTokenCache<T>(options: { maxEntries?: number; maxAgeMs?: number; now?: () => number } = {}): VerifiedTokenCache<T> {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 30_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: T; until: number }>();
  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (now() >= entry.until) {
        entries.delete(token);
        return undefined;
      }
      return entry.value;
    },
    set(token, value, expiresAtMs) {
      const until = Math.min(expiresAtMs, now() + maxAgeMs);
      if (until <= now()) return;
      entries.delete(token);
      // A Map iterates in insertion order: its first key is the oldest entry.
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(token, { value, until });
    },
    get size() {
      return entries.size;
    },
  };
}
