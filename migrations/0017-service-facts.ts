/**
 * Facts every host of one service must agree on, recorded by the hosts that started before (the issuer URL): a host
 * that starts with another value says so (scripts/start-checks). Not tenant-scoped.
 */
import { DataTypes, type QueryInterface } from 'sequelize';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.createTable('service_facts', {
    name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
    value: { type: DataTypes.STRING(2048), allowNull: false },
    updated_at: { type: DataTypes.DATE(3), allowNull: false },
  });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('service_facts');
}
