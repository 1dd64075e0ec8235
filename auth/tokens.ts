import { createHash, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Row } from '../models/define';
import { fullName } from '../models/user';
import type { KeyStore } from './keys';

/** Lifetimes of docs/contract.md §1.2, in seconds. */
export const ACCESS_TOKEN_TTL = 300;
export const REFRESH_TOKEN_TTL = 1800;
export const ID_TOKEN_TTL = 300;
export const DEFAULT_SCOPE = 'openid profile email';

/** `{auth_url}/realms/{realm}`: the `iss` of every token of that realm. */
export function issuerOf(authUrl: string, realm: string): string {
  return `${authUrl}/realms/${realm}`;
}

/**
 * The realm named by `iss`, or undefined when `iss` is not `{authUrl}/realms/{realm}`. The realm must be one path
 * segment, so an issuer like `{authUrl}/realms/a/../b` or one on another host cannot pass for ours.
 */
export function realmOfIssuer(authUrl: string, iss: unknown): string | undefined {
  if (typeof iss !== 'string') return undefined;
  const prefix = `${authUrl}/realms/`;
  if (!iss.startsWith(prefix)) return undefined;
  const realm = iss.slice(prefix.length);
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(realm) ? realm : undefined;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
  refresh_token?: string;
  refresh_expires_in?: number;
  id_token?: string;
}

/** OpenID Connect Core §3.1.3.6: the left half of the access token's SHA-256, base64url. */
export function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export interface MintOptions {
  keys: KeyStore;
  authUrl: string;
  realm: string;
  user: Row;
  clientId: string;
  scope?: string;
  /** Password and refresh grants hand out a refresh token; client_credentials does not. */
  withRefreshToken: boolean;
  /**
   * Epoch seconds the refresh token must expire by (the refresh grant passes the presented token's `exp`, so
   * refreshing never extends a login); default and upper bound: now + REFRESH_TOKEN_TTL.
   */
  refreshExpiresAt?: number;
  /** A sign-in through the browser: its issuer session (`sid` in every token, `auth_time` in the ID token). */
  session?: { sid: string; authTime: Date };
  /** The refresh token belongs to this family of the code flow (`gid`), as its current token (`jti`). */
  family?: { gid: string; jti: string };
  /** Issue an ID token too (the `openid` scope of the code flow), with this `nonce` if the client sent one. */
  idToken?: { nonce?: string };
}

/** Signs the access (and refresh) token for a user the grant has already authenticated. */
export async function mintTokens(options: MintOptions): Promise<TokenResponse> {
  const { keys, authUrl, realm, user, clientId } = options;
  const { kid, privateKeyPem } = await keys.activeKey();
  const iat = Math.floor(Date.now() / 1000);
  const scope = options.scope ?? DEFAULT_SCOPE;
  const sign = (claims: Record<string, unknown>) => jwt.sign(claims, privateKeyPem, { algorithm: 'RS256', keyid: kid });
  const common = { iss: issuerOf(authUrl, realm), sub: user.uid as string, azp: clientId, iat, scope, ...(options.session ? { sid: options.session.sid } : {}) };

  const email = user.email as string;
  const access_token = sign({
    ...common,
    exp: iat + ACCESS_TOKEN_TTL,
    jti: randomUUID(),
    typ: 'Bearer',
    preferred_username: user.serviceAccount ? `service-account-${user.clientId}` : email,
    email,
    given_name: user.firstName,
    family_name: user.lastName,
    name: fullName(user as unknown as Parameters<typeof fullName>[0]),
    realm_access: { roles: [...(user.roles as string[])] },
  });
  const response: TokenResponse = { access_token, expires_in: ACCESS_TOKEN_TTL, token_type: 'Bearer', scope };
  if (options.withRefreshToken) {
    // Claims kept minimal: the refresh grant re-reads the user, so roles or names changed since are picked up.
    const exp = Math.min(iat + REFRESH_TOKEN_TTL, options.refreshExpiresAt ?? Infinity);
    const family = options.family ? { gid: options.family.gid } : {};
    response.refresh_token = sign({ ...common, ...family, exp, jti: options.family?.jti ?? randomUUID(), typ: 'Refresh' });
    response.refresh_expires_in = exp - iat;
  }
  if (options.idToken) {
    response.id_token = sign({
      iss: common.iss, sub: common.sub, aud: clientId, azp: clientId, iat, exp: iat + ID_TOKEN_TTL, typ: 'ID',
      ...(options.session ? { auth_time: Math.floor(options.session.authTime.getTime() / 1000), sid: options.session.sid } : {}),
      ...(options.idToken.nonce !== undefined ? { nonce: options.idToken.nonce } : {}),
      at_hash: atHash(access_token),
      preferred_username: email, email, given_name: user.firstName, family_name: user.lastName,
      name: fullName(user as unknown as Parameters<typeof fullName>[0]),
    });
  }
  return response;
}
