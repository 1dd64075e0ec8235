/**
 * The portal's editing journeys (issue 43 §7–8) in Debian's chromium against the real service:
 * - schemas: a version uploaded from a file and one pasted; a parse error named at its line and column, the cursor
 *   put there; pinning an incompatible version shows the API's reasons and is saved only when forced;
 * - streams and their configs, applications: created, changed and deleted through forms, every refusal of the API
 *   at its field, a version conflict offered as a reload, a delete refused for what still uses the item, in words;
 * - a tenant admin's users, groups and members, environments (successor, access durations), instances, clusters.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { accessibilityProblems } from '../support/browser-checks';
import { launchChromium } from '../support/chromium';
import { call, created, expectStatus } from '../support/http';
import { fillSignIn, signedIn, tabTo, type Person } from '../support/portal-browser';

let app: TestApp;
let t: TestTenant;
let browser: Browser;
let admin: Person;
let author: Person;
let authorUser: TestUser;
let team: any;
let instance: any;
let dev: any;

const AVRO_V1 = JSON.stringify({ type: 'record', name: 'Payment', namespace: 'com.example.edit', fields: [{ name: 'amount', type: 'long' }] }, null, 2);
// A new field without a default: version 2 cannot read what version 1 wrote.
const AVRO_V2 = JSON.stringify({
  type: 'record', name: 'Payment', namespace: 'com.example.edit', fields: [{ name: 'amount', type: 'long' }, { name: 'currency', type: 'string' }],
}, null, 2);
/** Broken on line 3: a missing comma after `"Payment"`. */
const BROKEN = '{\n  "type": "record",\n  "name": "Payment" "namespace": "x",\n  "fields": []\n}';

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'portaledit');
  authorUser = await createUser(app, t, ['STREAM_AUTHOR', 'APPLICATION_AUTHOR', 'SCHEMA_AUTHOR'], 'pe-author');
  team = await created(app, '/groups', { name: 'pe Team', members: [authorUser.user.uid, t.admin.user.uid] }, t.admin.token);
  instance = await created(app, '/instances', { name: 'pe Instance', shortName: 'peinst' }, t.admin.token);
  dev = await created(app, '/environments', { name: 'pe-dev', shortName: 'pedev', instance: instance.uid, owners: team.uid }, t.admin.token);
  browser = await launchChromium();
  [admin, author] = await Promise.all([signedIn(browser, app, t, t.admin), signedIn(browser, app, t, authorUser)]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const open = async (p: Person, path: string, heading: string | RegExp) => {
  await p.page.goto(`${app.url}${path}`);
  await p.page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 20_000 });
};
const invalid = (field: Locator) => field.getAttribute('aria-invalid');
/** The message tied to a field (aria-describedby), as a screen reader reads it. */
const described = (page: Page, field: Locator) => field.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ')
  .map((id) => document.getElementById(id)?.textContent ?? '').join(' '));

