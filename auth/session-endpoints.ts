/**
 * The issuer's endpoints around a browser session (docs/contract.md §1.2): UserInfo (OpenID Connect Core §5.3),
 * RP-Initiated Logout 1.0 (`end_session_endpoint`) and token revocation (RFC 7009).
 */
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Row } from '../models/define';
import { fullName } from '../models/user';
import { endSessions, findSession, revokeGrant, revokeToken } from '../models/issuer-state';
import { browserClients, postLogoutAllowed, publicClientIds } from './browser-clients';
import { cookiesOf, crossSite, realmCookie, sendPage, SESSION_COOKIE } from './browser-flow';
import { authenticateClient, readClientCredentials } from './client-auth';
import { required, requireClient, type IssuerDeps } from './grants';
import { verifyOwnToken } from './grants/refresh';
import { publicRootOf } from './issuer-urls';
import { OAuthError, invalidGrant, invalidRequest } from './oauth-error';
import { renderErrorPage, renderSignedOutPage, renderSignOutPage } from './sign-in-page';
import { isAlive } from './sso-session';
import { issuerOf } from './tokens';

export const USERINFO = '/realms/:realm/protocol/openid-connect/userinfo';
export const LOGOUT = '/realms/:realm/protocol/openid-connect/logout';
export const REVOKE = '/realms/:realm/protocol/openid-connect/revoke';
const CONFIRM_COOKIE = 'PMS_LOGOUT';

