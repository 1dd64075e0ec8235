/**
 * Browser sign-in at the embedded issuer (docs/contract.md §1.2): a certified relying-party library (openid-client)
 * runs the authorization code flow with PKCE against the real service and database, the sign-in form posted over
 * HTTP as a browser posts it. Single sign-on into a second application, refresh-token rotation, `prompt`.
 * Attacks and bad input: auth-code-attacks.test.ts.
 */
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atHash } from '../../auth/tokens';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { FormBrowser, signInThrough } from '../support/browser-form';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let issuer: string;
let selfService: client.Configuration;
let second: client.Configuration;
const SECOND_REDIRECT = 'http://127.0.0.1:9/second/callback';
const SECOND_BYE = 'http://127.0.0.1:9/second/signed-out';

const configOf = (clientId: string) => client.discovery(new URL(issuer), clientId, undefined, client.None(), { execute: [client.allowInsecureRequests] });
const selfRedirect = () => `${app.url}${app.config.basePath}/docs/oauth2-redirect.html`;

/** An authorization URL of `config` with a fresh verifier, state and nonce, and the checks its answer needs. */
async function start(config: client.Configuration, redirectUri: string, more: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri, scope: 'openid email profile', code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256', state, nonce, ...more,
  });
  return { url: url.href, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce } };
}

beforeAll(async () => {
  app = await startTestApp({
    browserClients: { clients: [{ clientId: 'second-app', redirectUris: [SECOND_REDIRECT], postLogoutRedirectUris: [SECOND_BYE] }], selfServiceRedirectUris: [] },
  });
  t = await createTenant(app, 'codeflow');
  issuer = `${app.authUrl}/realms/${t.shortName}`;
  [selfService, second] = await Promise.all([configOf('self-service'), configOf('second-app')]);
}, 120_000);
afterAll(async () => app?.stop());