describe('the portal: schemas', () => {
  it('points at a parse error by line and column, then uploads a version from a file and one pasted', async () => {
    const page = author.page;
    await open(author, '/schemas', 'Schemas');
    await page.getByRole('link', { name: 'Upload a schema' }).click();
    const form = page.getByRole('form', { name: 'Upload a schema version' });
    await form.getByLabel('Type').selectOption('AVRO');
    const text = form.getByLabel('Schema text');
    await text.fill(BROKEN);
    await form.getByRole('button', { name: 'Check' }).click();
    const problems = form.getByRole('alert');
    await expect.poll(() => problems.innerText()).toMatch(/Line 3, column 21: /);
    expect(await invalid(text)).toBe('true');
    await problems.getByRole('button', { name: 'Show in the text' }).first().click();
    const cursor = await text.evaluate((el: HTMLTextAreaElement) => ({ focused: document.activeElement === el, at: el.selectionStart, char: el.value[el.selectionStart] }));
    expect(cursor).toEqual({ focused: true, at: BROKEN.indexOf('"namespace"'), char: '"' });
    expect(await accessibilityProblems(page)).toEqual([]);

    await form.getByLabel('From a file').setInputFiles({ name: 'payment.avsc', mimeType: 'application/json', buffer: Buffer.from(AVRO_V1) });
    await expect.poll(() => text.inputValue()).toBe(AVRO_V1);
    await form.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => form.getByRole('status').innerText()).toBe('It parses: com.example.edit.Payment, a new schema.');
    await form.getByLabel('Version').fill('1.0.0');
    await form.getByLabel('Owners (of a new schema)').selectOption({ label: team.name });
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'com.example.edit.Payment' }).waitFor();
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'Version 1.0.0' }).count()).toBe(1);

    await page.getByRole('link', { name: 'Upload a version' }).click();
    const again = page.getByRole('form', { name: 'Upload a schema version' });
    await again.getByLabel('Schema text').fill(AVRO_V2);
    await again.getByLabel('Version').fill('1.0.0');
    await again.getByRole('button', { name: 'Upload' }).click();
    // The same version twice: the API's 409, at the version field.
    await expect.poll(() => invalid(again.getByLabel('Version'))).toBe('true');
    expect(await described(page, again.getByLabel('Version'))).toMatch(/1\.0\.0/);
    await again.getByLabel('Version').fill('2.0.0');
    await again.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'com.example.edit.Payment' }).waitFor();
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: /Version \d/ }).allInnerTexts()).toEqual([
      expect.stringContaining('Version 2.0.0'), expect.stringContaining('Version 1.0.0'),
    ]);
    expect(author.complaints.filter((c) => !/status of (400|409) /.test(c))).toEqual([]);
    author.complaints.length = 0;
  });

  it('shows why a pinned version would break its readers, and pins it only when forced', async () => {
    const schemas = (await call(app, 'GET', '/schemas/search/findByName?name=com.example.edit.Payment', { token: t.admin.token })).body;
    const schema = schemas._embedded?.schemas?.[0] ?? schemas;
    const versions = (await call(app, 'GET', `/schema_versions/search/findAllBySchema?schema=${schema.uid}`, { token: t.admin.token })).body._embedded.schema_versions;
    const v1 = versions.find((v: any) => v.version === '1.0.0');
    const stream = await created(app, '/streams', { name: 'pe-pinned', keyType: 'String', valueType: 'AVRO', valueSchema: schema.uid, owners: team.uid }, authorUser.token);
    await created(app, '/stream_configs', { stream: stream.uid, environment: dev.uid, valueSchemaVersion: v1.uid }, authorUser.token);
    const page = author.page;
    await open(author, `/streams/${stream.uid}?tab=environments`, stream.name);
    const env = page.getByRole('region', { name: dev.name });
    await env.getByRole('button', { name: 'Change config…' }).click();
    const form = env.getByRole('form', { name: `Change the config in ${dev.name}` });
    await form.getByLabel('Pinned value schema version').selectOption({ label: '2.0.0' });
    await form.getByRole('button', { name: 'Save config' }).click();
    const refusal = form.getByRole('alert');
    await expect.poll(() => refusal.innerText()).toContain('Schema version 2.0.0 is not backward compatible with 1.0.0.');
    expect(await refusal.getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await refusal.innerText()).toMatch(/currency/);
    expect(await accessibilityProblems(page)).toEqual([]);
    await refusal.getByLabel(/Pin it anyway/).check();
    await form.getByRole('button', { name: 'Save config' }).click();
    await expect.poll(() => env.innerText()).toMatch(/Pinned value version\s+2\.0\.0/);
    expect(author.complaints.filter((c) => !/status of 422 /.test(c))).toEqual([]);
    author.complaints.length = 0;
  });
});

