/**
 * The person's sign-in: the authorization code flow with PKCE against the tenant's issuer (oauth4webapi), as RFC 9700
 * asks of a browser application. The tokens live in this module's memory only: a reload signs in again, which the
 * issuer's session answers without a password. What must survive the trip to the issuer and back (the PKCE verifier,
 * state, nonce and the page to return to) waits in sessionStorage, one sign-in at a time, and is removed on return.
 */
import * as oauth from 'oauth4webapi';
import { config } from '../config';

const client: oauth.Client = { client_id: config.clientId };
const PENDING = 'portal.sign-in';
const TENANT = 'portal.tenant';
const SIGNED_OUT = 'portal.signed-out';
/** Renew the access token this long before it ends. */
const EARLY_MS = 30_000;

interface Pending { verifier: string; state: string; nonce: string; tenant: string; returnTo: string }
interface Tokens { access: string; refresh?: string; idToken?: string; expiresAt: number; tenant: string }

let tokens: Tokens | null = null;
let renewing: Promise<string> | null = null;
const servers = new Map<string, Promise<oauth.AuthorizationServer>>();

/** The issuer is this service's own on http://localhost during a trial; oauth4webapi asks for https unless told. */
const httpAllowed = (url: string) => (url.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {});

const issuerOf = (tenant: string) => new URL(`${config.authUrl}/realms/${encodeURIComponent(tenant)}`);

function authorizationServer(tenant: string): Promise<oauth.AuthorizationServer> {
  let found = servers.get(tenant);
  if (!found) {
    const issuer = issuerOf(tenant);
    found = oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...httpAllowed(issuer.href) })
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    found.catch(() => servers.delete(tenant));
    servers.set(tenant, found);
  }
  return found;
}

/** The tenant this browser signed in to last (not a secret: it names the issuer). */
export function rememberedTenant(): string | null {
  return localStorage.getItem(TENANT);
}

export function forgetTenant(): void {
  localStorage.removeItem(TENANT);
}

/** Whether the person signed out in this tab: then the portal waits for them to sign in again. */
export function signedOutHere(): boolean {
  return sessionStorage.getItem(SIGNED_OUT) !== null;
}

export const signedIn = (): boolean => tokens !== null;
export const currentTenant = (): string | null => tokens?.tenant ?? null;

/** Leaves for the issuer's sign-in; comes back to the redirect URI, where finishSignIn takes over. */
export async function startSignIn(tenant: string, returnTo: string): Promise<never> {
  const as = await authorizationServer(tenant);
  if (!as.authorization_endpoint) throw new Error(`The issuer of ${tenant} has no authorization endpoint`);
  const pending: Pending = {
    verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), tenant, returnTo,
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  sessionStorage.removeItem(SIGNED_OUT);
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: client.client_id, redirect_uri: config.redirectUri, response_type: 'code', scope: 'openid',
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier), code_challenge_method: 'S256',
    state: pending.state, nonce: pending.nonce,
  }).toString();
  window.location.assign(url.href);
  return new Promise<never>(() => undefined);
}

/** Whether this URL is the issuer's answer to a sign-in (a code or an error, with a state). */
export const isSignInAnswer = (url: URL): boolean => url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));

export class SignInError extends Error {}

/** Redeems the code of the issuer's answer; resolves with the page to return to. */
export async function finishSignIn(url: URL): Promise<string> {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (!raw) throw new SignInError('This sign-in was already completed or was started in another tab. Sign in again.');
  const pending = JSON.parse(raw) as Pending;
  const as = await authorizationServer(pending.tenant);
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, url, pending.state);
  } catch (err) {
    const description = err instanceof oauth.AuthorizationResponseError ? err.error_description ?? err.error : (err as Error).message;
    throw new SignInError(`The sign-in did not complete: ${description}`);
  }
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, config.redirectUri, pending.verifier, httpAllowed(as.issuer));
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  keep(result, pending.tenant);
  localStorage.setItem(TENANT, pending.tenant);
  return pending.returnTo;
}

function keep(result: oauth.TokenEndpointResponse, tenant: string): void {
  tokens = {
    access: result.access_token,
    refresh: result.refresh_token ?? tokens?.refresh,
    idToken: result.id_token ?? tokens?.idToken,
    expiresAt: Date.now() + (result.expires_in ?? 300) * 1000,
    tenant,
  };
}

/** A live access token, renewed with the (rotating) refresh token when it is about to end; null when signed out. */
export async function accessToken(): Promise<string | null> {
  if (!tokens) return null;
  if (tokens.expiresAt - EARLY_MS > Date.now()) return tokens.access;
  renewing ??= renew(tokens).finally(() => { renewing = null; });
  return renewing.catch(() => null);
}

async function renew(current: Tokens): Promise<string> {
  if (!current.refresh) throw new SignInError('The session cannot be renewed');
  const as = await authorizationServer(current.tenant);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), current.refresh, httpAllowed(as.issuer));
    keep(await oauth.processRefreshTokenResponse(as, client, response), current.tenant);
    return tokens!.access;
  } catch (err) {
    // The issuer session ended (signed out elsewhere, idle too long, revoked): sign in again.
    tokens = null;
    throw err;
  }
}

/** Forgets the tokens and ends the issuer session (RP-Initiated Logout), coming back to the portal's root. */
export async function signOut(): Promise<never> {
  const current = tokens;
  tokens = null;
  sessionStorage.setItem(SIGNED_OUT, '1');
  if (!current) {
    window.location.assign(config.redirectUri);
    return new Promise<never>(() => undefined);
  }
  const as = await authorizationServer(current.tenant);
  const url = new URL(as.end_session_endpoint ?? config.redirectUri);
  if (as.end_session_endpoint) {
    url.search = new URLSearchParams({
      client_id: client.client_id, post_logout_redirect_uri: config.redirectUri, ...(current.idToken ? { id_token_hint: current.idToken } : {}),
    }).toString();
  }
  window.location.assign(url.href);
  return new Promise<never>(() => undefined);
}
