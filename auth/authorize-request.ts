/**
 * The authorization request (RFC 6749 §4.1.1, RFC 7636, OpenID Connect Core §3.1.2.1), read and judged before
 * anything is shown. Pure. Until the client and its redirect URI are known good, nothing may redirect (an open
 * redirect otherwise): those failures are a page. Every later failure goes back to the client's redirect URI with
 * `error`, `error_description` and `state` (RFC 6749 §4.1.2.1).
 */
import { redirectAllowed, type BrowserClient } from './browser-clients';
import { isCodeChallenge } from './pkce';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** As asked for (default `openid`); an ID token is issued only with `openid` in it. */
  scope: string;
  state?: string;
  nonce?: string;
  codeChallenge: string;
  /** `prompt=login`: a sign-in even with a live session; `prompt=none`: never a page. */
  prompt?: 'login' | 'none';
  loginHint?: string;
  maxAge?: number;
}

export type AuthorizationError = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'login_required';

export type Judged =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; redirectUri: string; state?: string; error: AuthorizationError; description: string }
  | { kind: 'ok'; request: AuthorizationRequest };

/** The parameters as the query (or a POSTed form) gave them: a string, or a list when one was sent twice. */
export type Parameters = Record<string, string | string[] | undefined>;

const MAX_VALUE = 2048;
const SCOPES = new Set(['openid', 'profile', 'email', 'offline_access', 'roles', 'web-origins']);

export function judgeAuthorizationRequest(params: Parameters, clients: ReadonlyMap<string, BrowserClient>): Judged {
  const single = (name: string): string | undefined | null => {
    const value = params[name];
    if (Array.isArray(value)) return null;
    return value === '' ? undefined : value;
  };
  const clientId = single('client_id');
  if (clientId === null) return { kind: 'page', message: 'The client_id parameter is given more than once.' };
  if (clientId === undefined) return { kind: 'page', message: 'The request names no client (client_id is missing).' };
  const client = clients.get(clientId);
  if (!client) return { kind: 'page', message: 'The application that sent you here is not registered with this sign-in service.' };
  const redirectUri = single('redirect_uri');
  if (redirectUri === null || redirectUri === undefined || !redirectAllowed(client, redirectUri)) {
    return { kind: 'page', message: 'The application asked to return to an address it has not registered.' };
  }

  const rawState = single('state');
  const state = typeof rawState === 'string' && rawState.length <= MAX_VALUE ? rawState : undefined;
  const fail = (error: AuthorizationError, description: string): Judged => ({ kind: 'redirect', redirectUri, ...(state !== undefined ? { state } : {}), error, description });
  if (rawState === null) return fail('invalid_request', 'Parameter state given more than once');
  if (typeof rawState === 'string' && rawState.length > MAX_VALUE) return fail('invalid_request', 'Parameter state is too long');
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) return fail('invalid_request', `Parameter ${name.slice(0, 64)} given more than once`);
    if (typeof value === 'string' && value.length > MAX_VALUE) return fail('invalid_request', `Parameter ${name.slice(0, 64)} is too long`);
  }
  if (params.request !== undefined || params.request_uri !== undefined) return fail('invalid_request', 'Request objects are not supported');

  const responseType = single('response_type');
  if (responseType === undefined) return fail('invalid_request', 'Missing parameter: response_type');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  const mode = single('response_mode');
  if (mode !== undefined && mode !== 'query') return fail('invalid_request', 'Only response_mode=query is supported');

  const challenge = single('code_challenge');
  const method = single('code_challenge_method');
  if (challenge === undefined || challenge === null) return fail('invalid_request', 'Missing parameter: code_challenge (PKCE with S256 is required)');
  if (method !== 'S256') return fail('invalid_request', 'Invalid parameter: code_challenge_method must be S256');
  if (!isCodeChallenge(challenge)) return fail('invalid_request', 'Invalid parameter: code_challenge');

  const scope = (single('scope') ?? 'openid').split(' ').filter((s) => s !== '');
  const unknown = scope.find((s) => !SCOPES.has(s));
  if (unknown !== undefined) return fail('invalid_scope', `Invalid scopes: ${unknown.slice(0, 64)}`);

  const prompts = (single('prompt') ?? '').split(' ').filter((p) => p !== '');
  if (prompts.some((p) => p !== 'login' && p !== 'none' && p !== 'consent')) return fail('invalid_request', 'Invalid parameter: prompt');
  if (prompts.includes('none') && prompts.length > 1) return fail('invalid_request', 'prompt=none cannot be combined with another prompt');
  const prompt = prompts.includes('none') ? 'none' : prompts.includes('login') ? 'login' : undefined;

  const maxAgeText = single('max_age');
  let maxAge: number | undefined;
  if (maxAgeText !== undefined && maxAgeText !== null) {
    if (!/^\d{1,9}$/.test(maxAgeText)) return fail('invalid_request', 'Invalid parameter: max_age');
    maxAge = Number(maxAgeText);
  }
  const nonce = single('nonce') ?? undefined;
  const loginHint = single('login_hint') ?? undefined;
  return {
    kind: 'ok',
    request: {
      clientId, redirectUri, scope: [...new Set(scope)].join(' '), codeChallenge: challenge,
      ...(state !== undefined ? { state } : {}), ...(nonce ? { nonce } : {}), ...(prompt ? { prompt } : {}),
      ...(loginHint ? { loginHint: loginHint.slice(0, 255) } : {}), ...(maxAge !== undefined ? { maxAge } : {}),
    },
  };
}

/** The redirect URI with the answer's parameters added to its query (RFC 6749 §4.1.2; `iss`: RFC 9207). */
export function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}