describe('the portal: streams, their configs and applications', () => {
  it('creates a stream, each refusal at its field, deploys it, and deletes it once nothing uses it', async () => {
    const page = author.page;
    await open(author, '/streams', 'Streams');
    await page.getByRole('link', { name: 'New stream' }).click();
    const form = page.getByRole('form', { name: 'New stream' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await form.getByRole('button', { name: 'Create stream' }).click();
    await expect.poll(() => invalid(name)).toBe('true');
    expect(await described(page, name)).toContain('size must be at least 3');
    await name.fill('pe orders!');
    await form.getByLabel('Value type').selectOption('String');
    await form.getByRole('button', { name: 'Create stream' }).click();
    await expect.poll(() => described(page, name)).toContain('must match');
    expect(await accessibilityProblems(page)).toEqual([]);
    // The API checks each field's form first, then what references name: the owners come next.
    await name.fill('pe-orders');
    await form.getByRole('button', { name: 'Create stream' }).click();
    await expect.poll(() => invalid(form.getByLabel('Owners'))).toBe('true');
    expect(await invalid(name)).toBeNull();
    expect(await described(page, form.getByLabel('Owners'))).toMatch(/\S/);
    await form.getByLabel('Owners').selectOption({ label: team.name });
    await form.getByRole('button', { name: 'Create stream' }).click();
    await page.getByRole('heading', { level: 1, name: 'pe-orders' }).waitFor();
    const stream = (await call(app, 'GET', '/streams/search/findByName?name=pe-orders', { token: t.admin.token })).body;
    const uid = (stream._embedded?.streams?.[0] ?? stream).uid;

    await page.getByRole('tab', { name: 'Environments' }).click();
    await page.getByRole('button', { name: 'Deploy to another environment…' }).click();
    const deploy = page.getByRole('form', { name: 'Deploy to another environment' });
    await deploy.getByLabel('Environment').selectOption({ label: dev.name });
    await deploy.getByLabel('Partitions').fill('12a');
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    await expect.poll(() => described(page, deploy.getByLabel('Partitions'))).toContain('Partitions must be a whole number; "12a" is not one');
    await deploy.getByLabel('Partitions').fill('6');
    await deploy.getByRole('button', { name: 'Deploy' }).click();
    const env = page.getByRole('region', { name: dev.name });
    await expect.poll(() => env.innerText()).toMatch(/Partitions\s+6/);

    // Still deployed: the delete is refused, with the API's reason in words.
    await page.getByRole('link', { name: 'Edit stream' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete stream' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^It cannot be deleted yet: Stream pe-orders has stream config\(s\) .+; delete them first/);

    await open(author, `/streams/${uid}?tab=environments`, 'pe-orders');
    await page.getByRole('region', { name: dev.name }).getByRole('button', { name: `Remove from ${dev.name}…` }).click();
    await page.getByRole('button', { name: `Remove from ${dev.name}`, exact: true }).click();
    await expect.poll(() => page.getByText('Not deployed in any environment you may see.').count()).toBe(1);
    await page.getByRole('link', { name: 'Edit stream' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete stream' }).click();
    await page.getByRole('heading', { level: 1, name: 'Streams' }).waitFor();
    expectStatus(await call(app, 'GET', `/streams/${uid}`, { token: t.admin.token }), 404);
    expect(author.complaints.filter((c) => !/status of (400|422) /.test(c))).toEqual([]);
    author.complaints.length = 0;
  });

  it('deploys a stream with the keyboard only: the tabs, the form that opens with the focus in it, Enter', async () => {
    const stream = await created(app, '/streams', { name: 'pe-keys', keyType: 'String', valueType: 'String', owners: team.uid }, authorUser.token);
    const page = author.page;
    await open(author, `/streams/${stream.uid}`, 'pe-keys');
    await tabTo(page, 'Overview');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'Environments', selected: true }).count()).toBe(1);
    await tabTo(page, 'Deploy to another environment…');
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Deploy to another environment' });
    const environment = form.getByLabel('Environment');
    await expect.poll(() => environment.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => environment.locator('option').count()).toBeGreaterThan(1);
    await page.keyboard.type(dev.name);
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('region', { name: dev.name }).innerText()).toMatch(/Partitions\s+3/);
    // Removing it: the confirmation takes the focus, on the answer that keeps it.
    await tabTo(page, `Remove from ${dev.name}…`);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText)).toBe('Keep it');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('Not deployed in any environment you may see.').count()).toBe(1);
    author.complaints.length = 0;
  });

  it('says a stream was changed by someone else, and reloads their change', async () => {
    const stream = await created(app, '/streams', { name: 'pe-conflict', keyType: 'String', valueType: 'String', owners: team.uid, description: 'first' }, authorUser.token);
    const page = author.page;
    await open(author, `/edit/streams/${stream.uid}`, 'Edit pe-conflict');
    const form = page.getByRole('form', { name: 'Edit pe-conflict' });
    expectStatus(await call(app, 'PATCH', `/streams/${stream.uid}`, { token: t.admin.token, body: { description: 'changed meanwhile' } }), 200);
    await form.getByLabel('Description').fill('mine');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const alert = form.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('This was changed by someone else since you opened it.');
    expect((await call(app, 'GET', `/streams/${stream.uid}`, { token: t.admin.token })).body.description).toBe('changed meanwhile');
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Edit pe-conflict' }).getByLabel('Description').inputValue()).toBe('changed meanwhile');
    await page.getByRole('form', { name: 'Edit pe-conflict' }).getByLabel('Description').fill('mine, after theirs');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Saved.');
    expect((await call(app, 'GET', `/streams/${stream.uid}`, { token: t.admin.token })).body.description).toBe('mine, after theirs');
    author.complaints.length = 0;
  });

  it('creates an application with the keyboard only, refuses a short name in use at its field, and edits its viewers', async () => {
    await created(app, '/applications', { applicationId: 'io.pe.taken', name: 'pe Taken', shortName: 'pe_taken', applicationType: 'Custom', owners: team.uid }, authorUser.token);
    const viewers = await created(app, '/groups', { name: 'pe Viewers' }, t.admin.token);
    const page = author.page;
    await open(author, '/applications', 'Applications');
    await page.getByRole('link', { name: 'New application' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New application' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    await form.getByRole('textbox', { name: 'Name', exact: true }).focus();
    await page.keyboard.type('pe Ledger');
    await page.keyboard.press('Tab');
    await page.keyboard.type('pe_taken');
    await page.keyboard.press('Tab');
    await page.keyboard.type('io.pe.ledger');
    await page.keyboard.press('Tab'); // description
    await page.keyboard.press('Tab'); // owners
    await page.keyboard.type(team.name);
    await form.getByRole('button', { name: 'Create application' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => invalid(form.getByLabel('Short name'))).toBe('true');
    expect(await described(page, form.getByLabel('Short name'))).toContain('pe_taken');
    await form.getByLabel('Short name').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('pe_ledger');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'pe Ledger' }).waitFor();
    await page.getByRole('link', { name: 'Edit application' }).click();
    const edit = page.getByRole('form', { name: 'Edit pe Ledger' });
    await expect.poll(() => edit.getByLabel('Application type').isDisabled()).toBe(true);
    await edit.getByRole('group', { name: 'Viewers' }).getByLabel(viewers.name).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Saved.');
    const ledger = (await call(app, 'GET', '/applications/search/findByNameContaining?name=pe Ledger', { token: t.admin.token })).body._embedded.applications[0];
    expect(ledger._embedded.viewers.map((g: any) => g.uid)).toEqual([viewers.uid]);
    expect(ledger.shortName).toBe('pe_ledger');
    expect(await accessibilityProblems(page)).toEqual([]);
    author.complaints.length = 0;
  });
});

