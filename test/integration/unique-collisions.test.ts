/**
 * A unique value written by two requests at once: the application's check sees nothing, the unique index stops the
 * second insert. That 409 names the field and the value exactly as the check does (`name: 'X' already exists`),
 * on every database: PostgreSQL reports the index's columns, MySQL and MariaDB only the index's name. A pair (a
 * stream's config in an environment) or a promotion that loses a race answers as its check does, naming the field
 * in the user's words, never the index's column.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes, type Transaction } from 'sequelize';
import { dialectOf } from '../../models/db';
import { collidingColumns } from '../../models/db-errors';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call, created, expectStatus, type CallResult } from '../support/http';
import { waitFor } from '../support/service-process';

const postgres = dialectOf(inject('databaseUrl')) === 'postgres';
let app: TestApp;
let t: TestTenant;

beforeAll(async () => { ({ app, t } = await startWithTenant('uq')); });
afterAll(async () => app?.stop());

interface UniqueIndex { table: string; name: string; columns: string[] }

async function uniqueIndexes(): Promise<UniqueIndex[]> {
  const sql = postgres
    ? `SELECT t.relname AS "table", i.relname AS name, a.attname AS "column", array_position(x.indkey, a.attnum) AS pos
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(x.indkey)
        WHERE x.indisunique AND NOT x.indisprimary AND n.nspname = current_schema() ORDER BY 1, 2, 4`
    : `SELECT TABLE_NAME AS \`table\`, INDEX_NAME AS name, COLUMN_NAME AS \`column\`, SEQ_IN_INDEX AS pos
         FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY' ORDER BY 1, 2, 4`;
  const rows = await app.models.sequelize.query<{ table: string; name: string; column: string }>(sql, { type: QueryTypes.SELECT });
  const byName = new Map<string, UniqueIndex>();
  for (const r of rows) {
    const key = `${r.table}.${r.name}`;
    if (!byName.has(key)) byName.set(key, { table: r.table, name: r.name, columns: [] });
    byName.get(key)!.columns.push(r.column);
  }
  return [...byName.values()];
}

describe('unique collisions met by the index', () => {
  it('every unique index of the schema reads back to a column it indexes, from its name as MySQL and MariaDB report it', async () => {
    const all = (await uniqueIndexes()).filter((i) => i.table !== 'schema_migrations');
    // The one index the migrations do not name: the audit sequence, a value no client sends.
    expect(all.filter((i) => !i.name.endsWith('_uq')).map((i) => i.columns)).toEqual([['seq']]);
    const indexes = all.filter((i) => i.name.endsWith('_uq'));
    expect(indexes.length).toBeGreaterThan(20);
    const unread = indexes.filter((i) => {
      const fromName = collidingColumns({ fields: { [i.name]: 'x' } });
      const fromColumns = collidingColumns({ fields: Object.fromEntries(i.columns.map((c) => [c, 'x'])) });
      return !(fromName.length === 1 && i.columns.includes(fromName[0]) && fromColumns.includes(fromName[0]));
    });
    expect(unread).toEqual([]);
  });

  it("a create that loses to a concurrent one at the index answers 409 naming the field and value, as the check does", async () => {
    const sequelize = app.models.sequelize;
    const before = await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Checked Team' } });
    expect(before.status).toBe(201);
    const byCheck = await call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'Checked Team' } });
    expectError(byCheck, 409, { errors: ["name: 'Checked Team' already exists"] });

    // Another writer holds an uncommitted row of the same name: the request's check cannot see it, its insert waits.
    const other: Transaction = await sequelize.transaction();
    await app.models.Group.create({ tenantUid: t.tenant.uid, name: 'Racing Team', createdBy: 'test', modifiedBy: 'test' }, { transaction: other });
    const racing = call(app, 'POST', '/groups', { token: t.admin.token, body: { name: 'racing team' } });
    try {
      await waitFor('the request waiting on the unique index', async () => (await insertsWaiting()) > 0, 20);
    } finally {
      await other.commit();
    }
    expectError(await racing, 409, { errors: ["name: 'racing team' already exists"] });
    const rows = await app.models.Group.count({ where: { tenantUid: t.tenant.uid, nameKey: 'racing team' } });
    expect(rows).toBe(1);
  });
});

/** What names a value in the index's terms, never in the user's: columns (`environment_uid`, `name_key`) and their attributes (`streamUid`). */
const COLUMN_WORDS = /\b\w+_(uid|key)\b|\b[a-z]+(Uid|Key)\b|\b(access_type|federated_subject|client_id)\b/;
const RACERS = 8;

/**
 * `RACERS` identical requests at once: one of them `wins` (its status; a promotion's others may also find the
 * winner's config and answer 200), and every one that loses answers a 409 that names one of `fields` in words the
 * user sent, never a column.
 */
