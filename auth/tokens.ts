import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Row } from '../models/define';
import { fullName } from '../models/user';
import type { KeyStore } from './keys';

/** Lifetimes of docs/contract.md §1.2, in seconds. */
export const ACCESS_TOKEN_TTL = 300;
export const REFRESH_TOKEN_TTL = 1800;
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
}

/** Signs the access (and refresh) token for a user the grant has already authenticated. */
export async function mintTokens(options: MintOptions): Promise<TokenResponse> {
  const { keys, authUrl, realm, user, clientId } = options;
  const { kid, privateKeyPem } = await keys.activeKey();
  const iat = Math.floor(Date.now() / 1000);
  const scope = options.scope ?? DEFAULT_SCOPE;
  const sign = (claims: Record<string, unknown>) => jwt.sign(claims, privateKeyPem, { algorithm: 'RS256', keyid: kid });
  const common = { iss: issuerOf(authUrl, realm), sub: user.uid as string, azp: clientId, iat, scope };

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
    response.refresh_token = sign({ ...common, exp, jti: randomUUID(), typ: 'Refresh' });
    response.refresh_expires_in = exp - iat;
  }
  return response;
}