describe('authorization code with PKCE', () => {
  it('discovery names the endpoints and what they support', () => {
    const meta = selfService.serverMetadata();
    expect(meta.authorization_endpoint).toBe(`${issuer}/protocol/openid-connect/auth`);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.grant_types_supported).toContain('authorization_code');
    expect(meta.claims_supported).toEqual(expect.arrayContaining(['auth_time', 'nonce', 'sid', 'at_hash']));
  });

  it('signs a person in through the form; the code answers tokens and an ID token the library verifies', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect());
    const back = await signInThrough(browser, url, t.admin.email, t.admin.password);
    expect(back.startsWith(`${selfRedirect()}?`)).toBe(true);
    expect(new URL(back).searchParams.get('iss')).toBe(issuer);

    const tokens = await client.authorizationCodeGrant(selfService, new URL(back), checks);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer, sub: t.admin.user.uid, aud: 'self-service', nonce: checks.expectedNonce, email: t.admin.email });
    expect(typeof claims.auth_time).toBe('number');
    expect(typeof claims.sid).toBe('string');
    expect(claims.at_hash).toBe(atHash(tokens.access_token));
    expect(tokens.refresh_token).toBeTypeOf('string');

    const me = await call(app, 'GET', '/user', { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.uid).toBe(t.admin.user.uid);
  });

  it('single sign-on: a second application gets its code without a form; prompt=login asks again', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const first = await start(selfService, selfRedirect());
    const firstTokens = await client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, first.url, t.admin.email, t.admin.password)), first.checks);

    const other = await start(second, SECOND_REDIRECT);
    const silent = await browser.get(other.url);
    expect(silent.status).toBe(302);
    expect(silent.location!.startsWith(`${SECOND_REDIRECT}?`)).toBe(true);
    const secondTokens = await client.authorizationCodeGrant(second, new URL(silent.location!), other.checks);
    expect(secondTokens.claims()!.sid).toBe(firstTokens.claims()!.sid);
    expect(secondTokens.claims()!.aud).toBe('second-app');

    const again = await start(second, SECOND_REDIRECT, { prompt: 'login' });
    const form = await browser.get(again.url);
    expect(form.status).toBe(200);
    expect(form.html).toContain('<form method="post"');
  });

  it('prompt=none without a session answers login_required to the client, with its state', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect(), { prompt: 'none' });
    const answer = await browser.get(url);
    expect(answer.status).toBe(302);
    const back = new URL(answer.location!);
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('state')).toBe(checks.expectedState);
  });

  it('refresh tokens of the code flow rotate; using a spent one revokes the family', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect());
    const tokens = await client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, url, t.admin.email, t.admin.password)), checks);
    const next = await client.refreshTokenGrant(selfService, tokens.refresh_token!);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.id_token).toBeTypeOf('string');
    expect((await call(app, 'GET', '/user', { token: next.access_token })).status).toBe(200);

    await expect(client.refreshTokenGrant(selfService, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(selfService, next.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('userinfo answers the standard claims for the access token of a live session', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect());
    const tokens = await client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, url, t.admin.email, t.admin.password)), checks);
    const info = await client.fetchUserInfo(selfService, tokens.access_token, t.admin.user.uid);
    expect(info).toMatchObject({ sub: t.admin.user.uid, email: t.admin.email, preferred_username: t.admin.email });
    const refused = await fetch(`${issuer}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${tokens.refresh_token}` } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('sign-out (RP-initiated): back to the registered address with state; the session, its tokens and its SSO are gone', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const first = await start(second, SECOND_REDIRECT);
    const tokens = await client.authorizationCodeGrant(second, new URL(await signInThrough(browser, first.url, t.admin.email, t.admin.password)), first.checks);
    const out = client.buildEndSessionUrl(second, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: SECOND_BYE, state: 'bye-1' });
    const answer = await browser.get(out.href);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${SECOND_BYE}?state=bye-1`);

    await expect(client.refreshTokenGrant(second, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const userinfo = await fetch(`${issuer}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
    const again = await start(second, SECOND_REDIRECT);
    const page = await browser.get(again.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="password"');
  });

  it('sign-out to an address the client did not register is refused with a page; without a hint the browser confirms', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const first = await start(second, SECOND_REDIRECT);
    const tokens = await client.authorizationCodeGrant(second, new URL(await signInThrough(browser, first.url, t.admin.email, t.admin.password)), first.checks);
    const evil = await browser.get(client.buildEndSessionUrl(second, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example/' }).href);
    expect(evil.status).toBe(400);
    expect(evil.location).toBeUndefined();

    const confirm = await browser.get(`${issuer}/protocol/openid-connect/logout`);
    expect(confirm.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.html)![1];
    const forged = await browser.post(`${issuer}/protocol/openid-connect/logout`, { csrf, confirm: 'yes' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect((await client.refreshTokenGrant(second, tokens.refresh_token!)).access_token).toBeTypeOf('string');
    const done = await browser.post(`${issuer}/protocol/openid-connect/logout`, { csrf, confirm: 'yes' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('You are signed out');
  });

  it('revocation (RFC 7009): a code flow refresh token revokes its family; a password grant refresh token stops working', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect());
    const tokens = await client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, url, t.admin.email, t.admin.password)), checks);
    const next = await client.refreshTokenGrant(selfService, tokens.refresh_token!);
    await client.tokenRevocation(selfService, next.refresh_token!);
    await expect(client.refreshTokenGrant(selfService, next.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const password = await client.genericGrantRequest(selfService, 'password', { username: t.admin.email, password: t.admin.password });
    expect((await client.refreshTokenGrant(selfService, password.refresh_token!)).access_token).toBeTypeOf('string');
    await client.tokenRevocation(selfService, password.refresh_token!);
    await expect(client.refreshTokenGrant(selfService, password.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Not a token of this realm: 200 all the same, and nothing learnt.
    await client.tokenRevocation(selfService, 'not-a-token');
  });
});

describe('a tenant admin ends a user\'s sessions', () => {
  async function signedIn(email: string, password: string) {
    const browser = new FormBrowser(new URL(issuer).origin);
    const { url, checks } = await start(selfService, selfRedirect());
    return client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, url, email, password)), checks);
  }

  it('DELETE /users/{id}/sessions: 204, audited as UPDATED of the user, and its refresh tokens stop working', async () => {
    const person = await createUser(app, t, [], 'signed-in');
    const tokens = await signedIn(person.email, person.password);
    const ended = await call(app, 'DELETE', `/users/${person.user.uid}/sessions`, { token: t.admin.token });
    expect(ended.status).toBe(204);
    await expect(client.refreshTokenGrant(selfService, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const entries = await app.models.AuditEvent.findAll({ where: { tenantUid: t.tenant.uid, resourceId: person.user.uid, action: 'UPDATED' } });
    expect(entries.map((e) => (typeof e.details === "string" ? JSON.parse(e.details) : e.details))).toContainEqual({ sessions: { old: 1, new: 0 } });
    // Nothing left to end: 204 all the same, no second entry.
    expect((await call(app, 'DELETE', `/users/${person.user.uid}/sessions`, { token: t.admin.token })).status).toBe(204);
    expect(await app.models.AuditEvent.count({ where: { tenantUid: t.tenant.uid, resourceId: person.user.uid, action: 'UPDATED' } })).toBe(entries.length);
  });

  it('only a tenant admin (403); another tenant\'s user is 404; a deleted user\'s sessions end with it', async () => {
    const person = await createUser(app, t, [], 'plain');
    const tokens = await signedIn(person.email, person.password);
    expect((await call(app, 'DELETE', `/users/${t.admin.user.uid}/sessions`, { token: person.token })).status).toBe(403);
    const other = await createTenant(app, 'codeflow-other');
    expect((await call(app, 'DELETE', `/users/${person.user.uid}/sessions`, { token: other.admin.token })).status).toBe(404);
    expect((await call(app, 'DELETE', `/users/${person.user.uid}`, { token: t.admin.token })).status).toBe(204);
    expect(await app.models.IssuerSession.count({ where: { userUid: person.user.uid } })).toBe(0);
    await expect(client.refreshTokenGrant(selfService, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('with an external identity provider (AUTH_URL)', () => {
  it("the reference page signs in at that provider's endpoints, read from its discovery; its code flow's token opens the API", async () => {
    // This service's own issuer stands in for Keycloak: a second service uses it as AUTH_URL, on the same database.
    const consumer = await startTestApp({ externalAuthUrl: app.authUrl });
    try {
      const page = await call(consumer, 'GET', `/docs?realm=${t.shortName}`);
      expect(page.text).toContain(`data-authorization-url="${issuer}/protocol/openid-connect/auth"`);
      expect(page.text).toContain(`data-token-url="${issuer}/protocol/openid-connect/token"`);

      const browser = new FormBrowser(new URL(issuer).origin);
      const { url, checks } = await start(selfService, selfRedirect());
      const tokens = await client.authorizationCodeGrant(selfService, new URL(await signInThrough(browser, url, t.admin.email, t.admin.password)), checks);
      const me = await call(consumer, 'GET', '/user', { token: tokens.access_token });
      expect(me.status, me.text).toBe(200);
      expect(me.body.uid).toBe(t.admin.user.uid);
    } finally {
      await consumer.stop();
    }
  });
});
