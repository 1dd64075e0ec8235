import jwksRsa from 'jwks-rsa';
import type { TrustedIssuer } from '../core/config';
import { invalidGrant, upstreamUnavailable } from './oauth-error';

/** The identity providers of `TRUSTED_ISSUERS` and their signing keys, for federated service accounts. */
export interface TrustedIssuerKeys {
  /** The trusted issuer whose `issuer` equals `iss` exactly, or undefined. */
  find(iss: unknown): TrustedIssuer | undefined;
  /**
   * The PEM public key `kid` of a trusted issuer (without a kid: its only key). Keys are cached; an unknown kid
   * re-fetches the issuer's JWKS (rate-limited), so the issuer's key rotation needs no restart here.
   * Throws OAuth errors: invalid_grant for a key the issuer does not publish, 502 temporarily_unavailable when
   * the key set cannot be fetched.
   */
  publicKey(issuer: TrustedIssuer, kid: string | undefined): Promise<string>;
}

export interface TrustedIssuerKeyOptions {
  /** How long a fetched key is trusted without re-fetching (ms); default 10 minutes. */
  cacheMaxAge?: number;
  /** JWKS fetches per issuer per minute caused by unknown kids (anyone can send one); default 10. */
  requestsPerMinute?: number;
  /** JWKS request timeout (ms); default 5 s. */
  timeout?: number;
}

/** One jwks-rsa client per configured issuer, made once: the set cannot be grown by what callers send. */
export function createTrustedIssuerKeys(trusted: readonly TrustedIssuer[], options: TrustedIssuerKeyOptions = {}): TrustedIssuerKeys {
  const byIssuer = new Map(trusted.map((t) => [t.issuer, t]));
  const clients = new Map(trusted.map((t) => [t.issuer, jwksRsa({
    jwksUri: t.jwksUri,
    cache: true,
    cacheMaxAge: options.cacheMaxAge ?? 10 * 60_000,
    rateLimit: true,
    jwksRequestsPerMinute: options.requestsPerMinute ?? 10,
    timeout: options.timeout ?? 5_000,
  })]));

  return {
    find: (iss) => (typeof iss === 'string' ? byIssuer.get(iss) : undefined),
    async publicKey(issuer, kid) {
      const client = clients.get(issuer.issuer);
      if (!client) throw new Error(`${issuer.issuer} is not a configured trusted issuer`);
      try {
        return (await client.getSigningKey(kid)).getPublicKey();
      } catch (err) {
        throw keyLookupError(err);
      }
    },
  };
}

/** jwks-rsa's failures in OAuth terms: the caller's key is unknown (400) or the issuer is unusable right now (502). */
function keyLookupError(err: unknown): unknown {
  const { name, isEndpointUnavailable } = (err ?? {}) as { name?: string; isEndpointUnavailable?: boolean };
  if (isEndpointUnavailable) return upstreamUnavailable('The key set of the client assertion\'s issuer cannot be fetched; try again later');
  if (name === 'SigningKeyNotFoundError') return invalidGrant('Client assertion is signed by a key its issuer does not publish');
  if (name === 'JwksRateLimitError') return invalidGrant('Client assertion is signed by an unknown key (key set re-fetched too often; retry in a minute)');
  if (name === 'JwksError') return upstreamUnavailable('The client assertion\'s issuer publishes no usable signing key');
  return err;
}