async function race(send: () => Promise<CallResult>, fields: string[], wins = 201, alsoFine: number[] = []): Promise<CallResult[]> {
  const replies = await Promise.all(Array.from({ length: RACERS }, send));
  const statuses = replies.map((r) => r.status);
  expect(statuses.filter((x) => x === wins), statuses.join()).toHaveLength(1);
  expect(statuses.every((x) => x === wins || x === 409 || alsoFine.includes(x)), statuses.join()).toBe(true);
  for (const lost of replies.filter((r) => r.status === 409)) {
    const body = expectError(lost, 409);
    const named = fields.filter((f) => body.errors[0].startsWith(`${f}: `));
    expect(named, body.errors[0]).toHaveLength(1);
    expect(JSON.stringify(body), 'a column name').not.toMatch(COLUMN_WORDS);
  }
  return replies;
}

describe('racing creates: every loser hears a user\'s error naming the field', () => {
  const tok = () => t.admin.token;
  const post = (path: string, body: unknown) => call(app, 'POST', path, { token: tok(), body });
  let owners: any;
  let instance: any;
  let dev: any;
  let prod: any;

  beforeAll(async () => {
    owners = await created(app, '/groups', { name: 'Race Owners' }, tok());
    instance = await created(app, '/instances', { name: 'Race Instance', shortName: 'raceinst' }, tok());
    dev = await created(app, '/environments', { name: 'race-dev', shortName: 'racedev', instance: instance.uid, owners: owners.uid }, tok());
    prod = await created(app, '/environments', { name: 'race-prod', shortName: 'raceprod', instance: instance.uid, owners: owners.uid }, tok());
  });

  const stream = (name: string) => created(app, '/streams', { name, keyType: 'String', valueType: 'String', owners: owners.uid }, tok());

  it.each([
    ['groups', '/groups', () => ({ name: 'Race Team' }), ['name']],
    ['clusters', '/clusters', () => ({ name: 'Race Cluster', bootstrapServers: ['race:9092'] }), ['name']],
    ['instances', '/instances', () => ({ name: 'Race Other Instance', shortName: 'raceother' }), ['name', 'shortName']],
    ['environments', '/environments', () => ({ name: 'race-acc', shortName: 'raceacc', instance: instance.uid, owners: owners.uid }), ['name', 'shortName']],
    ['streams', '/streams', () => ({ name: 'race-orders', keyType: 'String', valueType: 'String', owners: owners.uid }), ['name']],
    ['applications', '/applications', () => ({
      applicationId: 'io.race.billing', name: 'Race Billing', shortName: 'race_billing', applicationType: 'Custom', type: 'Java', owners: owners.uid,
    }), ['applicationId', 'name', 'shortName']],
    ['users', '/users', () => ({ firstName: 'Race', lastName: 'User', emailAddress: { email: 'race@uq.test' }, password: 'race-password-1' }), ['emailAddress']],
  ] as const)('POST /%s: one 201, the others 409 naming the unique field', async (_what, path, body, fields) => {
    await race(() => post(path, body()), [...fields]);
  });

  it('POST /stream_configs of one stream and environment: one 201, the others 409 naming environment', async () => {
    const s = await stream('race-configured');
    const [winner] = (await race(() => post('/stream_configs', { stream: s.uid, environment: dev.uid }), ['environment'])).filter((r) => r.status === 201);
    expect(winner.body.topicName).toContain('race-configured');
    expect(await app.models.StreamConfig.count({ where: { streamUid: s.uid } })).toBe(1);
  });

  it('promotions of one config to one new environment: one 201, the others 409 naming environment or 200 finding it', async () => {
    const s = await stream('race-promoted');
    const source = await created(app, '/stream_configs', { stream: s.uid, environment: dev.uid }, tok());
    const replies = await race(() => post(`/stream_configs/${source.uid}/promote`, { environment: prod.uid }), ['environment'], 201, [200]);
    for (const lost of replies.filter((r) => r.status === 409)) expect(lost.body.errors[0]).toContain(`stream ${s.name}`);
    expect(await app.models.StreamConfig.count({ where: { streamUid: s.uid, environmentUid: prod.uid } })).toBe(1);
  });

  it('POST /application_access of one application, stream and type: one 201, the others 409 naming accessType', async () => {
    const s = await stream('race-accessed');
    const application = await created(app, '/applications', {
      applicationId: 'io.race.reader', name: 'Race Reader', shortName: 'race_reader', applicationType: 'Custom', type: 'Java', owners: owners.uid,
    }, tok());
    await race(() => post('/application_access', { application: application.uid, stream: s.uid, accessType: 'CONSUMER' }), ['accessType']);
  });

  it('uploads of one version of one schema: one 201, the others 409 naming version', async () => {
    const schema = (version: string) => ({
      schema: JSON.stringify({ type: 'record', name: 'Race', namespace: 'io.race', fields: [{ name: 'id', type: 'long' }] }), version,
    });
    expectStatus(await post('/schemas/upload', schema('1')), 201);
    await race(() => post('/schemas/upload', schema('2')), ['version']);
  });
});

/**
 * Inserts into `groups` waiting for a lock: the request's insert blocked by the other writer's row (MySQL and
 * MariaDB show the statement in the process list while it waits; only the request inserts into that table now).
 */
async function insertsWaiting(): Promise<number> {
  const sql = postgres
    ? `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "groups"%'`
    : `SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO \`groups\`%'`;
  const [row] = await app.models.sequelize.query<{ n: number | string }>(sql, { type: QueryTypes.SELECT });
  return Number(row.n);
}
