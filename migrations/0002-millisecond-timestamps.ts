/**
 * Timestamps with millisecond precision on every database, and a total order for the audit history.
 *
 * 0001 created DATE columns, which MySQL and MariaDB store as DATETIME with whole seconds (MariaDB truncates the
 * fraction, MySQL 8 rounds it — so a row could carry a time up to half a second in the future). DATETIME(3) keeps
 * what the application wrote, like PostgreSQL's TIMESTAMP WITH TIME ZONE. Entries written in one transaction share
 * a timestamp; `seq` (auto-increment, written by the database) orders them as they were written.
 */
import { DataTypes, type QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

const TIMESTAMPS: Array<[table: string, column: string, nullable: boolean]> = [
  ...['tenants', 'users', 'groups', 'clusters', 'instances', 'environments'].flatMap((t) => [
    [t, 'created_at', false] as [string, string, boolean],
    [t, 'modified_at', false] as [string, string, boolean],
  ]),
  ['signing_keys', 'created_at', false],
  ['signing_keys', 'retired_at', true],
  ['audit_events', 'timestamp', false],
];

export async function up({ context: qi }: Ctx): Promise<void> {
  for (const [table, column, allowNull] of TIMESTAMPS) {
    await qi.changeColumn(table, column, { type: DataTypes.DATE(3), allowNull });
  }
  await qi.addColumn('audit_events', 'seq', { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false, unique: true });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeColumn('audit_events', 'seq');
  for (const [table, column, allowNull] of TIMESTAMPS) {
    await qi.changeColumn(table, column, { type: DataTypes.DATE, allowNull });
  }
}
