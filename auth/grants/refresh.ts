import { createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt, { type Jwt, type JwtPayload } from 'jsonwebtoken';
import { authenticateClient, readClientCredentials } from '../client-auth';
import type { KeyStore } from '../keys';
import { invalidGrant } from '../oauth-error';
import { issuerOf, mintTokens, REFRESH_TOKEN_TTL, type TokenResponse } from '../tokens';
import { isAlive, refreshExpiry, touchedIdle } from '../sso-session';
import { publicClientIds } from '../browser-clients';
import { isTokenRevoked, rotateGrant } from '../../models/issuer-state';
import type { Row } from '../../models/define';
import { required, requireClient, type GrantRequest } from './request';

/** Verified claims of one of our refresh tokens. */
export type RefreshClaims = JwtPayload & { sub: string; exp: number; azp: string };

/**
 * Refresh Token (RFC 6749 §6). The client is authenticated first (401 invalid_client), then the token must be
 * ours (embedded keys), of this realm, a refresh token, unexpired, issued to this same client, not revoked, and its
 * user must still exist. The user is re-read, so roles and names changed since the login show in the new access token.
 *
 * A refresh token of the password grant does not rotate (docs/contract.md §1.2): it stays valid, and the reply's
 * new refresh token expires when the presented one does, so refreshing never extends a login past 1800 s. A
 * refresh token of the browser's code flow belongs to a family (`gid`) and its session (`sid`): it rotates (the
 * presented one is spent; presenting it again revokes the family, RFC 9700 §4.14.2), lives only as long as its
 * session, and each use keeps the session from going idle.
 */
export async function refreshTokenGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const token = required(form, 'refresh_token');
  const client = await authenticateClient(deps, tenant, requireClient(readClientCredentials(authorization, form)), publicClientIds(deps.config.browserClients));
  const claims = await verifyRefreshToken(deps.keys, issuerOf(deps.authUrl(), realm), token);
  // Keycloak: "Unmatching clients".
  if (claims.azp !== client.clientId) throw invalidGrant('Invalid refresh token: it was issued to another client');
  if (typeof claims.gid !== 'string' && typeof claims.jti === 'string' && (await isTokenRevoked(deps.models, claims.jti))) {
    throw invalidGrant('Token is not active');
  }

  const user = await deps.models.User.findOne({ where: { uid: claims.sub, tenantUid: tenant.uid } });
  if (!user) throw invalidGrant('Invalid refresh token: its user no longer exists');

  const mint = { keys: deps.keys, authUrl: deps.authUrl(), realm, user, clientId: client.clientId, scope: typeof claims.scope === 'string' ? claims.scope : undefined, withRefreshToken: true };
  if (typeof claims.gid !== 'string') return mintTokens({ ...mint, refreshExpiresAt: claims.exp });
  return mintTokens({ ...mint, ...(await nextInFamily(deps, tenant, claims)) });
}

/** The family's next refresh token, if the presented one is its current one and its session is alive. */
async function nextInFamily(deps: GrantRequest['deps'], tenant: Row, claims: RefreshClaims) {
  const now = new Date();
  const session = typeof claims.sid === 'string' ? await deps.models.IssuerSession.findOne({ where: { uid: claims.sid, tenantUid: tenant.uid } }) : null;
  if (!session || !isAlive(session, now)) throw invalidGrant('Session not active');
  const jti = randomUUID();
  const rotated = await rotateGrant(deps.models, claims.gid as string, String(claims.jti), jti, now);
  if (rotated === 'reused') throw invalidGrant('Stale token: this refresh token was already used, so its family is revoked');
  if (rotated === 'revoked') throw invalidGrant('Token is not active');
  const idleExpiresAt = touchedIdle(session, now, deps.config.ssoSession);
  await session.update({ idleExpiresAt });
  const scope = typeof claims.scope === 'string' ? claims.scope : '';
  return {
    session: { sid: session.uid, authTime: session.authTime },
    family: { gid: claims.gid as string, jti },
    refreshExpiresAt: refreshExpiry(Math.floor(now.getTime() / 1000), REFRESH_TOKEN_TTL, { idleExpiresAt, maxExpiresAt: session.maxExpiresAt }),
    ...(scope.split(' ').includes('openid') ? { idToken: {} } : {}),
  };
}

/** Checks signature (any published embedded key), issuer (this realm), `typ: Refresh` and expiry; invalid_grant otherwise. */
export async function verifyRefreshToken(keys: KeyStore, issuer: string, token: string): Promise<RefreshClaims> {
  return verifyOwnToken(keys, issuer, token, 'Refresh', 'refresh token') as Promise<RefreshClaims>;
}

/**
 * One of this realm's own tokens of kind `typ`, by signature (any published embedded key), issuer and expiry
 * (`ignoreExpiration`: an ID token naming a session to end); invalid_grant otherwise, naming `what`.
 */
export async function verifyOwnToken(keys: KeyStore, issuer: string, token: string, typ: 'Refresh' | 'Bearer' | 'ID', what: string,
  ignoreExpiration = false): Promise<JwtPayload & { sub: string; azp: string }> {
  const decoded = decode(token, what);
  if (decoded.header.alg !== 'RS256' || typeof decoded.header.kid !== 'string') throw invalidGrant(`Invalid ${what}`);
  // Checked before the signature only to say it precisely; verification below checks the issuer again.
  if (decoded.payload.iss !== issuer) throw invalidGrant(`Invalid ${what}: issued for another realm`);
  const key = await publicKeyOf(keys, decoded.header.kid, what);

  let claims: JwtPayload | string;
  try {
    // No leeway: this issuer signed the token and is the one checking it.
    claims = jwt.verify(token, key, { algorithms: ['RS256'], issuer, ignoreExpiration });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw invalidGrant(`${what[0].toUpperCase()}${what.slice(1)} expired`);
    if (err instanceof jwt.JsonWebTokenError) throw invalidGrant(`Invalid ${what}`);
    throw err;
  }
  if (typeof claims !== 'object' || claims.typ !== typ) throw invalidGrant(`Invalid ${what}: not a ${what}`);
  if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || typeof claims.azp !== 'string') {
    throw invalidGrant(`Invalid ${what}`);
  }
  return claims as JwtPayload & { sub: string; azp: string };
}

function decode(token: string, what: string): Jwt & { payload: JwtPayload } {
  let decoded: Jwt | null = null;
  try {
    decoded = jwt.decode(token, { complete: true });
  } catch {
    // falls through to the refusal below
  }
  if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) throw invalidGrant(`Invalid ${what}`);
  return decoded as Jwt & { payload: JwtPayload };
}

/** A kid this process has not loaded yet (another instance just rotated) re-reads the key store, which rate-limits it. */
async function publicKeyOf(keys: KeyStore, kid: string, what: string): Promise<KeyObject> {
  let jwk = (await keys.jwks()).keys.find((k) => k.kid === kid);
  jwk ??= (await keys.jwks({ refresh: true })).keys.find((k) => k.kid === kid);
  if (!jwk) throw invalidGrant(`Invalid ${what}: unknown or retired signing key`);
  return createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' });
}
