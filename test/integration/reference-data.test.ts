/**
 * Reference data (docs/contract.md §5.16): seeds of every new tenant, CRUD by TENANT_ADMIN only, uniqueness, validation,
 * searches, audit under the Tenant, tenancy, and an instance's optional support tier (§5.4).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { openDatabase } from '../../models/db';
import { newUid } from '../../models/define';
import { migrator } from '../../migrations/migrator';
import { createRunDatabase } from '../support/run-database';
import { createTenant, createUser, passwordToken, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { call } from '../support/http';

let app: TestApp;
let t: TestTenant;
let other: TestTenant;
let reader: TestUser;
let superAdmin: TestUser;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('refdata'));
  other = await createTenant(app, 'refdata-other');
  reader = await createUser(app, t, ['STREAM_AUTHOR', 'APPLICATION_AUTHOR'], 'reader');
  superAdmin = await createUser(app, t, ['SUPER_ADMIN', 'TENANT_ADMIN'], 'super');
});
afterAll(async () => app?.stop());

const admin = () => t.admin.token;
const get = (path: string, token = admin()) => call(app, 'GET', path, { token });
const list = async (collection: string, token = admin()) => {
  const res = await get(`/${collection}?size=100&sort=${collection === 'connect_plugins' ? 'pluginClass' : 'level'},asc`, token);
  expect(res.status).toBe(200);
  return res.body._embedded[collection] as any[];
};
/** The tenant's own audit rows (not those of its reference data), oldest first. */
const tenantAudit = (tenantUid: string) => auditOf(app, { resourceId: tenantUid, resourceType: 'Tenant' });

const SEEDS = {
  confidentialities: [['Public', 1], ['Internal', 2], ['Confidential', 3], ['Secret', 4]],
  integrities: [['Low', 1], ['Medium', 2], ['High', 3]],
  support_tiers: [['Bronze', 1], ['Silver', 2], ['Gold', 3]],
} as const;
const PLUGINS = {
  'org.apache.kafka.connect.axual.utils.LogSourceConnector': ['SOURCE', [['topic', 'STRING', true], ['logger.name', 'STRING', false], ['throughput', 'INT', false]]],
  'org.apache.kafka.connect.file.FileStreamSourceConnector': ['SOURCE', [['topic', 'STRING', true], ['file', 'STRING', false]]],
  'org.apache.kafka.connect.file.FileStreamSinkConnector': ['SINK', [['topics', 'LIST', true], ['file', 'STRING', false]]],
} as const;

async function expectSeeds(token: string) {
  for (const [collection, seeds] of Object.entries(SEEDS)) {
    expect((await list(collection, token)).map((r) => [r.name, r.level]), collection).toEqual(seeds);
  }
  const plugins = await list('connect_plugins', token);
  const shape = Object.fromEntries(plugins.map((p) => [p.pluginClass, [p.pluginType, p.configDefinitions.map((d: any) => [d.name, d.type, d.required])]]));
  expect(shape).toEqual(PLUGINS);
  expect(plugins.every((p) => p.pluginVersion === '3.7.0' && p.created_by === null)).toBe(true);
}

describe('reference data: seeds', () => {
  it('are present for a tenant created straight in the database', async () => {
    await expectSeeds(admin());
  });

  it('are present for a tenant created over HTTP by a SUPER_ADMIN, readable by its first admin', async () => {
    const sn = `seeded-${Date.now().toString(36)}`.slice(0, 30);
    const email = `first@${sn}.example`;
    const password = 'first-admin-pw-1';
    const created = await call(app, 'POST', '/tenants', {
      token: superAdmin.token,
      body: { name: 'Seeded', shortName: sn, admin: { firstName: 'First', lastName: 'Admin', emailAddress: email, password } },
    });
    expect(created.status).toBe(201);
    await expectSeeds(await passwordToken(app, sn, email, password));
  });
});

