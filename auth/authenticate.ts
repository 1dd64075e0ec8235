import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt, { type Jwt, type JwtHeader, type JwtPayload } from 'jsonwebtoken';
import { ConnectionError } from 'sequelize';
import type { Deps, Prefetched, Principal } from '../core/context';
import { HttpError, UnauthorizedError } from '../core/errors';
import { isConnectionLost } from '../models/db-errors';
import { fullName } from '../models/user';
import { logger } from '../core/logger';
import { createExternalUserResolver, type AccessClaims } from './external-users';
import { createPublicKeyLookup, KeySourceUnavailableError, UnknownSigningKeyError } from './jwks-clients';
import type { KeyStore } from './keys';
import { issuerOf, realmOfIssuer } from './tokens';
import { createVerifiedTokenCache } from './verified-tokens';
import type { Caller, ItemWanted } from '../models/caller';

export type Headers = Record<string, string | string[] | undefined>;
/**
 * `item`: a row the request reads by uid, fetched in the caller's round trip (models/caller) where possible, and
 * answered as `prefetched` beside the principal, for the request context.
 */
export type Authenticate = (headers: Headers, item?: ItemWanted) => Promise<Authenticated>;

/** The principal, and the row the request named when it was read with the caller. */
export type Authenticated = Principal & { prefetched?: Prefetched };

/** Embedded issuer: the realm's tenant and its user whose uid is the token's `sub` (null: no such user). */
export type CallerLookup = (realm: string, userUid: string, item?: ItemWanted) => Promise<Caller | null>;

const CLOCK_TOLERANCE_SECONDS = 30;

/** Turns `Authorization: Bearer <jwt>` into a Principal, or throws 401 (docs/contract.md §1.3). */
/** `findCaller` reads the tenant and user of a request (the data access's readCaller); tests without a database pass their own. */
export function createAuthenticator(deps: Deps & { keys?: KeyStore; findCaller?: CallerLookup }): Authenticate {
  const lookupCaller: CallerLookup = deps.findCaller ?? ((realm, sub, item) => deps.models.data.readCaller(realm, sub, item));
  const external = deps.config.externalAuthUrl !== undefined;
  const embeddedKeys = external ? undefined : deps.keys;
  const publicKeyOf = createPublicKeyLookup({ authUrl: deps.authUrl, keys: embeddedKeys });
  const resolveUser = external ? createExternalUserResolver(deps) : undefined;

  const verified = createVerifiedTokenCache<Verified>();
  const keyObjects = new Map<string, KeyObject>();

  /** Signature, issuer, expiry and type: checked once per token (auth/verified-tokens), not per request. */
  async function verifyToken(token: string, header: JwtHeader, realm: string): Promise<AccessClaims> {
    const publicKey = keyObject(await lookupKey(() => publicKeyOf(realm, header.kid!), external));
    const claims = verify(token, publicKey, issuerOf(deps.authUrl(), realm));
    // Refresh and ID tokens are signed by the same key; only access tokens open the API.
    const typ = typeof claims.typ === 'string' ? claims.typ : undefined;
    if (external ? typ !== undefined && typ.toLowerCase() !== 'bearer' : typ !== 'Bearer') throw rejected('Not an access token');
    return claims;
  }

  /** jsonwebtoken would parse the PEM on every verification; the few signing keys are parsed once. */
  function keyObject(pem: string): KeyObject {
    let key = keyObjects.get(pem);
    if (!key) {
      if (keyObjects.size >= 100) keyObjects.clear();
      keyObjects.set(pem, (key = createPublicKey(pem)));
    }
    return key;
  }

  return async function authenticate(headers: Headers, item?: ItemWanted): Promise<Authenticated> {
    const token = bearerToken(headers);
    let known = verified.get(token);
    let realm: string;
    let payload: JwtPayload;
    let header: JwtHeader | undefined;
    if (known) {
      ({ realm, claims: payload } = known);
    } else {
      ({ header, payload } = decode(token));
      if (header.alg !== 'RS256') throw rejected('Unsupported token algorithm');
      if (typeof header.kid !== 'string' || header.kid === '') throw rejected('Token has no key id');
      const fromIssuer = realmOfIssuer(deps.authUrl(), payload.iss);
      if (!fromIssuer) throw rejected('Unknown token issuer');
      realm = fromIssuer;
    }
    const expected = headerValue(headers, 'realm');
    if (expected !== undefined && expected.trim().toLowerCase() !== realm.toLowerCase()) {
      throw rejected('Token realm does not match the Realm header');
    }
    // Embedded issuer: the tenant and the user in one query (models/caller); the claims are not trusted until verified.
    const caller = resolveUser ? await tenantOnly(realm) : await lookupCaller(realm, typeof payload.sub === 'string' ? payload.sub : '', item);
    if (!caller) throw rejected('Unknown realm');

    if (!known) {
      const claims = await verifyToken(token, header!, realm);
      known = { realm, claims };
      verified.set(token, known, claims.exp * 1000);
    }
    const user = resolveUser ? await resolveUser(caller.tenant, known.claims) : caller.user;
    if (!user) throw rejected('Unknown user');
    return {
      tenant: caller.tenant,
      user,
      roles: new Set<string>(user.roles as string[]),
      email: user.email as string,
      fullName: fullName(user as unknown as Parameters<typeof fullName>[0]),
      ...(item && caller.item !== undefined ? { prefetched: { ...item, row: caller.item, targets: caller.related } } : {}),
    };
  };

  async function tenantOnly(realm: string): Promise<Caller | null> {
    const tenant = await deps.models.data.readOne(deps.models.Tenant, { shortName: realm });
    return tenant ? { tenant, user: null } : null;
  }
}

