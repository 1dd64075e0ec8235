import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText, keyOf } from './define';

export function defineStream(sequelize: Sequelize) {
  return defineModel(sequelize, 'Stream', 'streams', {
    name: { type: DataTypes.STRING(180), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    description: { type: DataTypes.STRING(2000), allowNull: true },
    keyType: { type: DataTypes.STRING(16), allowNull: false },
    valueType: { type: DataTypes.STRING(16), allowNull: false },
    keySchemaUid: { type: DataTypes.CHAR(32), allowNull: true },
    valueSchemaUid: { type: DataTypes.CHAR(32), allowNull: true },
    retentionPolicy: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'delete' },
    visibility: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'Public' },
    ownersUid: { type: DataTypes.CHAR(32), allowNull: false },
    confidentialityUid: { type: DataTypes.CHAR(32), allowNull: true },
    integrityUid: { type: DataTypes.CHAR(32), allowNull: true },
    properties: jsonText('properties', {}),
  });
}
