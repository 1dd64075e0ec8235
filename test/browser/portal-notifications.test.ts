/**
 * The notifications page (issue 44) in Debian's chromium against the real service, on a database of its own: the
 * service's own dispatcher runs there (every 200 ms), delivering this file's events and nobody else's, to a receiver
 * on loopback (the service allows http and private addresses here, as WEBHOOK_ALLOW_HTTP/PRIVATE do).
 * - a tenant admin turns notifications on with the keyboard, registers a webhook (a refused URL at its field first),
 *   sees its signing secret once and not after a reload, rotates it (the receiver verifies a delivery with either
 *   secret during the overlap), sees the delivery of an access request listed, pauses and deletes the endpoint;
 * - a user who is not a tenant admin has no such page in the navigation and is told it is not theirs;
 * - the pages fit a 360 px wide screen, and axe finds nothing serious or critical on them.
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../core/config';
import { migrate } from '../../migrations/migrator';
import { openDatabase } from '../../models/db';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { accessibilityProblems } from '../support/browser-checks';
import { launchChromium } from '../support/chromium';
import { call, created } from '../support/http';
import { fillSignIn, region, signedIn, tabTo, type Person } from '../support/portal-browser';
import { createRunDatabase } from '../support/run-database';

interface Received { headers: Record<string, string>; body: string }

let database: { url: string; drop: () => Promise<void> };
let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let browser: Browser;
let admin: Person;
let applicant: Person;
let receiver: http.Server;
let hookUrl: string;
const received: Received[] = [];
let hook: { uid: string };

beforeAll(async () => {
  database = await createRunDatabase(inject('databaseUrl'));
  const sequelize = openDatabase(database.url);
  await migrate(sequelize);
  await sequelize.close();
  const defaults = loadConfig({}).notifications;
  app = await startTestApp({ databaseUrl: database.url, notifications: { ...defaults, intervalMs: 200, webhookAllowHttp: true, webhookAllowPrivate: true } });
  t = await createTenant(app, 'portalnotify');
  w = await accessWorld(app, t, 'pn');
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/platform`;
  browser = await launchChromium();
  [admin, applicant] = await Promise.all([signedIn(browser, app, t, t.admin), signedIn(browser, app, t, w.appOwner)]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  receiver?.close();
  await database?.drop();
});

const focusedLabel = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.innerText ?? '');
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the portal: notifications and webhooks', () => {
  it('turns notifications on, registers a webhook, shows its secret once, rotates it and lists a delivery', async () => {
    const page = admin.page;
    await tabTo(page, 'Notifications');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    const setting = page.getByRole('switch', { name: 'Send notifications' });
    expect(await setting.isChecked()).toBe(false);
    await setting.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).innerText()).toBe('Saved: notifications are on.');
    expect(await setting.isChecked()).toBe(true);
    expect((await call(app, 'GET', '/tenant', { token: t.admin.token })).body.settings.notificationsEnabled).toBe('true');

    await page.getByRole('link', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    const url = form.getByRole('textbox', { name: 'URL' });
    await url.fill(`${hookUrl}#here`);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    expect(await url.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent)).toBe('must not have a fragment');
    await url.fill(hookUrl);
    await form.getByRole('group', { name: 'Events' }).getByLabel('Deployment failed to start (deployment.failed)').uncheck();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { level: 1, name: `Edit ${hookUrl}` }).waitFor();
    // The secret, once: the keyboard is on it, to copy.
    const secretField = page.getByRole('textbox', { name: 'Signing secret' });
    await expect.poll(() => focusedLabel(page)).toBe('Signing secret');
    const first = await secretField.inputValue();
    expect(first).toMatch(/^whsec_/);
    expect(await region(page, 'Signing secret').innerText()).toContain('Copy it now: it is not shown again.');
    expect(await accessibilityProblems(page)).toEqual([]);
    const uid = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Edit ${hookUrl}` }).waitFor();
    await expect.poll(() => region(page, 'Signing secret').innerText()).toContain('It is shown only when it is made.');
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).count()).toBe(0);
    expect(await page.content()).not.toContain(first);

    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    const rotate = page.getByRole('form', { name: 'Rotate the signing secret' });
    await expect.poll(() => focusedLabel(page)).toBe('The previous secret keeps signing');
    expect(await rotate.getByLabel('The previous secret keeps signing').inputValue()).toBe('PT24H');
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => focusedLabel(page)).toBe('New signing secret');
    const second = await page.getByRole('textbox', { name: 'New signing secret' }).inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const until = (await call(app, 'GET', `/webhooks/${uid}`, { token: t.admin.token })).body.previousSecretValidUntil;
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(23 * 3600_000);
    // In the browser's own words for the time (its locale and zone).
    const untilText = await page.evaluate((at) => new Date(at).toLocaleString(), until);
    expect(await region(page, 'Signing secret').innerText()).toContain(`The previous secret still signs each delivery until ${untilText}.`);
    hook = { uid };

    // An access request: delivered by the service's dispatcher, signed by both secrets during the overlap.
    await created(app, '/application_access_grants', {
      applicationId: w.application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER',
    }, w.appOwner.token);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [delivery] = received;
    for (const secret of [second, first]) expect(new Webhook(secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: 'platform.access.requested' });
    const deliveries = region(page, 'Last deliveries');
    await expect.poll(async () => {
      await deliveries.getByRole('button', { name: 'Refresh' }).click();
      return deliveries.getByRole('row').filter({ hasText: 'access.requested' }).innerText();
    }, { timeout: 10_000 }).toMatch(/access\.requested\s+Sent\s+1\s+.+\s+204/);
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'All webhooks' }).click();
    const list = region(page, 'Webhook endpoints');
    const row = list.getByRole('row').filter({ hasText: hookUrl });
    await expect.poll(() => row.innerText()).toContain(`${hookUrl}\tAll but deployment.failed\tYes`);
    expect(await row.innerText()).toContain(`Yes\t${untilText}`);
    expect(admin.complaints.filter((c) => !/status of 400 /.test(c))).toEqual([]);
    admin.complaints.length = 0;
  });

  it('has no notifications page for someone who is not a tenant admin', async () => {
    const page = applicant.page;
    await page.getByRole('banner').getByText(`Test ${w.appOwner.user.lastName}`).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).count()).toBe(0);
    await page.goto(`${app.url}/admin/notifications`);
    await page.getByText("Only tenant admins manage the tenant's notifications and webhooks.").waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New webhook' }).count()).toBe(0);
    expect(applicant.complaints).toEqual([]);
  });

  it('fits a 360 px wide screen, and axe finds nothing serious there', async () => {
    const narrow = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await narrow.newPage();
    await page.goto(`${app.url}/admin/notifications?tenant=${t.shortName}`);
    await fillSignIn(page, t.admin);
    for (const path of ['/admin/notifications', `/edit/webhooks/${hook.uid}`, '/edit/webhooks/new']) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await overflow(page), path).toBeLessThanOrEqual(0);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await narrow.close();
  });

  it('pauses a webhook and deletes it', async () => {
    const page = admin.page;
    await page.goto(`${app.url}/edit/webhooks/${hook.uid}`);
    const form = page.getByRole('form', { name: `Edit ${hookUrl}` });
    await form.getByLabel('Active: deliver events to it').uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    expect((await call(app, 'GET', `/webhooks/${hook.uid}`, { token: t.admin.token })).body.active).toBe(false);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await expect.poll(() => region(page, 'Webhook endpoints').innerText()).toContain('No webhooks you may see yet.');
    expect((await call(app, 'GET', `/webhooks/${hook.uid}`, { token: t.admin.token })).status).toBe(404);
    expect(admin.complaints).toEqual([]);
  });
});