interface Realm { realm: string; tenant: Row }
const realmOf = (res: Response) => res.locals.auth as Realm;
const param = (source: unknown, name: string): string | undefined => {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function sessionRoutes(router: Router, deps: IssuerDeps, withRealm: express.RequestHandler): void {
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30 });
  const issuer = (realm: string) => issuerOf(deps.authUrl(), realm);

  /** A bearer access token of the realm, its user and (for a browser sign-in) a live session; 401 otherwise. */
  const userinfo = async (req: Request, res: Response) => {
    const { realm, tenant } = realmOf(res);
    const refuse = (description: string) => res.status(401).set('WWW-Authenticate', `Bearer realm="${realm}", error="invalid_token", error_description="${description}"`)
      .json({ error: 'invalid_token', error_description: description });
    const header = req.get('authorization') ?? '';
    const token = /^Bearer +(\S+)$/i.exec(header)?.[1] ?? param(req.body, 'access_token');
    if (!token) {
      res.status(401).set('WWW-Authenticate', `Bearer realm="${realm}"`).json({ error: 'invalid_request', error_description: 'No access token' });
      return;
    }
    let claims;
    try {
      claims = await verifyOwnToken(deps.keys, issuer(realm), token, 'Bearer', 'access token');
    } catch (err) {
      if (err instanceof OAuthError) return void refuse(err.description ?? 'Invalid access token');
      throw err;
    }
    const user = await deps.models.User.findOne({ where: { uid: claims.sub, tenantUid: tenant.uid } });
    if (!user) return void refuse('User not found');
    if (typeof claims.sid === 'string') {
      const session = await deps.models.IssuerSession.findOne({ where: { uid: claims.sid, tenantUid: tenant.uid } });
      if (!session || !isAlive(session, new Date())) return void refuse('Session not active');
    }
    res.set('Cache-Control', 'no-store').json({
      sub: user.uid, email: user.email, preferred_username: user.serviceAccount ? `service-account-${user.clientId}` : user.email,
      given_name: user.firstName, family_name: user.lastName, name: fullName(user as never),
    });
  };

  /**
   * Ends the browser's session in the realm. With an `id_token_hint` of this realm the request names its client
   * and may return to one of its registered `post_logout_redirect_uri`s with `state`; without one, the browser
   * confirms with a form first (a link on another site cannot sign anyone out).
   */
  const logout = async (req: Request, res: Response) => {
    const { realm, tenant } = realmOf(res);
    const source = req.method === 'POST' ? req.body : req.query;
    const hint = param(source, 'id_token_hint');
    const redirectUri = param(source, 'post_logout_redirect_uri');
    const state = param(source, 'state');
    let clientId = param(source, 'client_id');
    let sid: string | undefined;
    if (hint) {
      try {
        const claims = await verifyOwnToken(deps.keys, issuer(realm), hint, 'ID', 'ID token', true);
        if (clientId !== undefined && clientId !== claims.azp) throw invalidRequest('client_id is not the ID token\'s audience');
        clientId = claims.azp;
        sid = typeof claims.sid === 'string' ? claims.sid : undefined;
      } catch (err) {
        if (!(err instanceof OAuthError)) throw err;
        sendPage(res, 400, renderErrorPage('The sign-out request names a sign-in that is not valid here.'));
        return;
      }
    }
    if (redirectUri !== undefined) {
      const client = clientId === undefined ? undefined : browserClients(deps.config.browserClients, publicRootOf(deps.authUrl()), deps.config.basePath).get(clientId);
      if (!client || !postLogoutAllowed(client, redirectUri)) {
        sendPage(res, 400, renderErrorPage('The application asked to return to an address it has not registered.'));
        return;
      }
    }
    const confirmed = req.method === 'POST' && param(req.body, 'confirm') === 'yes';
    if (!hint && !confirmed) {
      const csrf = randomBytes(24).toString('base64url');
      res.append('Set-Cookie', realmCookie(deps, realm, CONFIRM_COOKIE, csrf, 600));
      const query = new URLSearchParams({ ...(redirectUri ? { post_logout_redirect_uri: redirectUri } : {}), ...(state ? { state } : {}), ...(clientId ? { client_id: clientId } : {}) });
      const action = `${deps.authUrl()}/realms/${realm}/protocol/openid-connect/logout${query.size > 0 ? `?${query}` : ''}`;
      sendPage(res, 200, renderSignOutPage({ action, csrf, tenantName: String(tenant.name) }), redirectUri ? [new URL(redirectUri).origin] : []);
      return;
    }
    if (confirmed) {
      const csrf = cookiesOf(req)[CONFIRM_COOKIE];
      if (crossSite(req, new URL(deps.authUrl()).origin) || !csrf || param(req.body, 'csrf') !== csrf) {
        sendPage(res, 403, renderErrorPage('This sign-out form was not sent from this site, so it is refused.'));
        return;
      }
      res.append('Set-Cookie', realmCookie(deps, realm, CONFIRM_COOKIE, '', 0));
    }
    const cookie = cookiesOf(req)[SESSION_COOKIE];
    const held = cookie && cookie.length <= 128 ? await findSession(deps.models, cookie, tenant.uid) : null;
    if (held) await endSessions(deps.models, { uid: held.uid, tenantUid: tenant.uid });
    if (sid && sid !== held?.uid) await endSessions(deps.models, { uid: sid, tenantUid: tenant.uid });
    res.append('Set-Cookie', realmCookie(deps, realm, SESSION_COOKIE, '', 0));
    if (redirectUri !== undefined) {
      const back = new URL(redirectUri);
      if (state !== undefined) back.searchParams.append('state', state);
      res.set('Cache-Control', 'no-store').redirect(302, back.toString());
      return;
    }
    sendPage(res, 200, renderSignedOutPage());
  };

  /**
   * RFC 7009: the client revokes one of its refresh tokens (the whole family of a code flow's), authenticated as at
   * the token endpoint. An access token lives five minutes and is not kept, so it cannot be revoked (§2.2 allows
   * that); a token that is not valid here is answered 200 as the RFC asks, so nobody learns which tokens exist.
   */
  const revoke = async (req: Request, res: Response) => {
    const { realm, tenant } = realmOf(res);
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    const fields = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    const token = required(fields, 'token');
    const client = await authenticateClient(deps, tenant, requireClient(readClientCredentials(req.get('authorization'), fields)), publicClientIds(deps.config.browserClients));
    let claims;
    try {
      claims = await verifyOwnToken(deps.keys, issuer(realm), token, 'Refresh', 'refresh token', true);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      res.status(200).end();
      return;
    }
    if (claims.azp !== client.clientId) throw invalidGrant('The token was issued to another client');
    const now = new Date();
    if (typeof claims.gid === 'string') await revokeGrant(deps.models, claims.gid, now);
    else if (typeof claims.jti === 'string') await revokeToken(deps.models, claims.jti, new Date((claims.exp ?? 0) * 1000));
    res.status(200).end();
  };

  router.get(USERINFO, withRealm, userinfo);
  router.post(USERINFO, withRealm, form, userinfo);
  router.get(LOGOUT, withRealm, logout);
  router.post(LOGOUT, withRealm, form, logout);
  router.post(REVOKE, withRealm, form, revoke);
}


