/**
 * Browser sign-in under attack and bad input (issue 42, RFC 6749 §4.1.2.1, RFC 7636, RFC 9700): no open redirect,
 * every code and verifier fault is invalid_grant, a code redeems once (a replay revokes what it issued, two at once
 * give one answer), the sign-in form refuses other sites and forged bindings, a sign-in makes a new session, the
 * form shares the password grant's lockout and gives one answer for every failure, and nothing secret is logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s256 } from '../../auth/pkce';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { FormBrowser, signInForm, signInThrough } from '../support/browser-form';
import { startLogCapture } from '../support/log-capture';
import { passwordForm, tokenRequest } from '../support/token-endpoint';

let app: TestApp;
let t: TestTenant;
let issuer: string;
const OTHER_REDIRECT = 'http://127.0.0.1:9/other/callback';
const LOCKOUT = { failureFactor: 3, waitIncrementSeconds: 60, maxFailureWaitSeconds: 60, maxDeltaTimeSeconds: 3600 };

const redirect = () => `${app.url}${app.config.basePath}/docs/oauth2-redirect.html`;
const verifier = () => randomBytes(32).toString('base64url');

function authorizeUrl(over: Record<string, string | undefined> = {}, clientVerifier = verifier()): string {
  const params: Record<string, string | undefined> = {
    client_id: 'self-service', redirect_uri: redirect(), response_type: 'code', scope: 'openid', state: 'st-1', nonce: 'n-1',
    code_challenge: s256(clientVerifier), code_challenge_method: 'S256', ...over,
  };
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `${issuer}/protocol/openid-connect/auth?${query}`;
}

async function token(fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${issuer}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** A code for the tenant admin, with the verifier it needs. */
async function code(browser = new FormBrowser(new URL(issuer).origin), clientId = 'self-service', redirectUri = redirect()): Promise<{ code: string; verifier: string }> {
  const v = verifier();
  const back = await signInThrough(browser, authorizeUrl({ client_id: clientId, redirect_uri: redirectUri }, v), t.admin.email, t.admin.password);
  return { code: new URL(back).searchParams.get('code')!, verifier: v };
}
const redeem = (c: { code: string; verifier: string }, over: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', client_id: 'self-service', code: c.code, redirect_uri: redirect(), code_verifier: c.verifier, ...over });

beforeAll(async () => {
  app = await startTestApp({
    lockout: LOCKOUT, signInQueue: 2,
    browserClients: { clients: [{ clientId: 'other-app', redirectUris: [OTHER_REDIRECT], postLogoutRedirectUris: [] }], selfServiceRedirectUris: [] },
  });
  t = await createTenant(app, 'codeattack');
  issuer = `${app.authUrl}/realms/${t.shortName}`;
}, 120_000);
afterAll(async () => app?.stop());

describe('the authorization endpoint: no open redirect', () => {
  it.each([
    ['an unknown client', { client_id: 'nobody' }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/cb' }],
    ['a registered one with more path', { redirect_uri: 'OWN/x' }],
    ['no redirect_uri', { redirect_uri: undefined }],
  ] as [string, Record<string, string | undefined>][])('%s: an error page, no Location, nothing posted anywhere', async (_name, over) => {
    const own = over.redirect_uri?.startsWith('OWN') ? { redirect_uri: over.redirect_uri.replace('OWN', redirect()) } : {};
    const page = await new FormBrowser(new URL(issuer).origin).get(authorizeUrl({ ...over, ...own }));
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('role="alert"');
  });

  it.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
  ])('%s: back to the client with the error, its state and the issuer', async (_name, over, error) => {
    const answer = await new FormBrowser(new URL(issuer).origin).get(authorizeUrl(over));
    expect(answer.status).toBe(302);
    const back = new URL(answer.location!);
    expect(`${back.origin}${back.pathname}`).toBe(redirect());
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error, state: 'st-1', iss: issuer });
    expect(back.searchParams.get('error_description')).toBeTruthy();
  });
});

