import { randomUUID } from 'node:crypto';
import { browserClients } from '../browser-clients';
import { readClientCredentials } from '../client-auth';
import { invalidClient, invalidGrant } from '../oauth-error';
import { verifiesChallenge } from '../pkce';
import { isAlive, refreshExpiry, touchedIdle } from '../sso-session';
import { mintTokens, REFRESH_TOKEN_TTL, type TokenResponse } from '../tokens';
import { hashOf, redeemCode, revokeGrant } from '../../models/issuer-state';
import { publicRootOf } from '../issuer-urls';
import { required, requireClient, type GrantRequest } from './request';

/**
 * Authorization Code (RFC 6749 §4.1.3) with PKCE (RFC 7636), for the browser clients: the code must be this
 * realm's, unexpired and unused, issued to this client for this redirect URI, and the verifier must be the one its
 * challenge was made from. A code presented again revokes what its first redemption issued. The answer adds an ID
 * token (OpenID Connect Core §3.1.3.3) when `openid` was asked for; the refresh token is the first of its family.
 */
export async function authorizationCodeGrant({ deps, realm, tenant, form, authorization }: GrantRequest): Promise<TokenResponse> {
  const credentials = requireClient(readClientCredentials(authorization, form));
  const clients = browserClients(deps.config.browserClients, publicRootOf(deps.authUrl()), deps.config.basePath);
  // Browser clients are public: a secret proves nothing, and a service account has no code to redeem.
  if (!clients.has(credentials.clientId) || (credentials.clientSecret !== undefined && credentials.clientSecret !== '')) throw invalidClient();
  const code = required(form, 'code');
  const redirectUri = required(form, 'redirect_uri');
  const verifier = form.code_verifier ?? '';

  const now = new Date();
  const found = await deps.models.IssuerCode.findByPk(hashOf(code));
  if (!found || found.tenantUid !== tenant.uid) throw invalidGrant('Code not valid');
  if (found.consumedAt) {
    if (found.grantUid) await revokeGrant(deps.models, found.grantUid, now);
    throw invalidGrant('Code not valid: it was already used, so what it issued is revoked');
  }
  if (found.expiresAt.getTime() <= now.getTime()) throw invalidGrant('Code not valid: expired');
  if (found.clientId !== credentials.clientId) throw invalidGrant('Code not valid: it was issued to another client');
  if (found.redirectUri !== redirectUri) throw invalidGrant('Incorrect redirect_uri');
  if (verifier === '') throw invalidGrant('PKCE code verifier not specified');
  if (!verifiesChallenge(verifier, found.codeChallenge)) throw invalidGrant('PKCE verification failed');

  const session = await deps.models.IssuerSession.findOne({ where: { uid: found.sessionUid, tenantUid: tenant.uid } });
  if (!session || !isAlive(session, now)) throw invalidGrant('Session not active');
  const user = await deps.models.User.findOne({ where: { uid: found.userUid, tenantUid: tenant.uid } });
  if (!user) throw invalidGrant('Code not valid: its user no longer exists');

  const family = { gid: randomUUID().replaceAll('-', ''), jti: randomUUID() };
  const redeemed = await redeemCode(deps.models, found, { uid: family.gid, jti: family.jti }, now);
  if (redeemed.kind === 'replayed') throw invalidGrant('Code not valid: it was already used, so what it issued is revoked');
  if (redeemed.kind === 'expired') throw invalidGrant('Code not valid: expired');

  const idleExpiresAt = touchedIdle(session, now, deps.config.ssoSession);
  await session.update({ idleExpiresAt });
  return mintTokens({
    keys: deps.keys, authUrl: deps.authUrl(), realm, user, clientId: credentials.clientId, scope: found.scope, withRefreshToken: true,
    session: { sid: session.uid, authTime: session.authTime }, family,
    refreshExpiresAt: refreshExpiry(Math.floor(now.getTime() / 1000), REFRESH_TOKEN_TTL, { idleExpiresAt, maxExpiresAt: session.maxExpiresAt }),
    ...(found.scope.split(' ').includes('openid') ? { idToken: found.nonce === null ? {} : { nonce: found.nonce } } : {}),
  });
}