describe('reference data: migration 0005', () => {
  it('seeds every tenant that existed before it', async () => {
    const db = await createRunDatabase(inject('databaseUrl'));
    const sequelize = openDatabase(db.url);
    try {
      await migrator(sequelize).up({ to: '0004-user-lookup-indexes' });
      const uid = newUid();
      const now = new Date();
      await sequelize.getQueryInterface().bulkInsert('tenants', [{
        uid, name: 'Old', short_name: 'old', created_at: now, modified_at: now, version: 0, unique_consumer_group: false,
        data_classification_enabled: false, supported_authentication_methods: '[]', wizard_completed: false, settings: '{}',
      }]);
      await migrator(sequelize).up({ to: '0005-reference-data' });
      const names = async (table: string, column = 'name') => (await sequelize.query<{ v: string }>(
        `SELECT ${column} AS v FROM ${table} WHERE tenant_uid = :uid ORDER BY ${column === 'name' ? 'level' : column}`, { type: QueryTypes.SELECT, replacements: { uid } },
      )).map((r) => r.v);
      for (const [table, seeds] of Object.entries(SEEDS)) expect(await names(table)).toEqual(seeds.map(([n]) => n));
      expect(await names('connect_plugins', 'plugin_class')).toEqual(Object.keys(PLUGINS).sort());
    } finally {
      await sequelize.close();
      await db.drop();
    }
  });
});

describe('reference data: ranked lists', () => {
  it.each(['confidentialities', 'integrities', 'support_tiers'])('%s: TENANT_ADMIN creates, patches, replaces and deletes', async (collection) => {
    const created = await call(app, 'POST', `/${collection}`, { token: admin(), body: { name: `Extra ${collection}`, level: 9 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body._links.self.href);
    expect(created.body).toMatchObject({ name: `Extra ${collection}`, level: 9, description: null, created_by: t.admin.email });
    expect(created.body._links.edit).toBeDefined();
    const self = created.body._links.self.href;
    const patched = await call(app, 'PATCH', self, { token: admin(), body: { description: 'More', level: 10 } });
    expect([patched.status, patched.body.level, patched.body.description, patched.body.name]).toEqual([200, 10, 'More', `Extra ${collection}`]);
    const replaced = await call(app, 'PUT', self, { token: admin(), body: { name: `Renamed ${collection}`, level: 0 } });
    expect([replaced.status, replaced.body.level, replaced.body.description]).toEqual([200, 0, null]);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
    expect((await get(self)).status).toBe(404);
  });

  it.each(['confidentialities', 'integrities', 'support_tiers'])('%s: 409 on a duplicate name in any case', async (collection) => {
    const first = SEEDS[collection as keyof typeof SEEDS][0][0];
    const res = await call(app, 'POST', `/${collection}`, { token: admin(), body: { name: first.toUpperCase(), level: 7 } });
    expect([res.status, res.body.errors[0]]).toEqual([409, expect.stringMatching(/^name:/)]);
  });

  it.each([
    ['level as a string', { name: 'x', level: '2' }, 'level'],
    ['level as a fraction', { name: 'x', level: 1.5 }, 'level'],
    ['level missing', { name: 'x' }, 'level'],
    ['name missing', { level: 1 }, 'name'],
    ['name empty', { name: '', level: 1 }, 'name'],
  ])('400 for %s', async (_label, body, field) => {
    const res = await call(app, 'POST', '/support_tiers', { token: admin(), body });
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(`${field}:`))).toBe(true);
  });

  it('findByName answers a page, matching in any case', async () => {
    const hit = await get('/integrities/search/findByName?name=mEdIuM');
    expect(hit.status).toBe(200);
    expect(hit.body._embedded.integrities.map((r: any) => r.name)).toEqual(['Medium']);
    const miss = await get('/integrities/search/findByName?name=nothing');
    expect([miss.status, miss.body._embedded.integrities, miss.body.page.totalElements]).toEqual([200, [], 0]);
  });
});

describe('reference data: rights', () => {
  const writes = (collection: string, uid: string, body: unknown): Array<[string, string, unknown]> => [
    ['POST', `/${collection}`, body], ['PUT', `/${collection}/${uid}`, body], ['PATCH', `/${collection}/${uid}`, body], ['DELETE', `/${collection}/${uid}`, undefined],
  ];

  it.each(['confidentialities', 'integrities', 'support_tiers', 'connect_plugins'])('%s: any role reads, only TENANT_ADMIN writes (403)', async (collection) => {
    const rows = await list(collection, reader.token);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]._links.edit).toBeUndefined();
    expect(rows[0]._links.delete).toBeUndefined();
    expect((await get(`/${collection}/${rows[0].uid}`, reader.token)).status).toBe(200);
    expect((await get(`/${collection}`, reader.token)).body._links.create).toBeUndefined();
    const body = collection === 'connect_plugins' ? { pluginClass: 'com.example.Nope', pluginType: 'SINK' } : { name: 'Nope', level: 1 };
    for (const [method, path, b] of writes(collection, rows[0].uid, body)) {
      const res = await call(app, method, path, { token: reader.token, body: b });
      expect([method, res.status, res.body.status]).toEqual([method, 403, 'FORBIDDEN']);
    }
  });

  it.each(['confidentialities', 'integrities', 'support_tiers', 'connect_plugins'])("%s: another tenant's rows answer 404", async (collection) => {
    const theirs = await list(collection, other.admin.token);
    for (const [method, path, b] of [['GET', `/${collection}/${theirs[0].uid}`, undefined] as [string, string, unknown], ...writes(collection, theirs[0].uid, {}).slice(1)]) {
      expect((await call(app, method, path, { token: admin(), body: b })).status, `${method} ${path}`).toBe(404);
    }
    const mine = await list(collection);
    expect(mine.map((r) => r.uid)).not.toContain(theirs[0].uid);
  });
});