describe("the portal: a tenant admin's pages", () => {
  it('shows the admin pages to tenant admins only', async () => {
    // Who is signed in shows once the person is read: the links that depend on their roles are there by then.
    const nav = author.page.getByRole('navigation', { name: 'Main' });
    await open(author, '/', 'My work');
    await author.page.getByRole('banner').getByText('Test pe-author').waitFor();
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await open(admin, '/', 'My work');
    await expect.poll(() => admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(1);
    for (const name of ['Users', 'Groups', 'Instances', 'Clusters']) {
      expect(await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).count()).toBe(1);
    }
  });

  it('creates a user and a group, adds and removes a member by e-mail address', async () => {
    const page = admin.page;
    await open(admin, '/admin/users', 'Users');
    await page.getByRole('link', { name: 'New user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('First name').fill('Petra');
    await form.getByLabel('Last name').fill('Editor');
    await form.getByLabel('E-mail address').fill('not-an-address');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect.poll(() => invalid(form.getByLabel('E-mail address'))).toBe('true');
    await form.getByLabel('E-mail address').fill('petra.editor@example.com');
    await form.getByRole('group', { name: 'Roles' }).getByLabel('Schema author').check();
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Petra Editor' }).waitFor();
    const [petra] = (await call(app, 'GET', '/users/search/findByEmailAddress?email=petra.editor@example.com', { token: t.admin.token })).body._embedded.users;
    expect(petra.roles.map((r: any) => r.name).sort()).toEqual(['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'SCHEMA_AUTHOR', 'STREAM_AUTHOR']);

    await open(admin, '/admin/groups', 'Groups');
    await page.getByRole('link', { name: 'New group' }).click();
    await page.getByRole('form', { name: 'New group' }).getByRole('textbox', { name: 'Name', exact: true }).fill('pe Editors');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit pe Editors' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByLabel('Add a member by e-mail address').fill('nobody@example.com');
    await members.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => described(page, members.getByLabel('Add a member by e-mail address'))).toBe('Nobody in this tenant has the address nobody@example.com');
    await members.getByLabel('Add a member by e-mail address').fill('petra.editor@example.com');
    await members.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => members.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('Petra Editor')]);
    expect(await accessibilityProblems(page)).toEqual([]);
    await members.getByRole('button', { name: 'Remove Petra Editor' }).click();
    await expect.poll(() => members.innerText()).toContain('No members yet.');
    const group = (await call(app, 'GET', '/groups/search/findByName?name=pe Editors', { token: t.admin.token })).body;
    expect((group._embedded?.groups?.[0] ?? group)._embedded?.members ?? []).toEqual([]);
    expect(admin.complaints.filter((c) => !/status of 400 /.test(c))).toEqual([]);
    admin.complaints.length = 0;
  });

  it('creates a cluster, an instance on it and an environment with a successor and access durations; a cluster in use is not deleted', async () => {
    const page = admin.page;
    await open(admin, '/admin/clusters', 'Clusters');
    await page.getByRole('link', { name: 'New cluster' }).click();
    const cluster = page.getByRole('form', { name: 'New cluster' });
    await cluster.getByRole('textbox', { name: 'Name', exact: true }).fill('pe-cluster');
    await cluster.getByLabel('Bootstrap servers').fill('kafka-1.example.com:9092\nkafka-2.example.com:9092\n');
    await cluster.getByRole('button', { name: 'Create cluster' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit pe-cluster' }).waitFor();

    await open(admin, '/admin/instances', 'Instances');
    await page.getByRole('link', { name: 'New instance' }).click();
    const inst = page.getByRole('form', { name: 'New instance' });
    await inst.getByRole('textbox', { name: 'Name', exact: true }).fill('pe Second');
    await inst.getByLabel('Short name').fill('pesecond');
    await inst.getByRole('group', { name: 'Clusters' }).getByLabel('pe-cluster').check();
    await inst.getByRole('button', { name: 'Create instance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit pe Second' }).waitFor();
    expect(await page.getByLabel('Short name').isDisabled()).toBe(true);

    await open(admin, '/environments', 'Environments');
    await page.getByRole('link', { name: 'New environment' }).click();
    const env = page.getByRole('form', { name: 'New environment' });
    await env.getByRole('textbox', { name: 'Name', exact: true }).fill('pe-acc');
    await env.getByLabel('Short name').fill('peacc');
    await env.getByLabel('Instance').selectOption({ label: 'pe Second' });
    await env.getByLabel('Owners').selectOption({ label: team.name });
    await env.getByLabel('Promotes to').selectOption({ label: dev.name });
    await env.getByLabel('Longest access').fill('90 days');
    await env.getByRole('button', { name: 'Create environment' }).click();
    await expect.poll(() => invalid(env.getByLabel('Longest access'))).toBe('true');
    await env.getByLabel('Longest access').fill('P90D');
    await env.getByLabel('Access without an end lasts').fill('P30D');
    await env.getByRole('button', { name: 'Create environment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit pe-acc' }).waitFor();
    const acc = (await call(app, 'GET', '/environments/search/findByName?name=pe-acc', { token: t.admin.token })).body;
    const saved = acc._embedded?.environments?.[0] ?? acc;
    expect([saved.maxAccessDuration, saved.defaultAccessDuration, saved._embedded.successor.uid]).toEqual(['P90D', 'P30D', dev.uid]);
    expect(await accessibilityProblems(page)).toEqual([]);

    await open(admin, '/admin/clusters', 'Clusters');
    await page.getByRole('link', { name: 'pe-cluster' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete cluster' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^It cannot be deleted yet: .*pe-cluster.*instance/i);
    expect(admin.complaints.filter((c) => !/status of (400|422) /.test(c))).toEqual([]);
  });

  it('fits a 360 px wide screen on every editing page, and axe finds nothing serious there', async () => {
    const narrow = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await narrow.newPage();
    await page.goto(`${app.url}/?tenant=${t.shortName}`);
    await fillSignIn(page, t.admin);
    const stream = await created(app, '/streams', { name: 'pe-narrow', keyType: 'String', valueType: 'String', owners: team.uid }, authorUser.token);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const schemas = (await call(app, 'GET', '/schemas?size=1', { token: t.admin.token })).body._embedded.schemas;
    for (const path of ['/edit/streams/new', `/edit/streams/${stream.uid}`, '/edit/environments/new', '/schemas/upload', `/schemas/${schemas[0].uid}`, '/admin/users', '/edit/users/new', `/edit/groups/${team.uid}`]) {
      await page.goto(`${app.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await overflow(), path).toBeLessThanOrEqual(0);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    await narrow.close();
  });
});

