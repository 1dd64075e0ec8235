/**
 * The pure rules of browser sign-in: PKCE (RFC 7636), the judgement of an authorization request (never a redirect
 * to an address the client did not register), the single sign-on session's lifetimes, and the configured clients.
 */
import { describe, expect, it } from 'vitest';
import { judgeAuthorizationRequest, redirectWith } from '../../auth/authorize-request';
import { browserClients } from '../../auth/browser-clients';
import { isCodeChallenge, isCodeVerifier, s256, verifiesChallenge } from '../../auth/pkce';
import { isAlive, newSessionTimes, refreshExpiry, touchedIdle, withinMaxAge } from '../../auth/sso-session';
import { parseBrowserClients, parseRedirectUris } from '../../core/browser-client-settings';

describe('PKCE with S256', () => {
  it('the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifiesChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });

  it('a wrong, short, long or ill-formed verifier never verifies', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    for (const v of ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl', 'short', 'x'.repeat(129), `${'a'.repeat(42)} `, `${'a'.repeat(43)}+`, '']) {
      expect(verifiesChallenge(v, challenge), v).toBe(false);
    }
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    // `plain` would send the verifier itself as the challenge: one of 42 or 44 characters, or with '.', is refused.
    expect(isCodeChallenge('a'.repeat(42))).toBe(false);
    expect(isCodeChallenge('a.'.repeat(22).slice(0, 43))).toBe(false);
  });
});

const clients = browserClients(
  { clients: [{ clientId: 'app', redirectUris: ['https://app.example/cb'], postLogoutRedirectUris: ['https://app.example/'] }], selfServiceRedirectUris: ['http://localhost:5173/'] },
  'https://pms.example', '/api',
);
const CHALLENGE = s256('v'.repeat(43));
const good = { client_id: 'app', redirect_uri: 'https://app.example/cb', response_type: 'code', code_challenge: CHALLENGE, code_challenge_method: 'S256', state: 's1', nonce: 'n1' };

