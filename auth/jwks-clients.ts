import jwksRsa from 'jwks-rsa';
import { logger } from '../core/logger';
import type { KeyStore } from './keys';

/** Finds the public key (PEM) for a kid of one realm; errors are jwks-rsa's, the key store's or the two below. */
export type PublicKeyLookup = (realm: string, kid: string) => Promise<string>;

/** The realm's key set has no key with that kid (and may not be refetched now): the token's problem, 401. */
export class UnknownSigningKeyError extends Error {
  override name = 'UnknownSigningKeyError';
}

/** The external IdP's JWKS could not be fetched (unreachable, 5xx, timeout, garbage, no keys): ours, 502. */
export class KeySourceUnavailableError extends Error {
  override name = 'KeySourceUnavailableError';
  constructor(readonly jwksUri: string, readonly reason: string) {
    super(`JWKS ${jwksUri} unavailable: ${reason}`);
  }
}

export interface JwksSource {
  /** `{auth_url}`, read per call: the embedded issuer's URL is only known once the server listens. */
  authUrl: () => string;
  /** The embedded issuer's key store; when given, keys are read from it instead of over HTTP. */
  keys?: KeyStore;
  /** External IdP only: cache and refetch policy (defaults: REFRESH_POLICY), clock and fetcher (tests). */
  policy?: Partial<RefreshPolicy>;
  now?: () => number;
  fetchKeys?: KeySetFetcher;
}

export function createPublicKeyLookup(source: JwksSource): PublicKeyLookup {
  const jwksUriOf = (realm: string) => `${source.authUrl()}/realms/${realm}/protocol/openid-connect/certs`;
  if (source.keys) return embeddedLookup(jwksUriOf, source.keys);
  const keySets = createRemoteKeySets({
    policy: { ...REFRESH_POLICY, ...source.policy },
    now: source.now ?? Date.now,
    fetchKeys: source.fetchKeys ?? fetchWithJwksRsa(),
  });
  return (realm, kid) => keySets(jwksUriOf(realm), kid);
}

/**
 * Our own issuer: `getKeysInterceptor` serves the key store's (memory-cached) JWKS, and a kid it lacks — a key
 * another process just made — falls through to `fetcher`, which re-reads the database instead of calling
 * ourselves over HTTP. The key store rate-limits those re-reads. One jwks-rsa client per realm URI; callers ask
 * only for realms of existing tenants, so the map cannot be grown by attacker-chosen issuers.
 */
function embeddedLookup(jwksUriOf: (realm: string) => string, keys: KeyStore): PublicKeyLookup {
  const clients = new Map<string, jwksRsa.JwksClient>();
  return async (realm, kid) => {
    const jwksUri = jwksUriOf(realm);
    let client = clients.get(jwksUri);
    if (!client) {
      client = jwksRsa({
        jwksUri,
        cache: true,
        // Short, so a key retired by rotation stops verifying soon after its grace period ends.
        cacheMaxAge: 60_000,
        getKeysInterceptor: async () => (await keys.jwks()).keys,
        fetcher: async () => keys.jwks({ refresh: true }),
      });
      clients.set(jwksUri, client);
    }
    return (await client.getSigningKey(kid)).getPublicKey();
  };
}

// ---------------------------------------------------------------------------------------------------------------
// External IdP: one cached key set per realm, refetched when it ages out or a token names a kid it lacks.

export interface RefreshPolicy {
  /** A fetched key set is used without asking the IdP for this long. */
  maxAgeMs: number;
  /** When no refetch is possible (IdP down, or the budget spent), an aged set keeps verifying this much longer. */
  staleMs: number;
  /** Fetches per realm: a burst of this many… */
  fetchBurst: number;
  /** …then one per this interval, so a flood of tokens with random kids cannot hammer the IdP. */
  fetchIntervalMs: number;
  /** One fetch may take this long before the IdP counts as unreachable. */
  timeoutMs: number;
}

export const REFRESH_POLICY: RefreshPolicy = {
  maxAgeMs: 10 * 60_000,
  staleMs: 60 * 60_000,
  fetchBurst: 3,
  fetchIntervalMs: 20_000,
  timeoutMs: 5_000,
};

/** kid → public key (PEM) of one JWKS document. */
export type KeySet = Map<string, string>;
export type KeySetFetcher = (jwksUri: string, timeoutMs: number) => Promise<KeySet>;

/** A token bucket: `capacity` takes at once, refilled by one per `intervalMs`. Pure apart from the clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly capacity: number, private readonly intervalMs: number, private readonly now: () => number) {
    this.tokens = capacity;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + (t - this.last) / this.intervalMs);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

interface RealmKeys {
  set?: KeySet;
  fetchedAt: number;
  /** The fetch under way; concurrent lookups share it rather than each asking the IdP. */
  inflight?: Promise<void>;
  /** Why the last fetch failed, cleared by the next success. */
  failure?: KeySourceUnavailableError;
  budget: TokenBucket;
}

