/**
 * A unique value written by two requests at once: the application's check sees nothing, the unique index stops the
 * second insert. That 409 names the field and the value exactly as the check does (`name: 'X' already exists`),
 * on every database: PostgreSQL reports the index's columns, MySQL and MariaDB only the index's name.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes, type Transaction } from 'sequelize';
import { dialectOf } from '../../models/db';
import { collidingColumns } from '../../models/db-errors';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call } from '../support/http';
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