describe('reference data: connect plugins', () => {
  const body = {
    pluginClass: 'com.example.connect.HttpSinkConnector', pluginType: 'sink', pluginVersion: '1.0.0',
    configDefinitions: [{ name: 'topics', type: 'list', required: true }, { name: 'http.url', type: 'STRING', documentation: 'Where to post', extra: 'dropped' }],
  };

  it('creates with normalised enums and complete definitions, patches, and deletes', async () => {
    const created = await call(app, 'POST', '/connect_plugins', { token: admin(), body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ pluginClass: body.pluginClass, pluginType: 'SINK', pluginVersion: '1.0.0' });
    expect(created.body.configDefinitions).toEqual([
      { name: 'topics', type: 'LIST', required: true, defaultValue: null, documentation: null },
      { name: 'http.url', type: 'STRING', required: false, defaultValue: null, documentation: 'Where to post' },
    ]);
    const self = created.body._links.self.href;
    const patched = await call(app, 'PATCH', self, { token: admin(), body: { pluginVersion: '1.1.0', configDefinitions: null } });
    expect([patched.status, patched.body.pluginVersion, patched.body.configDefinitions]).toEqual([200, '1.1.0', []]);
    const dup = await call(app, 'POST', '/connect_plugins', { token: admin(), body: { pluginClass: body.pluginClass.toUpperCase(), pluginType: 'SOURCE' } });
    expect([dup.status, dup.body.errors[0]]).toEqual([409, expect.stringMatching(/^pluginClass:/)]);
    expect((await call(app, 'DELETE', self, { token: admin() })).status).toBe(204);
  });

  it.each([
    ['an unknown pluginType', { pluginType: 'BOTH' }, 'pluginType'],
    ['no pluginClass', { pluginClass: undefined }, 'pluginClass'],
    ['a definition without a name', { configDefinitions: [{ type: 'STRING' }] }, 'configDefinitions[0]'],
    ['a definition of an unknown type', { configDefinitions: [{ name: 'a', type: 'FLOAT' }] }, 'configDefinitions[0].type'],
    ['a definition with a non-boolean required', { configDefinitions: [{ name: 'a', type: 'INT', required: 'yes' }] }, 'configDefinitions[0].required'],
    ['a definition named twice', { configDefinitions: [{ name: 'a', type: 'INT' }, { name: 'a', type: 'LONG' }] }, 'configDefinitions[1].name'],
  ])('400 for %s', async (_label, change, field) => {
    const res = await call(app, 'POST', '/connect_plugins', { token: admin(), body: { ...body, pluginClass: 'com.example.Bad', ...change } });
    expect(res.status).toBe(400);
    expect(res.body.errors.some((e: string) => e.startsWith(field)), JSON.stringify(res.body.errors)).toBe(true);
  });

  it('findByPluginClass answers the item itself, 404 when none matches', async () => {
    const hit = await get('/connect_plugins/search/findByPluginClass?pluginClass=ORG.APACHE.KAFKA.CONNECT.FILE.FileStreamSinkConnector');
    expect(hit.status).toBe(200);
    expect(hit.body).toMatchObject({ pluginClass: 'org.apache.kafka.connect.file.FileStreamSinkConnector', pluginType: 'SINK' });
    expect(hit.body._embedded).toBeUndefined();
    expect((await get('/connect_plugins/search/findByPluginClass?pluginClass=com.example.None')).status).toBe(404);
    expect((await get('/connect_plugins/search/findByPluginClass')).status).toBe(400);
  });
});

