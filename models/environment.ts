import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText, keyOf } from './define';

export function defineEnvironment(sequelize: Sequelize) {
  return defineModel(sequelize, 'Environment', 'environments', {
    name: { type: DataTypes.STRING(50), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    shortName: { type: DataTypes.STRING(20), allowNull: false },
    shortNameKey: keyOf('shortName', 'short_name_key'),
    description: { type: DataTypes.STRING(200), allowNull: true },
    color: { type: DataTypes.STRING(9), allowNull: false, defaultValue: '#80affe' },
    retentionTime: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 604800000, get(this: any) { return Number(this.getDataValue('retentionTime')); } },
    partitions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 2 },
    authorizationIssuer: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'Stream owner' },
    visibility: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'Public' },
    instanceUid: { type: DataTypes.CHAR(32), allowNull: false },
    ownersUid: { type: DataTypes.CHAR(32), allowNull: false },
    properties: jsonText('properties', {}),
    settings: jsonText('settings', {}),
    maxAccessDuration: { type: DataTypes.STRING(40), allowNull: true },
    defaultAccessDuration: { type: DataTypes.STRING(40), allowNull: true },
  });
}
