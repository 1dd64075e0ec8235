/**
 * Hosts that start together on an empty database migrate it once: each waits for the database's migration lock
 * (PostgreSQL advisory lock, MySQL/MariaDB GET_LOCK, a lock row on Galera), and the later ones find nothing pending.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryTypes, type Sequelize } from 'sequelize';
import { openDatabase } from '../../models/db';
import { migrations } from '../../migrations';
import { migrate } from '../../migrations/migrator';
import { createRunDatabase } from '../support/run-database';

let db: { url: string; drop: () => Promise<void> };
const hosts: Sequelize[] = [];

beforeAll(async () => {
  db = await createRunDatabase(inject('databaseUrl'));
  for (let i = 0; i < 3; i++) hosts.push(openDatabase(db.url));
});
afterAll(async () => {
  for (const h of hosts) await h.close();
  await db?.drop();
});

describe('the migration lock', () => {
  it('three hosts migrating one empty database at once: every migration applied once, by one of them', async () => {
    const applied = await Promise.all(hosts.map((h) => migrate(h)));
    expect(applied.flat().sort()).toEqual(migrations.map((m) => m.name).sort());
    expect(applied.filter((list) => list.length > 0)).toHaveLength(1);
    const rows = await hosts[0].query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT });
    expect(rows.map((r) => r.name).sort()).toEqual(migrations.map((m) => m.name).sort());
    expect(await Promise.all(hosts.map((h) => migrate(h)))).toEqual([[], [], []]);
  });
});
