/**
 * Column helpers shared by migrations. Only portable types: CHAR/VARCHAR, TEXT (JSON is stored as text so it
 * round-trips identically on PostgreSQL, MySQL and MariaDB), BOOLEAN, INTEGER, BIGINT, DATE(3).
 */
import { DataTypes, type ModelAttributeColumnOptions, type QueryInterface } from 'sequelize';

export type Columns = Record<string, ModelAttributeColumnOptions>;

export const uid = (): ModelAttributeColumnOptions => ({ type: DataTypes.CHAR(32), allowNull: false });
export const str = (length = 255, allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.STRING(length), allowNull });
export const text = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.TEXT('long'), allowNull });
export const bool = (defaultValue = false): ModelAttributeColumnOptions => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue });
export const int = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.INTEGER, allowNull });
export const bigint = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.BIGINT, allowNull });
/** Millisecond precision everywhere: MySQL/MariaDB DATETIME would otherwise drop (or round) the fraction. */
export const timestamp = (allowNull = false): ModelAttributeColumnOptions => ({ type: DataTypes.DATE(3), allowNull });
export const ref = (table: string, allowNull = true, onDelete: 'RESTRICT' | 'CASCADE' | 'SET NULL' = 'RESTRICT'): ModelAttributeColumnOptions => ({
  type: DataTypes.CHAR(32), allowNull, references: { model: table, key: 'uid' }, onDelete, onUpdate: 'CASCADE',
});

/** Common fields of every stored resource (docs/contract.md §3) plus the optimistic-lock version behind ETag. */
export function common(tenantScoped = true): Columns {
  return {
    uid: { ...uid(), primaryKey: true },
    ...(tenantScoped ? { tenant_uid: ref('tenants', false, 'CASCADE') } : {}),
    created_at: timestamp(),
    modified_at: timestamp(),
    created_by: str(),
    modified_by: str(),
    version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  };
}

/** utf8mb4 with binary collation: lowercased *_key columns then compare exactly, and sort like PostgreSQL's C locale. */
export const tableOptions = { charset: 'utf8mb4', collate: 'utf8mb4_bin' };

export async function createTable(qi: QueryInterface, name: string, columns: Columns): Promise<void> {
  await qi.createTable(name, onDialect(qi, columns), tableOptions);
}

/**
 * `text()` is LONGTEXT on MySQL and MariaDB. PostgreSQL has one TEXT, which Sequelize writes for TEXT('long') after
 * a console warning among the start's JSON lines; plain TEXT there is the same column, without the warning.
 */
function onDialect(qi: QueryInterface, columns: Columns): Columns {
  if (qi.sequelize.getDialect() !== 'postgres') return columns;
  return Object.fromEntries(Object.entries(columns).map(([name, column]) =>
    [name, (column.type as { key?: string }).key === 'TEXT' ? { ...column, type: DataTypes.TEXT } : column]));
}

/** A to-many association stored as (source, target, position); unlinking is a row delete. */
export async function createJoinTable(qi: QueryInterface, name: string, source: string, target: string): Promise<void> {
  await qi.createTable(name, {
    source_uid: { ...ref(source, false, 'CASCADE'), primaryKey: true },
    target_uid: { ...ref(target, false, 'CASCADE'), primaryKey: true },
    position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  }, tableOptions);
  await qi.addIndex(name, ['target_uid'], { name: `${name}_target_ix` });
}

export async function uniqueIndex(qi: QueryInterface, table: string, fields: string[]): Promise<void> {
  await qi.addIndex(table, fields, { unique: true, name: `${table}_${fields[fields.length - 1]}_uq` });
}
