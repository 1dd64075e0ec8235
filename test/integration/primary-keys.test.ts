/**
 * Every table of the schema has a primary key: MariaDB Galera replicates rows by their key (a table without one
 * is refused or replicated unreliably), and a key is what row-based replication of any kind relies on. Runs on
 * every database of the suite (PostgreSQL, MariaDB, Galera).
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Sequelize } from 'sequelize';
import { dialectOf, openDatabase } from '../../models/db';

let sequelize: Sequelize;
beforeAll(() => { sequelize = openDatabase(inject('databaseUrl')); });
afterAll(async () => sequelize?.close());

const postgres = () => dialectOf(inject('databaseUrl')) === 'postgres';

async function names(sql: string): Promise<string[]> {
  const [rows] = await sequelize.query(sql) as [{ name: string }[], unknown];
  return rows.map((r) => r.name).sort();
}

const TABLES_WITHOUT_KEY = {
  postgres: `
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p')`,
  mysql: `
    SELECT t.table_name AS name FROM information_schema.tables t
    WHERE t.table_schema = DATABASE() AND t.table_type = 'BASE TABLE'
      AND NOT EXISTS (
        SELECT 1 FROM information_schema.table_constraints k
        WHERE k.table_schema = t.table_schema AND k.table_name = t.table_name AND k.constraint_type = 'PRIMARY KEY')`,
};

describe('the schema', () => {
  it('has tables (the run\'s migrations ran)', async () => {
    const tables = await names(postgres()
      ? "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'");
    expect(tables).toEqual(expect.arrayContaining(['tenants', 'users', 'audit_events', 'schema_migrations']));
  });

  it('gives every table a primary key', async () => {
    expect(await names(postgres() ? TABLES_WITHOUT_KEY.postgres : TABLES_WITHOUT_KEY.mysql)).toEqual([]);
  });

  it.skipIf(postgres())('keeps every MySQL-family table in InnoDB (the only engine Galera replicates)', async () => {
    expect(await names(`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' AND engine <> 'InnoDB'`)).toEqual([]);
  });
});
