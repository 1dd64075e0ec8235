/**
 * Browser sign-in at the embedded issuer (docs/contract.md §1.2, docs/adr/0013-browser-sign-in.md): the
 * authorization endpoint, the sign-in form it shows, the issuer session that makes the next application's sign-in
 * silent, and the codes it hands back. Everything a second host needs is in the database (models/issuer-state), so
 * a browser whose requests reach different hosts signs in without sticky sessions.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { Row } from '../models/define';
import { endSessions, findOpenRequest, findSession, hashOf, takeRequest, type IssuerRequestRow, type IssuerSessionRow } from '../models/issuer-state';
import { judgeAuthorizationRequest, redirectWith, type AuthorizationRequest, type Parameters } from './authorize-request';
import { browserClients } from './browser-clients';
import type { IssuerDeps } from './grants';
import { publicRootOf, realmCookiePath } from './issuer-urls';
import { OAuthError } from './oauth-error';
import { pageHeaders, renderErrorPage, renderSignInPage } from './sign-in-page';
import { signInPerson } from './sign-in-guard';
import { isAlive, newSessionTimes, touchedIdle, withinMaxAge } from './sso-session';
import { issuerOf } from './tokens';

export const AUTHORIZE = '/realms/:realm/protocol/openid-connect/auth';
export const SIGN_IN = '/realms/:realm/login-actions/authenticate';

export const SESSION_COOKIE = 'PMS_SESSION';
const BINDING_COOKIE = 'PMS_AUTH';
const REQUEST_SECONDS = 600;
const CODE_SECONDS = 60;
const secret = () => randomBytes(32).toString('base64url');
const newUid = () => randomUUID().replaceAll('-', '');
const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** The realm's tenant, found by the router's realm check. */
interface Realm { realm: string; tenant: Row }
const realmOf = (res: Response) => res.locals.auth as Realm;

export function cookiesOf(req: Request): Record<string, string | undefined> {
  const header = req.headers.cookie;
  return header ? parseCookie(header) : {};
}

/** A cookie of this realm's pages: HttpOnly, SameSite=Lax, Secure when the issuer is served over https. */
export function realmCookie(deps: IssuerDeps, realm: string, name: string, value: string, maxAgeSeconds?: number): string {
  return stringifySetCookie({
    name, value, path: realmCookiePath(realm), httpOnly: true, sameSite: 'lax', secure: deps.authUrl().startsWith('https:'),
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  });
}

export function sendPage(res: Response, status: number, html: string, formTargets: string[] = []): void {
  res.status(status).set(pageHeaders(formTargets)).send(html);
}

const originOf = (uri: string) => new URL(uri).origin;

/**
 * A form posted from another site is refused: the browser says where it came from (`Sec-Fetch-Site`, `Origin`),
 * and a request it says nothing of (an opaque `null` origin, an old browser) still needs the binding cookie that
 * only this site set.
 */
export function crossSite(req: Request, issuerOrigin: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.get('origin');
  return origin !== undefined && origin !== 'null' && origin !== issuerOrigin;
}

