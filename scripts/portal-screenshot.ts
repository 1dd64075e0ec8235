/**
 * The README's pictures of the portal, made from a running service: `npm run screenshot -- <url> <tenant> <email>`
 * with `ADMIN_PASSWORD` set (what `npm start` printed). Through the typed client it gives the tenant a small world
 * if it has none yet (a team, two environments, dev → acc, a stream deployed in both, two applications, two access
 * requests waiting), then signs in with Debian's chromium as a person does and saves My work and the stream's page to
 * docs/images/. Writes only to the tenant the admin signs in to.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createPlatformClient, passwordToken, type PlatformClient } from '../client/src/index';
import { projectRoot } from '../core/project-root';
import { launchChromium } from './chromium';

const [url = 'http://localhost:8080', tenant = 'demo', email = 'admin@demo.local'] = process.argv.slice(2);
const password = process.env.ADMIN_PASSWORD;
if (!password) {
  process.stderr.write('set ADMIN_PASSWORD to the admin\'s password (npm start printed it on the first start)\n');
  process.exit(2);
}
const out = path.join(projectRoot, 'docs', 'images');

async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new Error(`${what}: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

/** The demo world, unless the tenant has the stream `orders` already: answers that stream's uid. */
async function world(api: PlatformClient): Promise<string> {
  const found = await must(api.GET('/streams/search/findByNameContaining', { params: { query: { name: 'orders' } } }), 'find orders');
  const existing = found._embedded.streams.find((s) => s.name === 'orders');
  if (existing) return existing.uid;
  const me = await must(api.GET('/user'), 'the admin');
  const team = await must(api.POST('/groups', { body: { name: 'Orders team', members: [me.uid] } }), 'group');
  const payments = await must(api.POST('/groups', { body: { name: 'Payments team', members: [me.uid] } }), 'group');
  const instance = await must(api.POST('/instances', { body: { name: 'Local', shortName: 'local' } }), 'instance');
  const acc = await must(api.POST('/environments', { body: { name: 'Acceptance', shortName: 'acc', instance: instance.uid, owners: team.uid, maxAccessDuration: 'P90D' } }), 'acc');
  const dev = await must(api.POST('/environments', { body: { name: 'Development', shortName: 'dev', instance: instance.uid, owners: team.uid, successor: acc.uid } }), 'dev');
  const stream = await must(api.POST('/streams', { body: { name: 'orders', description: 'Orders as customers place them', keyType: 'String', valueType: 'String', owners: team.uid } }), 'stream');
  for (const environment of [dev, acc]) await must(api.POST('/stream_configs', { body: { stream: stream.uid, environment: environment.uid } }), 'stream config');
  const billing = await must(api.POST('/applications', { body: { applicationId: 'io.demo.billing', name: 'Billing', shortName: 'billing', applicationType: 'Custom', type: 'Java', owners: payments.uid } }), 'application');
  const ledger = await must(api.POST('/applications', { body: { applicationId: 'io.demo.ledger', name: 'Ledger', shortName: 'ledger', applicationType: 'Custom', type: 'Java', owners: payments.uid } }), 'application');
  // An application asks for access where it can authenticate: a credential each (its secret is not kept).
  for (const [application, environment] of [[ledger, dev], [billing, dev], [billing, acc]]) {
    await must(api.POST('/application_authentications', { body: { applicationId: application.uid, environmentId: environment.uid, target: 'KAFKA' } }), 'credential');
  }
  const approved = await must(api.POST('/application_access_grants', { body: { applicationId: ledger.uid, streamId: stream.uid, environmentId: dev.uid, accessType: 'PRODUCER' } }), 'grant');
  await must(api.PUT('/application_access_grants/{id}', { params: { path: { id: approved.uid } } }), 'approve');
  await must(api.POST('/application_access_grants', { body: { applicationId: billing.uid, streamId: stream.uid, environmentId: dev.uid, accessType: 'CONSUMER' } }), 'grant');
  await must(api.POST('/application_access_grants', { body: { applicationId: billing.uid, streamId: stream.uid, environmentId: acc.uid, accessType: 'CONSUMER', validFor: 'P30D' } }), 'grant');
  return stream.uid;
}

const token = await passwordToken({ authUrl: `${url}/auth`, realm: tenant, username: email, password });
const streamUid = await world(createPlatformClient({ baseUrl: `${url}/api`, token }));
mkdirSync(out, { recursive: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  await page.goto(`${url}/?tenant=${encodeURIComponent(tenant)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: /^Waiting for my decision \(/ }).waitFor();
  await page.screenshot({ path: path.join(out, 'portal-my-work.png') });
  await page.goto(`${url}/streams/${streamUid}?tab=environments`);
  await page.getByRole('group', { name: /^Who uses orders in Development/ }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(out, 'portal-stream.png') });
  process.stdout.write(`saved ${path.relative(process.cwd(), out)}/portal-my-work.png and portal-stream.png\n`);
} finally {
  await browser.close();
}
