/**
 * Browser sign-in in a real browser (issue 42): Debian's chromium driven by playwright-core (`npm run test:browser`,
 * test/support/chromium.ts), one browser context, as one person's browser:
 *
 * 1. the reference page signs in with the authorization code flow and PKCE: Authorize opens the embedded issuer's
 *    sign-in page in a popup, filled with the keyboard only (a wrong password first, whose error is announced);
 *    the popup returns to `oauth2-redirect.html`, closes, and "Try it out" of `GET /user` answers 200;
 * 2. single sign-on: a second application (a small relying party served by this file, redeeming its code with
 *    openid-client) signs the same browser in without the form;
 * 3. sign-out: the second application's RP-initiated logout ends the issuer session and comes back with its state;
 *    its next sign-in shows the form again.
 *
 * Neither page may make the browser complain (script errors, Content-Security-Policy refusals).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { launchChromium } from '../support/chromium';
import { accessibilityProblems, violationsOf, watchComplaints } from '../support/browser-checks';
import { tryOperation } from '../support/swagger-ui';

let app: TestApp;
let t: TestTenant;
let member: TestUser;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let rp: RelyingParty;

/** Every complaint of the browser, by the URL of the page that made it (script errors, CSP refusals, console errors). */
let complaints: string[];

/** The tiny second application: login, callback (the code redeemed server-side), logout and the page after it. */
interface RelyingParty {
  server: Server;
  origin: string;
  /** The state of the last logout it started, which /bye must bring back. */
  logoutState?: string;
  /** Whether any authorization request it started came back with an error instead of a code. */
  errors: string[];
}

