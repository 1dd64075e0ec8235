import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';

export type JoinRow = Model & { sourceUid: string; targetUid: string; position: number };
export type JoinModel = ModelStatic<JoinRow>;

/** A to-many association table (see migrations/columns createJoinTable). */
export function defineJoin(sequelize: Sequelize, name: string, table: string): JoinModel {
  return sequelize.define(name, {
    sourceUid: { type: DataTypes.CHAR(32), primaryKey: true },
    targetUid: { type: DataTypes.CHAR(32), primaryKey: true },
    position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  }, { tableName: table, timestamps: false }) as JoinModel;
}
