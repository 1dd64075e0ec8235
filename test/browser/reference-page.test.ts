/**
 * The reference page (`/api/docs`) in a real browser: Debian's chromium driven by playwright-core
 * (`npm run test:browser`, test/support/chromium.ts). The page must render every tag and operation of the
 * document, run "Try it out" against the service, sign in through the embedded issuer's password flow, and never
 * send a request outside the service. Its sign-in with the authorization code flow (a popup): sign-in.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { spec as doc } from '../../core/spec';
import { createUser, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { launchChromium } from '../support/chromium';
import { scrollThrough, tryOperation } from '../support/swagger-ui';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let app: TestApp;
let t: TestTenant;
let member: TestUser;
let browser: Browser;
let page: Page;
/** Every request the page sent, and every complaint of the browser (script errors, CSP refusals). */
const requested: string[] = [];
const complaints: string[] = [];

beforeAll(async () => {
  ({ app, t } = await startWithTenant('docs'));
  member = await createUser(app, t, [], 'reader');
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('request', (request) => requested.push(request.url()));
  page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') complaints.push(`console ${message.type()}: ${message.text()}`);
  });
  await page.goto(`${app.api}/docs?realm=${t.shortName}`);
  await page.waitForSelector('.opblock', { timeout: 20_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\nthe browser said:\n${complaints.join('\n')}\nrequests:\n${requested.join('\n')}`);
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** `tag METHOD path operationId`, once per tag of each operation, as Swagger UI lists them. */
function documentedOperations(): string[] {
  const rows: string[] = [];
  for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      for (const tag of op.tags ?? ['default']) rows.push(`${tag} ${method.toUpperCase()} ${p} ${op.operationId}`);
    }
  }
  return rows.sort();
}

/** Each item of the operation list (a tag heading or an operation) by its place in the list. */
async function renderedItems(): Promise<string[]> {
  const items = new Map<number, string>();
  await scrollThrough(page, async () => {
    const seen = await page.locator('.operations-virtual__item').evaluateAll((els) => els.map((el) => {
      const tag = el.querySelector('h3.opblock-tag')?.getAttribute('data-tag');
      const op = el.querySelector('.opblock');
      const text = tag ? `tag ${tag}` : [
        op?.querySelector('.opblock-summary-method')?.textContent,
        op?.querySelector('.opblock-summary-path')?.getAttribute('data-path'),
        op?.querySelector('.opblock-summary-operation-id')?.textContent,
      ].join(' ');
      return [Number(el.getAttribute('data-index')), text] as const;
    }));
    for (const [index, text] of seen) items.set(index, text);
  });
  const count = Math.max(-1, ...items.keys()) + 1;
  return [...Array(count).keys()].map((i) => items.get(i) ?? `item ${i} never rendered`);
}


describe('reference page in chromium', () => {
  it('renders every tag and every operation of the document', async () => {
    const items = await renderedItems();
    expect(items.filter((item) => item.startsWith('tag ')).map((item) => item.slice(4))).toEqual(doc.tags.map((tag: { name: string }) => tag.name));
    const rendered: string[] = [];
    let tag = '';
    for (const item of items) {
      if (item.startsWith('tag ')) tag = item.slice(4);
      else rendered.push(`${tag} ${item}`);
    }
    expect(rendered.sort()).toEqual(documentedOperations());
  });

  it('runs "Try it out" of GET /api/info and shows its 200 answer', async () => {
    const { status, body } = await tryOperation(page, 'General', 'getInfo');
    expect(status).toBe('200');
    expect(body).toContain('"name": "platform-management-service"');
  });

  it('signs in through the password flow of the realm it is set to, then calls an authenticated operation', async () => {
    await page.locator('.auth-wrapper .btn.authorize').click();
    // browserLogin is the authorization code flow (sign-in.test.ts); passwordLogin the password grant, tested here.
    const schemes = await page.locator('.dialog-ux .auth-container h4').allInnerTexts();
    expect(schemes.map((text) => text.replace(/\s+/g, ' ').trim()).sort()).toEqual([
      expect.stringMatching(/^bearerAuth \(http, Bearer\)/),
      'browserLogin (OAuth2, authorizationCode with PKCE)',
      'passwordLogin (OAuth2, password)',
    ]);
    const login = page.locator('.auth-container', { has: page.locator('h4', { hasText: 'passwordLogin (OAuth2, password)' }) });
    await expect.poll(() => login.innerText()).toContain(`/auth/realms/${t.shortName}/protocol/openid-connect/token`);
    await login.locator('#oauth_username').fill(member.email);
    await login.locator('#oauth_password').fill(member.password);
    expect(await login.locator('#client_id_password').inputValue()).toBe('self-service');
    await login.locator('.btn.authorize').click();
    await login.locator('.btn', { hasText: 'Logout' }).or(login.locator('.errors')).waitFor({ timeout: 10_000 });
    expect(await login.locator('.errors').allInnerTexts()).toEqual([]);
    expect(await login.innerText()).toContain(member.email);
    await login.locator('.btn-done').click();

    const { status, body } = await tryOperation(page, 'Users', 'getCurrentUser');
    expect(status).toBe('200');
    expect(body).toContain(member.email);
  });

  it('sent no request outside the service, and the browser complained of nothing', () => {
    const origin = new URL(app.api).origin;
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requested).toContain(`${origin}/auth/realms/${t.shortName}/protocol/openid-connect/token`);
    expect(complaints).toEqual([]);
  });
});