export function browserRoutes(router: Router, deps: IssuerDeps, withRealm: express.RequestHandler): void {
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30 });
  const clients = () => browserClients(deps.config.browserClients, publicRootOf(deps.authUrl()), deps.config.basePath);
  const issuerOrigin = () => new URL(deps.authUrl()).origin;

  const authorize = async (req: Request, res: Response) => {
    const { realm, tenant } = realmOf(res);
    const params = (req.method === 'POST' ? req.body ?? {} : req.query) as Parameters;
    const known = clients();
    const judged = judgeAuthorizationRequest(params, known);
    if (judged.kind === 'page') {
      sendPage(res, 400, renderErrorPage(judged.message));
      return;
    }
    const iss = issuerOf(deps.authUrl(), realm);
    if (judged.kind === 'redirect') {
      res.set('Cache-Control', 'no-store').redirect(302, redirectWith(judged.redirectUri, { error: judged.error, error_description: judged.description, state: judged.state, iss }));
      return;
    }
    const request = judged.request;
    const now = new Date();
    const current = await liveSession(req, tenant, now);
    if (current && request.prompt !== 'login' && withinMaxAge(current.authTime, now, request.maxAge)) {
      await current.update({ idleExpiresAt: touchedIdle(current, now, deps.config.ssoSession) });
      res.set('Cache-Control', 'no-store').redirect(302, await codeRedirect(current, request, realm));
      return;
    }
    if (request.prompt === 'none') {
      res.set('Cache-Control', 'no-store').redirect(302, redirectWith(request.redirectUri, { error: 'login_required', error_description: 'The user is not signed in', state: request.state, iss }));
      return;
    }
    const binding = secret();
    const stored = await deps.models.IssuerRequest.create({
      uid: newUid(), tenantUid: tenant.uid, clientId: request.clientId, redirectUri: request.redirectUri, scope: request.scope,
      state: request.state ?? null, nonce: request.nonce ?? null, codeChallenge: request.codeChallenge, loginHint: request.loginHint ?? null,
      bindingHash: hashOf(binding), expiresAt: after(now, REQUEST_SECONDS), consumedAt: null,
    });
    res.append('Set-Cookie', realmCookie(deps, realm, BINDING_COOKIE, binding, REQUEST_SECONDS));
    showForm(res, 200, stored, tenant, realm, binding, request.loginHint);
  };

  function showForm(res: Response, status: number, request: IssuerRequestRow | AuthorizationRequest & { uid: string }, tenant: Row, realm: string, binding: string,
    username?: string, error?: string): void {
    const action = `${deps.authUrl()}/realms/${realm}/login-actions/authenticate`;
    sendPage(res, status, renderSignInPage({ tenantName: String(tenant.name), action, request: request.uid, csrf: binding, username, error }), [originOf(request.redirectUri)]);
  }

  /** The live session this browser holds in the realm, if any. */
  async function liveSession(req: Request, tenant: Row, now: Date): Promise<IssuerSessionRow | null> {
    const value = cookiesOf(req)[SESSION_COOKIE];
    if (!value || value.length > 128) return null;
    const session = await findSession(deps.models, value, tenant.uid);
    return session && isAlive(session, now) ? session : null;
  }

  /** A new code for the session and the request, as the redirect back to the client. */
  async function codeRedirect(session: IssuerSessionRow, request: Pick<AuthorizationRequest, 'clientId' | 'redirectUri' | 'codeChallenge' | 'nonce' | 'scope' | 'state'>, realm: string): Promise<string> {
    const code = secret();
    await deps.models.IssuerCode.create({
      codeHash: hashOf(code), sessionUid: session.uid, tenantUid: session.tenantUid, userUid: session.userUid, clientId: request.clientId,
      redirectUri: request.redirectUri, codeChallenge: request.codeChallenge, nonce: request.nonce ?? null, scope: request.scope,
      expiresAt: after(new Date(), CODE_SECONDS), consumedAt: null, grantUid: null,
    });
    return redirectWith(request.redirectUri, { code, state: request.state, iss: issuerOf(deps.authUrl(), realm) });
  }

  const expired = (res: Response) => sendPage(res, 400, renderErrorPage('This sign-in page has expired or was not opened in this browser. Go back to the application and start again.'));

  const signIn = async (req: Request, res: Response) => {
    const { realm, tenant } = realmOf(res);
    if (crossSite(req, issuerOrigin())) {
      sendPage(res, 403, renderErrorPage('This sign-in form was sent from another site, so it is refused.'));
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof body[name] === 'string' ? body[name] as string : '');
    const binding = cookiesOf(req)[BINDING_COOKIE];
    const now = new Date();
    const uid = field('request');
    const request = /^[0-9a-f]{32}$/.test(uid) ? await findOpenRequest(deps.models, uid, tenant.uid, now) : null;
    if (!request || !binding || field('csrf') !== binding || hashOf(binding) !== request.bindingHash) {
      expired(res);
      return;
    }
    const username = field('username');
    const password = field('password');
    let person: Row | null = null;
    if (username !== '' && password !== '') {
      try {
        person = await deps.signIns.run(() => signInPerson(deps, tenant, username, password));
      } catch (err) {
        if (!(err instanceof OAuthError) || err.retryAfter === undefined) throw err;
        res.set('Retry-After', String(err.retryAfter));
        showForm(res, 503, request, tenant, realm, binding, username, 'Too many sign-ins at once. Wait a moment and try again.');
        return;
      }
    }
    if (!person) {
      // The same words for an unknown address, a wrong password and a locked account, as the password grant.
      showForm(res, 200, request, tenant, realm, binding, username, 'Invalid email or password.');
      return;
    }
    if (!(await takeRequest(deps.models, request.uid, now))) {
      expired(res);
      return;
    }
    // A new session at every sign-in (no fixation): whatever session this browser held in the realm ends.
    const previous = cookiesOf(req)[SESSION_COOKIE];
    if (previous && previous.length <= 128) {
      const old = await findSession(deps.models, previous, tenant.uid);
      if (old) await endSessions(deps.models, { uid: old.uid, tenantUid: tenant.uid });
    }
    const value = secret();
    const times = newSessionTimes(now, deps.config.ssoSession);
    const session = await deps.models.IssuerSession.create({ uid: newUid(), secretHash: hashOf(value), tenantUid: tenant.uid, userUid: person.uid, ...times });
    res.append('Set-Cookie', realmCookie(deps, realm, SESSION_COOKIE, value));
    res.append('Set-Cookie', realmCookie(deps, realm, BINDING_COOKIE, '', 0));
    const redirect = await codeRedirect(session, {
      clientId: request.clientId, redirectUri: request.redirectUri, codeChallenge: request.codeChallenge, scope: request.scope,
      ...(request.nonce !== null ? { nonce: request.nonce } : {}), ...(request.state !== null ? { state: request.state } : {}),
    }, realm);
    res.set('Cache-Control', 'no-store').redirect(303, redirect);
  };

  router.get(AUTHORIZE, withRealm, authorize);
  router.post(AUTHORIZE, withRealm, form, authorize);
  router.post(SIGN_IN, withRealm, form, signIn);
}

