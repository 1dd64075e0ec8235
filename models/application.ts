import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, keyOf } from './define';

export function defineApplication(sequelize: Sequelize) {
  return defineModel(sequelize, 'Application', 'applications', {
    applicationId: { type: DataTypes.STRING(255), allowNull: false },
    applicationIdKey: keyOf('applicationId', 'application_id_key'),
    name: { type: DataTypes.STRING(100), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    shortName: { type: DataTypes.STRING(60), allowNull: false },
    shortNameKey: keyOf('shortName', 'short_name_key'),
    description: { type: DataTypes.STRING(200), allowNull: true },
    applicationType: { type: DataTypes.STRING(16), allowNull: false },
    type: { type: DataTypes.STRING(32), allowNull: true },
    applicationClass: { type: DataTypes.STRING(255), allowNull: true },
    applicationClassVersion: { type: DataTypes.STRING(255), allowNull: true },
    visibility: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'Public' },
    ownersUid: { type: DataTypes.CHAR(32), allowNull: false },
  });
}
