/**
 * The portal's first journey (issue 43 §1) in Debian's chromium: a stream owner signs in through the embedded
 * issuer (authorization code + PKCE, the sign-in page filled with the keyboard), lands on My work with the request
 * waiting for their decision counted in the header, stays signed in across a reload without the password, finds a
 * stream in the catalog, and signs out, which ends the issuer session. The applicant sees their own request.
 * Neither page may make the browser complain, and axe-core finds nothing serious on them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { accessibilityProblems } from '../support/browser-checks';
import { fillSignIn as signIn, personBrowser as newPerson, region } from '../support/portal-browser';
import { launchChromium } from '../support/chromium';
import { created } from '../support/http';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'portal');
  w = await accessWorld(app, t, 'pw');
  await created(app, '/application_access_grants', { applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' }, w.appOwner.token);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const section = region;

describe('the portal: sign in, My work, sign out', () => {
  it('signs a stream owner in and shows what waits for their decision, counted in the header', async () => {
    const { context, page, complaints } = await newPerson(browser);
    await page.goto(`${app.url}/?tenant=${t.shortName}`);
    await signIn(page, w.streamOwner);
    await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The authorization code does not stay in the address bar.
    expect(new URL(page.url()).search).toBe('');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link', { name: /My work/ }).innerText()).toMatch(/My work\s*1$/);
    expect(await nav.getByLabel('1 waiting for your decision').count()).toBe(1);
    const waiting = section(page, /^Waiting for my decision/);
    await expect.poll(() => waiting.getByRole('heading').innerText()).toBe('Waiting for my decision (1)');
    expect(await waiting.getByRole('listitem').innerText()).toMatch(/pw_billing asks to consume from pw-payments in pwmanaged/);
    const mine = section(page, 'My streams');
    await expect.poll(() => mine.getByRole('link').allInnerTexts()).toEqual(['pw-payments', 'pw-refunds']);
    expect(await section(page, /^My pending requests/).innerText()).toContain('None of your applications waits for access.');
    expect(await page.getByRole('banner').innerText()).toContain('Test pw-streamowner');
    expect(await accessibilityProblems(page)).toEqual([]);

    // A reload keeps nothing in storage but signs in again through the issuer's session: no password asked.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor({ timeout: 20_000 });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toMatch(/eyJ/); // no token (a JWT) in web storage

    // The catalog searches on the server and links to the stream's page.
    await page.getByRole('link', { name: 'Streams' }).click();
    await page.getByLabel('Name contains').fill('REFUND');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('table').getByRole('link').allInnerTexts()).toEqual(['pw-refunds']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('REFUND');
    await page.getByRole('link', { name: 'pw-refunds' }).click();
    await page.getByRole('heading', { level: 1, name: 'pw-refunds' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    // Sign-out ends the issuer session: signing in again asks for the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor({ timeout: 20_000 });
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/protocol/openid-connect/auth'));
    expect(await page.getByLabel('Password').count()).toBe(1);
    expect(complaints).toEqual([]);
    await context.close();
  });

  it('lists applications, schemas and environments, searched and sorted by the API', async () => {
    const { context, page, complaints } = await newPerson(browser);
    await page.goto(`${app.url}/applications?tenant=${t.shortName}`);
    await signIn(page, w.appOwner);
    // The sign-in comes back to the page it started from.
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    const table = page.getByRole('table');
    await expect.poll(() => table.getByRole('link').allInnerTexts()).toEqual([w.application.name]);
    await page.getByRole('link', { name: 'Environments' }).click();
    await expect.poll(() => page.getByRole('table').locator('tbody tr td:first-child').allInnerTexts()).toEqual([w.auto.name, w.managed.name]);
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect.poll(() => page.getByRole('table').locator('tbody tr td:first-child').allInnerTexts()).toEqual([w.managed.name, w.auto.name]);
    expect(await page.getByRole('columnheader', { name: 'Name', exact: true }).getAttribute('aria-sort')).toBe('descending');
    await page.getByLabel('Name contains').fill('AUTO');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('table').locator('tbody tr td:first-child').allInnerTexts()).toEqual([w.auto.name]);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Schemas' }).click();
    await expect.poll(() => page.getByText('No schemas you may see yet.').count()).toBe(1);
    expect(complaints).toEqual([]);
    await context.close();
  });

  it('shows an applicant their own pending request, and nothing to decide', async () => {
    const { context, page, complaints } = await newPerson(browser);
    await page.goto(`${app.url}/?tenant=${t.shortName}`);
    await signIn(page, w.appOwner);
    await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();
    const pending = section(page, /^My pending requests/);
    await expect.poll(() => pending.getByRole('heading').innerText()).toBe('My pending requests (1)');
    expect(await pending.getByRole('listitem').innerText()).toMatch(/pw_billing asks to consume from pw-payments in pwmanaged · Pending/);
    expect(await section(page, /^Waiting for my decision/).innerText()).toContain('Nothing waits for your decision.');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByLabel(/waiting for your decision/).count()).toBe(0);
    expect(await section(page, 'My applications').innerText()).toContain('pw Billing');
    expect(complaints).toEqual([]);
    await context.close();
  });
});