describe('reference data: profiles', () => {
  it.each([
    ['confidentialities', 'Confidentiality', ['name', 'level', 'description']],
    ['integrities', 'Integrity', ['name', 'level', 'description']],
    ['support_tiers', 'SupportTier', ['name', 'level', 'description']],
    ['connect_plugins', 'ConnectPlugin', ['pluginClass', 'pluginType', 'pluginVersion', 'configDefinitions']],
  ])('/profile/%s describes the fields in ALPS and JSON Schema', async (collection, title, fields) => {
    const alps = await get(`/profile/${collection}`);
    expect(alps.body.alps.descriptor[0].descriptor.map((d: any) => d.name)).toEqual(fields);
    const schema = await call(app, 'GET', `/profile/${collection}`, { token: admin(), headers: { Accept: 'application/schema+json' } });
    expect(schema.body.title).toBe(title);
    expect(Object.keys(schema.body.properties)).toEqual(expect.arrayContaining([...fields, 'uid']));
  });
});

describe('reference data: audit', () => {
  it('files CREATED, UPDATED and DELETED under the Tenant, naming the entity in details', async () => {
    const created = await call(app, 'POST', '/confidentialities', { token: admin(), body: { name: 'Audited', level: 5 } });
    const self = created.body._links.self.href;
    await call(app, 'PATCH', self, { token: admin(), body: { level: 6 } });
    await call(app, 'DELETE', self, { token: admin() });
    const mine = (await tenantAudit(t.tenant.uid)).filter((e: any) => e.details?.confidentiality?.uid === created.body.uid);
    expect(mine.map((e: any) => e.action)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(mine.every((e: any) => e.resourceType === 'Tenant' && e.resourceName === t.tenant.name && e.actor === t.admin.email)).toBe(true);
    expect(mine[0].details).toMatchObject({ confidentiality: { uid: created.body.uid, name: 'Audited' }, name: 'Audited', level: 5 });
    expect(mine[1].details).toMatchObject({ level: { old: 5, new: 6 } });
  });
});

describe('instances: supportTier', () => {
  it('is set, embedded as a summary, read as an association, cleared, and blocks deleting a used tier', async () => {
    const [bronze, silver] = await list('support_tiers');
    const created = await call(app, 'POST', '/instances', { token: admin(), body: { name: 'Tiered', shortName: 'tiered', supportTier: bronze._links.self.href } });
    expect(created.status).toBe(201);
    expect(created.body._embedded.supportTier).toMatchObject({ uid: bronze.uid, name: 'Bronze', level: 1, _links: { self: { href: bronze._links.self.href } } });
    const self = created.body._links.self.href;
    expect(created.body._links.supportTier.href).toBe(`${self}/supportTier`);
    expect((await get(`${self}/supportTier`)).body.uid).toBe(bronze.uid);

    const patched = await call(app, 'PATCH', self, { token: admin(), body: { supportTier: silver.uid } });
    expect(patched.body._embedded.supportTier.uid).toBe(silver.uid);
    const blocked = await call(app, 'DELETE', silver._links.self.href, { token: admin() });
    expect([blocked.status, blocked.body.errors[0]]).toEqual([422, 'Support tier Silver is used by instance(s) Tiered; remove it from them first']);

    const cleared = await call(app, 'PATCH', self, { token: admin(), body: { supportTier: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body._embedded?.supportTier).toBeUndefined();
    expect((await get(`${self}/supportTier`)).status).toBe(404);
    const events = await auditOf(app, created.body.uid);
    expect(events.map((e: any) => e.details?.supportTier ?? null).slice(-1)).toEqual([{ old: silver.uid, new: null }]);

    const tier = await call(app, 'POST', '/support_tiers', { token: admin(), body: { name: 'Platinum', level: 4 } });
    expect((await call(app, 'PUT', `${self}/supportTier`, { token: admin(), body: tier.body._links.self.href, headers: { 'Content-Type': 'text/uri-list' } })).status).toBe(204);
    expect((await call(app, 'DELETE', `${self}/supportTier`, { token: admin() })).status).toBe(204);
    expect((await call(app, 'DELETE', tier.body._links.self.href, { token: admin() })).status).toBe(204);
  });

  it.each([
    ['an unknown uid', () => 'f'.repeat(32)],
    ["another tenant's tier", async () => (await list('support_tiers', other.admin.token))[0].uid],
    ['a confidentiality (the field decides the collection)', async () => (await list('confidentialities'))[0].uid],
  ])('refuses %s with 400 naming the field', async (_label, value) => {
    const ref = await value();
    const res = await call(app, 'POST', '/instances', { token: admin(), body: { name: 'Nope Tier', shortName: 'nopetier', supportTier: ref } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`supportTier: unknown supportTier ${ref}`]);
  });
});
