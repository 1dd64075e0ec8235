import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';

export type ServiceFactRow = Model & { name: string; value: string; updatedAt: Date };

/** A fact the hosts of one service share, by name (e.g. `issuerUrl`). Not tenant-scoped. */
export function defineServiceFact(sequelize: Sequelize): ModelStatic<ServiceFactRow> {
  return sequelize.define('ServiceFact', {
    name: { type: DataTypes.STRING(64), primaryKey: true },
    value: { type: DataTypes.STRING(2048), allowNull: false },
    updatedAt: { type: DataTypes.DATE(3), allowNull: false },
  }, { tableName: 'service_facts', timestamps: false }) as ModelStatic<ServiceFactRow>;
}

/**
 * Records `value` under `name` and answers what the hosts before recorded when it differed (null: the same, or
 * nothing recorded yet). The newest start's value is kept: a single host may move.
 */
export async function recordFact(model: ModelStatic<ServiceFactRow>, name: string, value: string): Promise<string | null> {
  const before = await model.findByPk(name);
  if (before?.value === value) return null;
  await model.upsert({ name, value, updatedAt: new Date() });
  return before ? before.value : null;
}