describe('codes', () => {
  it('a missing or wrong verifier, another redirect_uri, another client: invalid_grant, and the code still works for its owner', async () => {
    const c = await code();
    const faults: Record<string, string>[] = [{ code_verifier: '' }, { code_verifier: verifier() }, { redirect_uri: `${redirect()}?x=1` }, { client_id: 'other-app' }];
    for (const over of faults) {
      const refused = await redeem(c, over);
      expect(refused.status, JSON.stringify(over)).toBe(400);
      expect(refused.body.error, JSON.stringify(over)).toBe('invalid_grant');
    }
    expect((await redeem(c)).status).toBe(200);
  });

  it('a code used twice is refused, and what its first use issued is revoked', async () => {
    const c = await code();
    const first = await redeem(c);
    expect(first.status).toBe(200);
    const second = await redeem(c);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const refresh = await token({ grant_type: 'refresh_token', client_id: 'self-service', refresh_token: String(first.body.refresh_token) });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('two redemptions at once: exactly one answers tokens', async () => {
    const c = await code();
    const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(c)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.error === 'invalid_grant')).toHaveLength(5);
  });

  it('an expired code and an unknown one: invalid_grant', async () => {
    const c = await code();
    const hash = createHash('sha256').update(c.code).digest('hex');
    await app.models.IssuerCode.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { codeHash: hash } });
    expect(await redeem(c)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await redeem({ code: 'made-up', verifier: verifier() })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a code of one realm is not one of another', async () => {
    const c = await code();
    const other = await createTenant(app, 'codeattack-b');
    const res = await fetch(`${app.authUrl}/realms/${other.shortName}/protocol/openid-connect/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'self-service', code: c.code, redirect_uri: redirect(), code_verifier: c.verifier }),
    });
    expect(res.status).toBe(400);
  });
});

describe('the sign-in form', () => {
  async function openForm(browser = new FormBrowser(new URL(issuer).origin)) {
    const page = await browser.get(authorizeUrl());
    return { browser, form: signInForm(page.html) };
  }
  const fields = (form: ReturnType<typeof signInForm>, over: Record<string, string> = {}) =>
    ({ request: form.request, csrf: form.csrf, username: t.admin.email, password: t.admin.password, ...over });

  it.each([
    ['from another site (Sec-Fetch-Site)', {}, { 'sec-fetch-site': 'cross-site' }, 403],
    ['from another origin', {}, { origin: 'https://evil.example', 'sec-fetch-site': '' }, 403],
    ['without its token', { csrf: '' }, {}, 400],
    ['with another token', { csrf: 'x'.repeat(43) }, {}, 400],
  ])('posted %s: refused, and no session made', async (_name, over, headers, status) => {
    const { browser, form } = await openForm();
    const answer = await browser.post(form.action, fields(form, over), headers);
    expect(answer.status).toBe(status);
    expect(answer.location).toBeUndefined();
    expect(browser.cookies.has('PMS_SESSION')).toBe(false);
  });

  it('posted from a browser that never opened it (no binding cookie): refused', async () => {
    const { form } = await openForm();
    const stranger = new FormBrowser(new URL(issuer).origin);
    const answer = await stranger.post(form.action, fields(form));
    expect(answer.status).toBe(400);
  });

  it('a sign-in always makes a new session: one planted beforehand is not the one that signs in', async () => {
    const browser = new FormBrowser(new URL(issuer).origin);
    browser.cookies.set('PMS_SESSION', { value: 'planted-by-attacker', path: `/auth/realms/${t.shortName}/` });
    await code(browser);
    expect(browser.cookies.get('PMS_SESSION')!.value).not.toBe('planted-by-attacker');
    const again = new FormBrowser(new URL(issuer).origin);
    await code(again);
    const before = again.cookies.get('PMS_SESSION')!.value;
    const { form } = await openForm(again).catch(() => ({ form: undefined }));
    expect(form).toBeUndefined(); // signed in: no form, a code at once
    const relogin = await again.get(authorizeUrl({ prompt: 'login' }));
    const f = signInForm(relogin.html);
    await again.post(f.action, fields(f));
    expect(again.cookies.get('PMS_SESSION')!.value).not.toBe(before);
  });

  it('one answer for an unknown address, a wrong password and a locked account; the form counts into the lockout of the password grant', async () => {
    const victim = await createTenantUser();
    const masked = (html: string) => html.replace(/value="[A-Za-z0-9_-]{20,}"/g, 'value="…"').replace(/value="[^"]*@[^"]*"/, 'value="…"');
    const attempt = async (username: string, password: string) => {
      const { browser, form } = await openForm();
      return browser.post(form.action, fields(form, { username, password }));
    };
    const unknown = await attempt('nobody@nowhere.test', 'x');
    const wrong = await attempt(victim.email, 'wrong-1');
    expect(unknown.status).toBe(200);
    expect(masked(wrong.html)).toBe(masked(unknown.html));
    expect(wrong.html).toContain('role="alert"');
    await attempt(victim.email, 'wrong-2');
    // The third failure, through the password grant: the account locks (failureFactor 3) for both ways in.
    expect((await tokenRequest(app.authUrl, t.shortName, passwordForm({ ...victim, password: 'wrong-3' }))).status).toBe(401);
    const locked = await attempt(victim.email, victim.password);
    expect(locked.status).toBe(200);
    expect(masked(locked.html)).toBe(masked(unknown.html));
    expect((await tokenRequest(app.authUrl, t.shortName, passwordForm(victim))).status).toBe(401);
  });

  it('more sign-ins at once than the queue holds: 503 with Retry-After, as the token endpoint', async () => {
    const forms = await Promise.all(Array.from({ length: 12 }, () => openForm()));
    const answers = await Promise.all(forms.map(({ browser, form }) => browser.post(form.action, fields(form, { password: 'wrong' }))));
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0].headers.get('retry-after')).toBe('1');
  });
});

describe('secrets', () => {
  it('no password, code, verifier or token in any log line or audit entry', async () => {
    const capture = startLogCapture();
    let secrets: string[] = [];
    try {
      const c = await code();
      const tokens = await redeem(c);
      secrets = [t.admin.password, c.code, c.verifier, String(tokens.body.access_token), String(tokens.body.refresh_token), String(tokens.body.id_token)];
      await redeem(c);
    } finally {
      capture.stop();
    }
    const lines = capture.lines.join('\n');
    const audit = JSON.stringify(await app.models.AuditEvent.findAll({ where: { tenantUid: t.tenant.uid } }));
    for (const secret of secrets) {
      expect(lines.includes(secret)).toBe(false);
      expect(audit.includes(secret)).toBe(false);
    }
    expect(capture.lines.length).toBeGreaterThan(0);
  });
});

const createTenantUser = () => createUser(app, t, [], 'victim');
