/**
 * Issue 41: the migrations' long text column is LONGTEXT on MySQL and MariaDB and TEXT on PostgreSQL, the column
 * the landed migrations always made there, now without Sequelize's warning among a first start's JSON lines.
 */
import { Sequelize } from 'sequelize';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTable, text } from '../../migrations/columns';

afterEach(() => { vi.restoreAllMocks(); });

/** The CREATE TABLE the helper sends on `dialect`, captured instead of run (no server is reached). */
async function createTableSql(dialect: 'postgres' | 'mysql' | 'mariadb'): Promise<string> {
  const sequelize = new Sequelize({ dialect, logging: false });
  const sent: string[] = [];
  vi.spyOn(sequelize, 'query').mockImplementation(async (sql) => { sent.push(String(sql)); return [[], 0] as never; });
  await createTable(sequelize.getQueryInterface(), 'notes', { body: text(false), remark: text() });
  await sequelize.close();
  return sent.join('\n');
}

describe('text() of the migrations', () => {
  it('is plain TEXT on PostgreSQL, and Sequelize warns of nothing', async () => {
    const warn = vi.spyOn(console, 'warn');
    const sql = await createTableSql('postgres');
    expect(sql).toContain('"body" TEXT NOT NULL, "remark" TEXT');
    expect(warn).not.toHaveBeenCalled();
  });

  it.each(['mysql', 'mariadb'] as const)('is LONGTEXT on %s', async (dialect) => {
    expect(await createTableSql(dialect)).toContain('`body` LONGTEXT NOT NULL, `remark` LONGTEXT');
  });
});