/**
 * `(jwksUri, kid) → PEM`. A kid in a fresh set answers from memory. An unknown kid or an aged set triggers a
 * fetch, shared by concurrent callers and charged to the realm's token bucket; with the budget spent, a known
 * kid of an aged set still verifies (up to `staleMs`), an unknown kid is refused without asking the IdP.
 */
export function createRemoteKeySets(options: { policy: RefreshPolicy; now: () => number; fetchKeys: KeySetFetcher }) {
  const { policy, now, fetchKeys } = options;
  const realms = new Map<string, RealmKeys>();

  function fetchInto(entry: RealmKeys, jwksUri: string): Promise<void> {
    entry.inflight ??= fetchKeys(jwksUri, policy.timeoutMs)
      .then((set) => { entry.set = set; entry.fetchedAt = now(); entry.failure = undefined; })
      .catch((err: unknown) => {
        entry.failure = err instanceof KeySourceUnavailableError ? err : new KeySourceUnavailableError(jwksUri, String((err as Error)?.message ?? err));
        throw entry.failure;
      })
      .finally(() => { entry.inflight = undefined; });
    return entry.inflight;
  }

  return async function lookup(jwksUri: string, kid: string): Promise<string> {
    let entry = realms.get(jwksUri);
    if (!entry) {
      entry = { fetchedAt: 0, budget: new TokenBucket(policy.fetchBurst, policy.fetchIntervalMs, now) };
      realms.set(jwksUri, entry);
    }
    if (entry.inflight) await entry.inflight.catch(() => undefined);

    const age = now() - entry.fetchedAt;
    const known = entry.set?.get(kid);
    if (known && age < policy.maxAgeMs) return known;

    const usable = () => (known && age < policy.maxAgeMs + policy.staleMs ? known : undefined);
    if (!entry.inflight && !entry.budget.take()) {
      const stale = usable();
      if (stale) return stale;
      if (!entry.set && entry.failure) throw entry.failure;
      throw new UnknownSigningKeyError(`No signing key ${kid} (key set refetches are rate-limited)`);
    }
    try {
      await fetchInto(entry, jwksUri);
    } catch (err) {
      const stale = usable();
      if (stale) return stale;
      throw err;
    }
    const key = entry.set?.get(kid);
    if (!key) throw new UnknownSigningKeyError(`No signing key ${kid} in ${jwksUri}`);
    return key;
  };
}

/**
 * GETs the JWKS document; null when the IdP answers 404 (Keycloak: no such realm). Unreachable, timed out, any
 * other non-2xx or unparsable → KeySourceUnavailableError.
 */
async function fetchJwksDocument(jwksUri: string, timeoutMs: number): Promise<{ keys?: unknown } | null> {
  let res: Response;
  try {
    res = await fetch(jwksUri, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new KeySourceUnavailableError(jwksUri, (err as Error)?.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((err as Error)?.message ?? err));
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new KeySourceUnavailableError(jwksUri, `HTTP ${res.status}`);
  }
  try {
    const document = (await res.json()) as unknown;
    if (document && typeof document === 'object') return document as { keys?: unknown };
  } catch {
    // reported below
  }
  throw new KeySourceUnavailableError(jwksUri, 'not a JWKS document');
}

/**
 * The realm's signing keys as kid → PEM. A realm the IdP does not know (404), or one publishing no keys, has an
 * empty set, so its tokens answer 401. jwks-rsa converts the JWKs (signing keys only); its own cache and rate
 * limit are not used — the key sets above are the cache.
 */
export function fetchWithJwksRsa(): KeySetFetcher {
  return async (jwksUri, timeoutMs) => {
    const document = await fetchJwksDocument(jwksUri, timeoutMs);
    if (document === null) {
      logger.warn({ jwksUri }, 'the identity provider does not know this realm (JWKS 404)');
      return new Map();
    }
    if (Array.isArray(document.keys) && document.keys.length === 0) return new Map();
    let keys: jwksRsa.SigningKey[];
    try {
      keys = await jwksRsa({ jwksUri, cache: false, rateLimit: false, fetcher: async () => ({ keys: document.keys }) }).getSigningKeys();
    } catch (err) {
      throw new KeySourceUnavailableError(jwksUri, String((err as Error)?.message ?? err));
    }
    return new Map(keys.filter((k) => typeof k.kid === 'string' && k.kid !== '').map((k) => [k.kid as string, k.getPublicKey()]));
  };
}