interface Verified { realm: string; claims: AccessClaims }

const rejected = (reason: string) => new UnauthorizedError(reason, true);

function bearerToken(headers: Headers): string {
  const authorization = headerValue(headers, 'authorization');
  const match = authorization === undefined ? null : /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
  if (!match) throw new UnauthorizedError();
  return match[1];
}

/** Node lowercases header names, but callers may pass any record; repeated headers count by their first value. */
function headerValue(headers: Headers, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) return Array.isArray(direct) ? direct[0] : direct;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function decode(token: string): { header: JwtHeader; payload: JwtPayload } {
  let decoded: Jwt | null = null;
  try {
    decoded = jwt.decode(token, { complete: true });
  } catch {
    // falls through to the rejection below
  }
  if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) throw rejected('Malformed token');
  return { header: decoded.header, payload: decoded.payload };
}

/**
 * Key lookup failures about the token (unknown kid, empty key set, rate limit) are the caller's problem: 401.
 * An external IdP whose JWKS cannot be fetched is ours: 502. Database outages pass through (the app answers 503).
 */
async function lookupKey(lookup: () => Promise<string>, external: boolean): Promise<string> {
  try {
    return await lookup();
  } catch (err) {
    if (err instanceof ConnectionError || isConnectionLost(err)) throw err;
    if (err instanceof KeySourceUnavailableError) {
      logger.warn({ jwksUri: err.jwksUri, reason: err.reason }, 'identity provider JWKS unavailable');
      throw new HttpError(502, 'Bad gateway', ['The identity provider is not reachable']);
    }
    if (err instanceof UnknownSigningKeyError) throw rejected('Unknown signing key');
    const { name } = (err ?? {}) as { name?: string };
    if (external) throw err;
    if (name === 'SigningKeyNotFoundError') throw rejected('Unknown signing key');
    if (name === 'JwksError' || name === 'JwksRateLimitError' || name === 'ArgumentError') throw rejected('Signing key unavailable');
    throw err;
  }
}

function verify(token: string, publicKey: KeyObject, issuer: string): AccessClaims {
  let claims: JwtPayload | string;
  try {
    claims = jwt.verify(token, publicKey, { algorithms: ['RS256'], issuer, clockTolerance: CLOCK_TOLERANCE_SECONDS });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw rejected('Token expired');
    if (err instanceof jwt.NotBeforeError) throw rejected('Token not yet valid');
    if (err instanceof jwt.JsonWebTokenError) throw rejected('Invalid token');
    throw err;
  }
  if (typeof claims !== 'object') throw rejected('Malformed token');
  // jsonwebtoken accepts a token without exp; one that never expires is not an access token of ours.
  if (typeof claims.exp !== 'number') throw rejected('Token has no expiry');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw rejected('Token has no subject');
  return claims as AccessClaims;
}
