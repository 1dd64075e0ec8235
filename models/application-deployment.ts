import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, type RowModel } from './define';

export function defineApplicationDeployment(sequelize: Sequelize) {
  return defineModel(sequelize, 'ApplicationDeployment', 'application_deployments', {
    applicationUid: { type: DataTypes.CHAR(32), allowNull: false },
    environmentUid: { type: DataTypes.CHAR(32), allowNull: false },
    configs: jsonText('configs', {}),
    state: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'Stopped' },
    startedAt: { type: DataTypes.DATE(3), allowNull: true },
    restarts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    lastRestart: { type: DataTypes.DATE(3), allowNull: true },
  });
}

/** How many deployments an application has, or an environment holds (delete blockers). */
export function deploymentCount(deployments: RowModel, where: { applicationUid: string } | { environmentUid: string } | { applicationUid: string; environmentUid: string }, transaction?: Transaction): Promise<number> {
  return deployments.count({ where, transaction });
}
