/**
 * A person in the portal, for the browser tests: a browser context of their own (cookies and storage), what it
 * complained of, and sign-in through the embedded issuer's page with the keyboard only.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestApp, TestTenant, TestUser } from './app';
import { watchComplaints } from './browser-checks';

export interface Person { context: BrowserContext; page: Page; complaints: string[] }

export async function personBrowser(browser: Browser): Promise<Person> {
  const context = await browser.newContext();
  // A step that cannot happen fails naming its locator, well within the test's own time.
  context.setDefaultTimeout(10_000);
  const complaints = await watchComplaints(context);
  return { context, page: await context.newPage(), complaints };
}

/** The issuer's sign-in page (already shown), filled with the keyboard; resolves once the portal is back, signed in. */
export async function fillSignIn(page: Page, who: TestUser): Promise<void> {
  await page.waitForURL((url) => url.pathname.endsWith('/protocol/openid-connect/auth'));
  await page.getByLabel('Email').focus();
  await page.keyboard.type(who.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.password);
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
}

/** Opens the portal for `who` of tenant `t` and signs them in: My work is shown. */
export async function signedIn(browser: Browser, app: TestApp, t: TestTenant, who: TestUser): Promise<Person> {
  const person = await personBrowser(browser);
  await person.page.goto(`${app.url}/?tenant=${t.shortName}`);
  await fillSignIn(person.page, who);
  await person.page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
  return person;
}

/** A region (a section named by its heading) of the page. */
export const region = (page: Page, name: RegExp | string) => page.getByRole('region', { name });

/**
 * Presses Tab until the focused element is the one named `name` (its aria-label, its text or its label), at most
 * `limit` times: that it is reached with the keyboard, as a keyboard user reaches it.
 */
export async function tabTo(page: Page, name: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return '';
      const labelled = (el as HTMLInputElement).labels?.[0]?.innerText;
      return (el.getAttribute('aria-label') ?? labelled ?? el.innerText ?? '').trim();
    });
    if (focused === name) return;
  }
  throw new Error(`"${name}" is not reached with ${limit} presses of Tab`);
}