describe('the authorization request', () => {
  it('a good one is accepted with what it asked for', () => {
    expect(judgeAuthorizationRequest({ ...good, scope: 'openid email', prompt: 'login', login_hint: 'a@b.c', max_age: '60', ui_locales: 'de' }, clients)).toEqual({
      kind: 'ok',
      request: { clientId: 'app', redirectUri: 'https://app.example/cb', scope: 'openid email', codeChallenge: CHALLENGE, state: 's1', nonce: 'n1', prompt: 'login', loginHint: 'a@b.c', maxAge: 60 },
    });
  });

  it('self-service: the reference page, the web interface and the configured extras, exactly', () => {
    const own = clients.get('self-service')!;
    expect(own.redirectUris).toEqual(['https://pms.example/api/docs/oauth2-redirect.html', 'https://pms.example/', 'http://localhost:5173/']);
  });

  it.each([
    ['no client', { ...good, client_id: undefined }],
    ['an unknown client', { ...good, client_id: 'nobody' }],
    ['client_id twice', { ...good, client_id: ['app', 'app'] }],
    ['no redirect_uri', { ...good, redirect_uri: undefined }],
    ['another redirect_uri', { ...good, redirect_uri: 'https://evil.example/cb' }],
    ['a prefix of it', { ...good, redirect_uri: 'https://app.example/c' }],
    ['it with more path', { ...good, redirect_uri: 'https://app.example/cb/x' }],
    ['it with a query', { ...good, redirect_uri: 'https://app.example/cb?x=1' }],
    ['another case', { ...good, redirect_uri: 'https://APP.example/cb' }],
    ['redirect_uri twice', { ...good, redirect_uri: ['https://app.example/cb', 'https://evil.example/cb'] }],
  ])('%s: an error page, never a redirect', (_name, params) => {
    expect(judgeAuthorizationRequest(params as never, clients).kind).toBe('page');
  });

  it.each([
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['response_type=code id_token', { response_type: 'code id_token' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['an ill-formed challenge', { code_challenge: 'abc' }, 'invalid_request'],
    ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope'],
    ['prompt=none login', { prompt: 'none login' }, 'invalid_request'],
    ['prompt=select_account', { prompt: 'select_account' }, 'invalid_request'],
    ['max_age=-1', { max_age: '-1' }, 'invalid_request'],
    ['a request object', { request: 'eyJ' }, 'invalid_request'],
    ['response_mode=fragment', { response_mode: 'fragment' }, 'invalid_request'],
    ['nonce twice', { nonce: ['a', 'b'] }, 'invalid_request'],
    ['a value over 2048 characters', { nonce: 'n'.repeat(2049) }, 'invalid_request'],
  ])('%s: back to the client with %s and its state', (_name, change, error) => {
    const judged = judgeAuthorizationRequest({ ...good, ...change } as never, clients);
    expect(judged).toMatchObject({ kind: 'redirect', redirectUri: 'https://app.example/cb', state: 's1', error });
  });

  it('the answer goes into the redirect URI\'s query, its own parameters kept', () => {
    expect(redirectWith('https://app.example/cb?tab=2', { code: 'c', state: 'a b&c', iss: undefined })).toBe('https://app.example/cb?tab=2&code=c&state=a+b%26c');
  });
});

describe('the single sign-on session', () => {
  const lifetimes = { idleSeconds: 1800, maxSeconds: 36_000 };
  const t0 = new Date('2026-01-01T00:00:00Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  it('ends when idle for 30 minutes or 10 hours after sign-in, whichever comes first', () => {
    const s = newSessionTimes(t0, lifetimes);
    expect(isAlive(s, at(1799))).toBe(true);
    expect(isAlive(s, at(1800))).toBe(false);
    let idle = s.idleExpiresAt;
    for (let minute = 20; minute <= 600; minute += 20) {
      expect(isAlive({ ...s, idleExpiresAt: idle }, at(minute * 60 - 1)), `minute ${minute}`).toBe(minute * 60 - 1 < 36_000);
      idle = touchedIdle(s, at(minute * 60), lifetimes);
      expect(idle.getTime()).toBeLessThanOrEqual(s.maxExpiresAt.getTime());
    }
    expect(isAlive({ ...s, idleExpiresAt: idle }, at(36_000))).toBe(false);
  });

  it('a refresh token never outlives its session, nor its own 1800 s', () => {
    const s = newSessionTimes(t0, lifetimes);
    const now = t0.getTime() / 1000;
    expect(refreshExpiry(now, 1800, s)).toBe(now + 1800);
    expect(refreshExpiry(now + 35_000, 1800, { ...s, idleExpiresAt: at(36_000) })).toBe(now + 36_000);
    expect(refreshExpiry(now, 1800, { ...s, idleExpiresAt: at(600) })).toBe(now + 600);
  });

  it('max_age: a sign-in older than it asks for a new one', () => {
    expect(withinMaxAge(t0, at(60), 60)).toBe(true);
    expect(withinMaxAge(t0, at(61), 60)).toBe(false);
    expect(withinMaxAge(t0, at(10_000), undefined)).toBe(true);
  });
});

describe('configured browser clients', () => {
  it('BROWSER_CLIENTS and SELF_SERVICE_REDIRECT_URIS as documented', () => {
    expect(parseBrowserClients('[{"clientId":"portal","redirectUris":["https://p.example/cb"]}]')).toEqual([{ clientId: 'portal', redirectUris: ['https://p.example/cb'], postLogoutRedirectUris: [] }]);
    expect(parseRedirectUris(' http://localhost:5173/  https://x.example/cb ')).toEqual(['http://localhost:5173/', 'https://x.example/cb']);
    expect(parseBrowserClients(undefined)).toEqual([]);
  });

  it.each([
    ['not JSON', '[', /JSON array/],
    ['not an array', '{}', /JSON array/],
    ['self-service again', '[{"clientId":"self-service","redirectUris":["https://a/cb"]}]', /registered twice/],
    ['a relative URI', '[{"clientId":"a","redirectUris":["/cb"]}]', /redirectUris\[0\] must be an absolute URI/],
    ['a fragment', '[{"clientId":"a","redirectUris":["https://a/cb#x"]}]', /fragment/],
    ['another scheme', '[{"clientId":"a","redirectUris":["javascript:alert(1)"]}]', /http or https/],
    ['no URIs', '[{"clientId":"a","redirectUris":[]}]', /non-empty/],
    ['an unknown field', '[{"clientId":"a","redirectUris":["https://a/cb"],"secret":"x"}]', /secret: unknown field/],
  ])('%s is refused at start, naming the setting', (_name, text, message) => {
    expect(() => parseBrowserClients(text)).toThrow(message);
  });
});
