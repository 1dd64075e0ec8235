import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt, { type Jwt, type JwtPayload } from 'jsonwebtoken';
import { authenticateClient, readClientCredentials } from '../client-auth';
import type { KeyStore } from '../keys';
import { invalidGrant } from '../oauth-error';
import { issuerOf, mintTokens, type TokenResponse } from '../tokens';
import { required, requireClient, type GrantRequest } from './request';

/** Verified claims of one of our refresh tokens. */
export type RefreshClaims = JwtPayload & { sub: string; exp: number; azp: string };

/**
 * Refresh Token (RFC 6749 §6). The client is authenticated first (401 invalid_client), then the token must be
 * ours (embedded keys), of this realm, a refresh token, unexpired, issued to this same client, and its user must
 * still exist. The user is re-read, so roles and names changed since the login show in the new access token.
 *
 * No rotation (docs/contract.md §1.2): the presented refresh token stays valid. The reply carries a new refresh token that
 * expires when the presented one does — refreshing never extends a login past 1800 s, so a leaked refresh token
 * cannot be kept alive forever — and `refresh_expires_in` is the time left.
 */
export async function refreshTokenGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const token = required(form, 'refresh_token');
  const client = await authenticateClient(deps, tenant, requireClient(readClientCredentials(authorization, form)));
  const claims = await verifyRefreshToken(deps.keys, issuerOf(deps.authUrl(), realm), token);
  // Keycloak: "Unmatching clients".
  if (claims.azp !== client.clientId) throw invalidGrant('Invalid refresh token: it was issued to another client');

  const user = await deps.models.User.findOne({ where: { uid: claims.sub, tenantUid: tenant.uid } });
  if (!user) throw invalidGrant('Invalid refresh token: its user no longer exists');

  return mintTokens({
    keys: deps.keys,
    authUrl: deps.authUrl(),
    realm,
    user,
    clientId: client.clientId,
    scope: typeof claims.scope === 'string' ? claims.scope : undefined,
    withRefreshToken: true,
    refreshExpiresAt: claims.exp,
  });
}

/** Checks signature (any published embedded key), issuer (this realm), `typ: Refresh` and expiry; invalid_grant otherwise. */
export async function verifyRefreshToken(keys: KeyStore, issuer: string, token: string): Promise<RefreshClaims> {
  const decoded = decode(token);
  if (decoded.header.alg !== 'RS256' || typeof decoded.header.kid !== 'string') throw invalidGrant('Invalid refresh token');
  // Checked before the signature only to say it precisely; verification below checks the issuer again.
  if (decoded.payload.iss !== issuer) throw invalidGrant('Invalid refresh token: issued for another realm');
  const key = await publicKeyOf(keys, decoded.header.kid);

  let claims: JwtPayload | string;
  try {
    // No leeway: this issuer signed the token and is the one checking it.
    claims = jwt.verify(token, key, { algorithms: ['RS256'], issuer });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw invalidGrant('Refresh token expired');
    if (err instanceof jwt.JsonWebTokenError) throw invalidGrant('Invalid refresh token');
    throw err;
  }
  if (typeof claims !== 'object' || claims.typ !== 'Refresh') throw invalidGrant('Invalid refresh token: not a refresh token');
  if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || typeof claims.azp !== 'string') {
    throw invalidGrant('Invalid refresh token');
  }
  return claims as RefreshClaims;
}

function decode(token: string): Jwt & { payload: JwtPayload } {
  let decoded: Jwt | null = null;
  try {
    decoded = jwt.decode(token, { complete: true });
  } catch {
    // falls through to the refusal below
  }
  if (!decoded || typeof decoded.payload !== 'object' || decoded.payload === null) throw invalidGrant('Invalid refresh token');
  return decoded as Jwt & { payload: JwtPayload };
}

/** A kid this process has not loaded yet (another instance just rotated) re-reads the key store, which rate-limits it. */
async function publicKeyOf(keys: KeyStore, kid: string): Promise<KeyObject> {
  let jwk = (await keys.jwks()).keys.find((k) => k.kid === kid);
  jwk ??= (await keys.jwks({ refresh: true })).keys.find((k) => k.kid === kid);
  if (!jwk) throw invalidGrant('Invalid refresh token: unknown or retired signing key');
  return createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' });
}