const html = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>second app</title><link rel="icon" href="data:,"></head><body><main>${body}</main></body></html>`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Listens on a free port first: the port is part of the redirect URIs the app registers before it starts. */
async function listeningRelyingParty(): Promise<RelyingParty> {
  const pending = new Map<string, { verifier: string; nonce: string }>();
  const sessions = new Map<string, { idToken: string; email: string }>();
  let config: client.Configuration | undefined;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const party: RelyingParty = { server, origin, errors: [] };
  const configured = async () => {
    config ??= await client.discovery(new URL(`${app.authUrl}/realms/${t.shortName}`), 'second-app', undefined, client.None(), { execute: [client.allowInsecureRequests] });
    return config;
  };
  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
  };
  const redirect = (res: ServerResponse, location: string, headers: Record<string, string> = {}) => {
    res.writeHead(302, { location, 'cache-control': 'no-store', ...headers }).end();
  };
  const sessionOf = (req: IncomingMessage) => /(?:^|;\s*)second_app=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    const cfg = await configured();
    if (url.pathname === '/login') {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      pending.set(state, { verifier, nonce });
      const authorization = client.buildAuthorizationUrl(cfg, {
        redirect_uri: `${origin}/callback`, scope: 'openid email', state, nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      });
      return redirect(res, authorization.href);
    }
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state') ?? '';
      const started = pending.get(state);
      pending.delete(state);
      if (!started || url.searchParams.has('error')) {
        party.errors.push(url.search);
        return send(res, 400, html('sign-in failed'));
      }
      const tokens = await client.authorizationCodeGrant(cfg, url, { pkceCodeVerifier: started.verifier, expectedState: state, expectedNonce: started.nonce });
      const email = String(tokens.claims()!.email);
      const id = client.randomState();
      sessions.set(id, { idToken: tokens.id_token!, email });
      return send(res, 200, html(`<h1>signed in as ${escapeHtml(email)}</h1>`), { 'set-cookie': `second_app=${id}; Path=/; HttpOnly; SameSite=Lax` });
    }
    if (url.pathname === '/logout') {
      const id = sessionOf(req);
      const session = id === undefined ? undefined : sessions.get(id);
      if (!session) return send(res, 400, html('not signed in'));
      sessions.delete(id!);
      party.logoutState = client.randomState();
      const end = client.buildEndSessionUrl(cfg, { id_token_hint: session.idToken, post_logout_redirect_uri: `${origin}/bye`, state: party.logoutState });
      return redirect(res, end.href, { 'set-cookie': 'second_app=; Path=/; Max-Age=0' });
    }
    if (url.pathname === '/bye') return send(res, 200, html(`<h1>signed out</h1><p id="state">${escapeHtml(url.searchParams.get('state') ?? '')}</p>`));
    return send(res, 404, html('not found'));
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: Error) => {
      party.errors.push(err.message);
      if (!res.headersSent) send(res, 500, html(escapeHtml(err.message)));
    });
  });
  return party;
}

beforeAll(async () => {
  rp = await listeningRelyingParty();
  app = await startTestApp({
    browserClients: {
      clients: [{ clientId: 'second-app', redirectUris: [`${rp.origin}/callback`], postLogoutRedirectUris: [`${rp.origin}/bye`] }],
      selfServiceRedirectUris: [],
    },
  });
  t = await createTenant(app, 'signin');
  member = await createUser(app, t, [], 'reader');
  browser = await launchChromium();
  context = await browser.newContext();
  complaints = await watchComplaints(context);
  page = await context.newPage();
  await page.goto(`${app.api}/docs?realm=${t.shortName}`);
  await page.waitForSelector('.opblock', { timeout: 20_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\nthe browser said:\n${complaints.join('\n')}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((resolve) => rp?.server.close(resolve));
});




/** The id of the element that has the keyboard's focus. */
const focused = (p: Page) => p.evaluate(() => document.activeElement?.id ?? '');

/** What a screen reader is given of the page: its accessibility tree (roles, names, texts). */
const ariaOf = (p: Page) => p.locator('body').ariaSnapshot();

/** The sign-in page shows in `p`: its title and heading, the realm's name, focus in Email, and the browser calm. */
async function expectSignInPage(p: Page): Promise<void> {
  await p.waitForLoadState('load');
  expect(new URL(p.url()).pathname).toBe(`/auth/realms/${t.shortName}/protocol/openid-connect/auth`);
  expect(await p.title()).toBe(`Sign in to ${t.tenant.name}`);
  expect(await p.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
  expect(await p.getByLabel('Email').count()).toBe(1);
  expect(await p.getByLabel('Password').count()).toBe(1);
  await expect.poll(() => focused(p)).toBe('username');
  expect(await violationsOf(p)).toEqual([]);
  expect(await accessibilityProblems(p)).toEqual([]);
}

describe('signing in through the browser', () => {
  it('the reference page signs in with the authorization code flow and PKCE, in a popup, with the keyboard only', async () => {
    await page.locator('.auth-wrapper .btn.authorize').click();
    const code = page.locator('.auth-container', { has: page.locator('h4', { hasText: 'authorizationCode' }) });
    await code.waitFor();
    expect(await code.locator('h4').innerText()).toContain('browserLogin (OAuth2, authorizationCode with PKCE)');
    await expect.poll(() => code.innerText()).toContain(`/auth/realms/${t.shortName}/protocol/openid-connect/auth`);
    expect(await code.innerText()).toContain(`/auth/realms/${t.shortName}/protocol/openid-connect/token`);
    expect(await code.locator('input#client_id_authorizationCode').inputValue()).toBe('self-service');
    expect(await code.locator('input#openid-authorizationCode-checkbox-browserLogin').isChecked()).toBe(true);

    const [popup] = await Promise.all([page.waitForEvent('popup'), code.locator('.btn.authorize').click()]);
    await expectSignInPage(popup);
    const asked = new URL(popup.url()).searchParams;
    expect(Object.fromEntries([...asked].filter(([name]) => ['client_id', 'response_type', 'code_challenge_method', 'scope', 'redirect_uri'].includes(name)))).toEqual({
      client_id: 'self-service', response_type: 'code', code_challenge_method: 'S256', scope: 'openid',
      redirect_uri: `${new URL(app.api).origin}${app.config.basePath}/docs/oauth2-redirect.html`,
    });
    expect(asked.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.get('state')).toBeTruthy();

    // A wrong password first: the page comes back with the error announced (role="alert"), the address kept.
    await popup.keyboard.type(member.email);
    await popup.keyboard.press('Tab');
    expect(await focused(popup)).toBe('password');
    await popup.keyboard.type(`${member.password}-wrong`);
    await popup.keyboard.press('Enter');
    const alert = popup.getByRole('alert');
    await alert.waitFor({ timeout: 10_000 });
    expect((await alert.innerText()).trim()).toBe('Invalid email or password.');
    expect(await ariaOf(popup)).toContain('- alert: Invalid email or password.');
    expect(await accessibilityProblems(popup)).toEqual([]);
    expect(await popup.getByLabel('Email').inputValue()).toBe(member.email);
    expect(await popup.getByLabel('Password').getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
    expect(await popup.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await violationsOf(popup)).toEqual([]);

    // The right one: focus is back in Password; Enter signs in, the popup returns to oauth2-redirect.html and closes.
    await expect.poll(() => focused(popup)).toBe('password');
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.keyboard.type(member.password);
    await popup.keyboard.press('Enter');
    await closed;

    await code.locator('.btn', { hasText: 'Logout' }).or(code.locator('.errors')).first().waitFor({ timeout: 10_000 });
    expect(await code.locator('.errors').allInnerTexts()).toEqual([]);
    expect(await code.locator('h6').allInnerTexts()).toContain('Authorized');
    await page.locator('.dialog-ux .btn-done').first().click();

    const { status, body } = await tryOperation(page, 'Users', 'getCurrentUser');
    expect(status).toBe('200');
    expect(body).toContain(member.email);
    expect(complaints).toEqual([]);
  });

  it('single sign-on: a second application reaches the signed-in state without the form', async () => {
    const second = await context.newPage();
    const statuses: string[] = [];
    second.on('response', (response) => statuses.push(`${response.status()} ${new URL(response.url()).pathname}`));
    await second.goto(`${rp.origin}/login`);
    expect(await second.getByRole('heading', { level: 1 }).innerText()).toBe(`signed in as ${member.email}`);
    expect(new URL(second.url()).pathname).toBe('/callback');
    expect(statuses).toEqual(['302 /login', `302 /auth/realms/${t.shortName}/protocol/openid-connect/auth`, '200 /callback']);
    expect(rp.errors).toEqual([]);
    expect(complaints).toEqual([]);
    await second.close();
  });

  it('sign-out: the second application ends the issuer session and comes back with its state; then the form is asked again', async () => {
    const second = await context.newPage();
    const statuses: string[] = [];
    second.on('response', (response) => statuses.push(`${response.status()} ${new URL(response.url()).pathname}`));
    await second.goto(`${rp.origin}/login`);
    expect(await second.getByRole('heading', { level: 1 }).innerText()).toBe(`signed in as ${member.email}`);

    statuses.length = 0;
    let endSession: URL | undefined;
    second.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/protocol/openid-connect/logout')) endSession = new URL(request.url());
    });
    await second.goto(`${rp.origin}/logout`);
    expect(statuses).toEqual(['302 /logout', `302 /auth/realms/${t.shortName}/protocol/openid-connect/logout`, '200 /bye']);
    expect(endSession?.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(endSession?.searchParams.get('post_logout_redirect_uri')).toBe(`${rp.origin}/bye`);
    expect(rp.logoutState).toBeTruthy();
    expect(endSession?.searchParams.get('state')).toBe(rp.logoutState);
    const bye = new URL(second.url());
    expect(`${bye.origin}${bye.pathname}`).toBe(`${rp.origin}/bye`);
    expect(bye.searchParams.get('state')).toBe(rp.logoutState);
    expect(await second.locator('#state').innerText()).toBe(rp.logoutState);

    // The issuer session is gone: the next sign-in shows the form again, still calm.
    await second.goto(`${rp.origin}/login`);
    await expectSignInPage(second);
    expect(await second.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect(rp.errors).toEqual([]);
    expect(complaints).toEqual([]);
    await second.close();
  });
});
