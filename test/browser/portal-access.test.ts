/**
 * The portal's access journeys (issue 43 §3–5) in Debian's chromium against the real service:
 * - a stream's page: its fields, per environment its config, its graph drawn with each application linked, its
 *   access and its history;
 * - an applicant requests access from the stream's page (an application of theirs, consumer, a number of days
 *   within the environment's maximum, which the form shows), sees it Pending, and cancels it;
 * - the stream owner approves one request and denies another with a reason in My work; the applicant sees both on
 *   the next look; the owner revokes the approved one with a reason; a grant whose end has passed shows as Expired.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { accessibilityProblems } from '../support/browser-checks';
import { launchChromium } from '../support/chromium';
import { call, created, expectStatus } from '../support/http';
import { fillSignIn, region, signedIn, type Person } from '../support/portal-browser';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let browser: Browser;
let owner: Person;
let applicant: Person;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'portalaccess');
  w = await accessWorld(app, t, 'pa');
  expectStatus(await call(app, 'PATCH', `/environments/${w.managed.uid}`, { token: t.admin.token, body: { maxAccessDuration: 'P90D' } }), 200);
  browser = await launchChromium();
  [owner, applicant] = await Promise.all([signedIn(browser, app, t, w.streamOwner), signedIn(browser, app, t, w.appOwner)]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const streamPage = async (p: Person, stream: any, tab = 'environments') => {
  await p.page.goto(`${app.url}/streams/${stream.uid}?tab=${tab}`);
  await p.page.getByRole('heading', { level: 1, name: stream.name }).waitFor({ timeout: 20_000 });
};
const environment = (p: Person, name: string) => region(p.page, name);

describe('the portal: a stream, requesting access, deciding', () => {
  it("shows a stream's fields, its config per environment and its history", async () => {
    await streamPage(owner, w.stream, 'overview');
    const page = owner.page;
    expect(await page.getByRole('tab', { name: 'Overview', selected: true }).count()).toBe(1);
    expect(await page.getByRole('tabpanel').innerText()).toMatch(/Owners\s+pa Stream Team/);
    await page.getByRole('tab', { name: 'Environments' }).click();
    const managed = environment(owner, w.managed.name);
    await expect.poll(() => managed.innerText()).toMatch(/Topic\s+\S+/);
    expect(await managed.innerText()).toMatch(/Partitions\s+\d+/);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('environments');
    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => page.getByRole('tabpanel').innerText()).toContain('CREATED');
    expect(await accessibilityProblems(page)).toEqual([]);
  });

  it('lets an applicant request access within the environment\'s maximum, see it Pending, and cancel it', async () => {
    await streamPage(applicant, w.other);
    const managed = environment(applicant, w.managed.name);
    // The graph is drawn above the button: once it is, the button stays where the click goes.
    await managed.getByRole('group', { name: `Who uses ${w.other.name} in ${w.managed.name}` }).waitFor();
    await managed.getByRole('button', { name: `Request access in ${w.managed.name}…` }).click();
    const form = managed.getByRole('form', { name: `Request access in ${w.managed.name}` });
    await expect.poll(() => form.innerText()).toContain(`At most 90 days in ${w.managed.name}.`);
    await form.getByLabel('Application').selectOption({ label: `${w.application.name} (${w.application.shortName})` });
    await form.getByLabel('Consumer (read)').check();
    await form.getByLabel('A number of days').check();
    // Past the maximum: the API's refusal appears at the field.
    await form.getByLabel('Days', { exact: true }).fill('120');
    await form.getByRole('button', { name: 'Request access' }).click();
    await expect.poll(() => form.getByLabel('Days', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await form.innerText()).toMatch(/validFor|90 days|P90D/);
    expect(await accessibilityProblems(applicant.page)).toEqual([]);
    await form.getByLabel('Days', { exact: true }).fill('7');
    await form.getByRole('button', { name: 'Request access' }).click();
    await expect.poll(() => managed.getByRole('status').innerText()).toContain('Requested: Pending');
    const mine = managed.getByRole('listitem').filter({ hasText: `asks to consume from ${w.other.name}` });
    await expect.poll(() => mine.innerText()).toContain('Pending');
    expect(await mine.innerText()).toMatch(/Ends /);
    await mine.getByRole('button', { name: /^Cancel / }).click();
    await expect.poll(() => managed.getByRole('listitem').filter({ hasText: `asks to consume from ${w.other.name}` }).count()).toBe(0);
    const [grant] = (await call(app, 'GET', `/application_access_grants/search/findByAttributes?streamId=${w.other.uid}&applicationId=${w.application.uid}`, { token: t.admin.token })).body._embedded.applicationAccessGrantResponses;
    expect(grant.status).toBe('Cancelled');
    // The browser reports the refused request itself; nothing else.
    expect(applicant.complaints.filter((c) => !/status of 400 .*\/api\/application_access_grants\)$/.test(c))).toEqual([]);
    applicant.complaints.length = 0;
  });

  it('lets the stream owner approve and deny in My work, and revoke on the stream page; the applicant sees each', async () => {
    const ask = (stream: any, accessType: string) => created(app, '/application_access_grants', {
      applicationId: w.application.uid, streamId: stream.uid, environmentId: w.managed.uid, accessType,
    }, w.appOwner.token);
    await ask(w.stream, 'CONSUMER');
    await ask(w.stream, 'PRODUCER');
    const page = owner.page;
    await page.goto(`${app.url}/`);
    const waiting = region(page, /^Waiting for my decision/);
    await expect.poll(() => waiting.getByRole('heading').innerText()).toBe('Waiting for my decision (2)');
    await waiting.getByRole('button', { name: `Approve ${w.application.shortName} consuming from ${w.stream.name} in ${w.managed.shortName}` }).click();
    await waiting.getByRole('button', { name: `Deny ${w.application.shortName} producing to ${w.stream.name} in ${w.managed.shortName}` }).click();
    await waiting.getByLabel('Reason (the requester sees it)').fill('Writes go through the ledger service');
    await waiting.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect.poll(() => waiting.innerText()).toContain('Nothing waits for your decision.');
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByLabel(/waiting for your decision/).count()).toBe(0);

    // The applicant's next look: the stream's page shows the approval; the denial with its reason on the application's.
    await applicant.page.goto(`${app.url}/applications/${w.application.uid}`);
    const access = region(applicant.page, 'Access');
    await expect.poll(() => access.getByRole('listitem').filter({ hasText: `asks to produce to ${w.stream.name} in` }).innerText()).toContain('Denied');
    expect(await access.getByRole('listitem').filter({ hasText: `asks to produce to ${w.stream.name} in` }).innerText()).toContain('Reason: Writes go through the ledger service');
    expect(await access.getByRole('listitem').filter({ hasText: `asks to consume from ${w.stream.name} in` }).innerText()).toContain('Approved');

    // The graph draws the new consumer, linked to its application.
    await streamPage(owner, w.stream);
    const managed = environment(owner, w.managed.name);
    const graph = managed.getByRole('group', { name: `Who uses ${w.stream.name} in ${w.managed.name}` });
    await graph.waitFor();
    expect(await graph.getByRole('link', { name: `${w.application.shortName} consumes` }).count()).toBe(1);
    expect(await managed.getByRole('figure').innerText()).toContain(`${w.application.shortName} consumes`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await managed.getByRole('button', { name: /^Revoke / }).click();
    await managed.getByLabel('Reason (the requester sees it)').fill('Moved to the new stream');
    await managed.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => managed.getByRole('button', { name: /^Revoke / }).count()).toBe(0);
    await applicant.page.reload();
    await applicant.page.getByRole('heading', { level: 1, name: w.application.name }).waitFor({ timeout: 20_000 });
    await expect.poll(() => region(applicant.page, 'Access').getByRole('listitem').filter({ hasText: `asks to consume from ${w.stream.name} in` }).innerText()).toContain('Revoked');
    expect(owner.complaints).toEqual([]);
    expect(applicant.complaints).toEqual([]);
  });

  it('promotes a stream config to the next environment after showing its plan as a diff', async () => {
    expectStatus(await call(app, 'PATCH', `/environments/${w.managed.uid}`, { token: t.admin.token, body: { successor: w.auto.uid } }), 200);
    const configOf = async (env: any) => {
      const { body } = await call(app, 'GET', `/stream_configs/search/findByStreamAndEnvironment?stream=${w.other.uid}&environment=${env.uid}`, { token: t.admin.token });
      return body._embedded?.stream_configs?.[0] ?? body;
    };
    const source = await configOf(w.managed);
    const before = (await configOf(w.auto)).retentionTime;
    expectStatus(await call(app, 'PATCH', `/stream_configs/${source.uid}`, { token: w.streamOwner.token, body: { retentionTime: 86_400_000 } }), 200);
    await streamPage(owner, w.other);
    const managed = environment(owner, w.managed.name);
    await managed.getByRole('group', { name: `Who uses ${w.other.name} in ${w.managed.name}` }).waitFor();
    await managed.getByRole('button', { name: `Plan a promotion from ${w.managed.name}…` }).click();
    const plan = managed.getByRole('region', { name: `Promotion plan: ${w.managed.shortName} → ${w.auto.shortName}` });
    const changes = plan.getByRole('table', { name: 'What changes' });
    await expect.poll(() => changes.getByRole('row').allInnerTexts()).toEqual(['Field\tNow\tAfter', `Retention (ms)\t${before}\t86400000`]);
    expect(await plan.innerText()).toMatch(/Already the same: .*Pinned key version/);
    // The dry run wrote nothing.
    expect((await configOf(w.auto)).retentionTime).toBe(before);
    expect(await accessibilityProblems(owner.page)).toEqual([]);
    await plan.getByRole('button', { name: `Promote to ${w.auto.shortName}` }).click();
    await expect.poll(() => managed.getByRole('status').innerText()).toBe(`Promoted to ${w.auto.shortName}.`);
    expect((await configOf(w.auto)).retentionTime).toBe(86_400_000);
    await expect.poll(() => environment(owner, w.auto.name).innerText()).toMatch(/Retention\s+86400000 ms/);
    expect(owner.complaints).toEqual([]);
  });

  it('fits a 360 px wide screen: no page scrolls sideways, and axe finds nothing serious', async () => {
    const narrow = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await narrow.newPage();
    await page.goto(`${app.url}/?tenant=${t.shortName}`);
    await fillSignIn(page, w.streamOwner);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    for (const path of ['/', '/streams', `/streams/${w.stream.uid}?tab=environments`, `/applications/${w.application.uid}`, '/environments']) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8));
      expect(await overflow(), `${path}: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await narrow.close();
  });

  it('shows a grant whose end has passed as Expired', async () => {
    const grant = await created(app, '/application_access_grants', {
      applicationId: w.application.uid, streamId: w.other.uid, environmentId: w.auto.uid, accessType: 'CONSUMER', validFor: 'P1D',
    }, w.appOwner.token);
    await app.models.ApplicationAccessGrant.update({ expiresAt: new Date(Date.now() - 60_000) }, { where: { uid: grant.uid } });
    await applicant.page.goto(`${app.url}/applications/${w.application.uid}`);
    const item = region(applicant.page, 'Access').getByRole('listitem').filter({ hasText: `${w.other.name} in ${w.auto.shortName}` });
    await expect.poll(() => item.innerText()).toContain('Expired');
    expect(await item.innerText()).toContain('Ended ');
  });
});
