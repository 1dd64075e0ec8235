import jwksRsa from 'jwks-rsa';
import type { KeyStore } from './keys';

/** Finds the public key (PEM) for a kid of one realm; errors are jwks-rsa's (or the key store's) own. */
export type PublicKeyLookup = (realm: string, kid: string) => Promise<string>;

export interface JwksSource {
  /** `{auth_url}`, read per call: the embedded issuer's URL is only known once the server listens. */
  authUrl: () => string;
  /** The embedded issuer's key store; when given, keys are read from it instead of over HTTP. */
  keys?: KeyStore;
}

/**
 * One jwks-rsa client per realm JWKS URI, made on demand. Callers ask only for realms of existing tenants,
 * so the map cannot be grown by attacker-chosen issuers.
 */
export function createPublicKeyLookup(source: JwksSource): PublicKeyLookup {
  const clients = new Map<string, jwksRsa.JwksClient>();

  return async (realm, kid) => {
    const jwksUri = `${source.authUrl()}/realms/${realm}/protocol/openid-connect/certs`;
    let client = clients.get(jwksUri);
    if (!client) {
      client = jwksRsa(source.keys ? embeddedOptions(jwksUri, source.keys) : externalOptions(jwksUri));
      clients.set(jwksUri, client);
    }
    const key = await client.getSigningKey(kid);
    return key.getPublicKey();
  };
}

/**
 * Our own issuer: `getKeysInterceptor` serves the key store's (memory-cached) JWKS, and a kid it lacks — a key
 * another process just made — falls through to `fetcher`, which re-reads the database instead of calling
 * ourselves over HTTP. The key store rate-limits those re-reads.
 */
function embeddedOptions(jwksUri: string, keys: KeyStore): jwksRsa.Options {
  return {
    jwksUri,
    cache: true,
    // Short, so a key retired by rotation stops verifying soon after its grace period ends.
    cacheMaxAge: 60_000,
    getKeysInterceptor: async () => (await keys.jwks()).keys,
    fetcher: async () => keys.jwks({ refresh: true }),
  };
}

/** An external Keycloak-style IdP: real HTTP, cached, and rate-limited because unknown kids trigger fetches. */
function externalOptions(jwksUri: string): jwksRsa.Options {
  return {
    jwksUri,
    cache: true,
    cacheMaxAge: 10 * 60_000,
    rateLimit: true,
    jwksRequestsPerMinute: 10,
    timeout: 5_000,
  };
}
