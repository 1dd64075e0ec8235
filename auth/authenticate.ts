import jwt, { type Jwt, type JwtHeader, type JwtPayload } from 'jsonwebtoken';
import { ConnectionError } from 'sequelize';
import type { Deps, Principal } from '../handlers/_lib/context';
import { HttpError, UnauthorizedError } from '../handlers/_lib/errors';
import type { Row } from '../models/define';
import { fullName } from '../models/user';
import { logger } from '../server/logger';
import { createExternalUserResolver } from './external-users';
import { createPublicKeyLookup, KeySourceUnavailableError, UnknownSigningKeyError } from './jwks-clients';
import type { KeyStore } from './keys';
import { issuerOf, realmOfIssuer } from './tokens';

export type Headers = Record<string, string | string[] | undefined>;
export type Authenticate = (headers: Headers) => Promise<Principal>;

/** Verified claims of an access token; `sub` and `exp` are guaranteed present. */
export type AccessClaims = JwtPayload & { sub: string; exp: number };

/**
 * Finds the user a verified token speaks for; null answers 401. Embedded issuer: `sub` is the user's uid.
 * External IdP: stored subject, then email (linked), then just-in-time creation (auth/external-users).
 */
export type UserResolver = (tenant: Row, claims: AccessClaims) => Promise<Row | null>;

const CLOCK_TOLERANCE_SECONDS = 30;

/** Turns `Authorization: Bearer <jwt>` into a Principal, or throws 401 (CONTRACT §1.3). */
export function createAuthenticator(deps: Deps & { keys?: KeyStore; resolveUser?: UserResolver }): Authenticate {
  const external = deps.config.externalAuthUrl !== undefined;
  const embeddedKeys = external ? undefined : deps.keys;
  const publicKeyOf = createPublicKeyLookup({ authUrl: deps.authUrl, keys: embeddedKeys });
  const resolveUser = deps.resolveUser ?? (external ? createExternalUserResolver(deps) : uidResolver(deps));

  return async function authenticate(headers: Headers): Promise<Principal> {
    const token = bearerToken(headers);
    const { header, payload } = decode(token);
    if (header.alg !== 'RS256') throw rejected('Unsupported token algorithm');
    if (typeof header.kid !== 'string' || header.kid === '') throw rejected('Token has no key id');

    const authUrl = deps.authUrl();
    const realm = realmOfIssuer(authUrl, payload.iss);
    if (!realm) throw rejected('Unknown token issuer');
    const expected = headerValue(headers, 'realm');
    if (expected !== undefined && expected.trim().toLowerCase() !== realm.toLowerCase()) {
      throw rejected('Token realm does not match the Realm header');
    }
    const tenant = await deps.models.Tenant.findOne({ where: { shortName: realm } });
    if (!tenant) throw rejected('Unknown realm');

    const publicKey = await lookupKey(() => publicKeyOf(realm, header.kid!), external);
    const claims = verify(token, publicKey, issuerOf(authUrl, realm));
    // Refresh and ID tokens are signed by the same key; only access tokens open the API.
    const typ = typeof claims.typ === 'string' ? claims.typ : undefined;
    if (external ? typ !== undefined && typ.toLowerCase() !== 'bearer' : typ !== 'Bearer') throw rejected('Not an access token');

    const user = await resolveUser(tenant, claims);
    if (!user) throw rejected('Unknown user');
    return {
      tenant,
      user,
      roles: new Set<string>(user.roles as string[]),
      email: user.email as string,
      fullName: fullName(user as unknown as Parameters<typeof fullName>[0]),
    };
  };
}

/** Embedded issuer: `sub` is the user's uid; a deleted user's tokens stop working at once. */
function uidResolver(deps: Deps): UserResolver {
  return (tenant, claims) => deps.models.User.findOne({ where: { uid: claims.sub, tenantUid: tenant.uid } });
}

const rejected = (reason: string) => new UnauthorizedError(reason, true);

function bearerToken(headers: Headers): string {
  const authorization = headerValue(headers, 'authorization');
  const match = authorization === undefined ? null : /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
  if (!match) throw new UnauthorizedError();
  return match[1];
}

/** Node lowercases header names, but callers may pass any record; repeated headers count by their first value. */
function headerValue(headers: Headers, name: string): string | undefined {
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
    if (err instanceof ConnectionError) throw err;
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

function verify(token: string, publicKey: string, issuer: string): AccessClaims {
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
