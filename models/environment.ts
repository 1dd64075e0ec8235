import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, keyOf, type RowModel } from './define';

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
    successorUid: { type: DataTypes.CHAR(32), allowNull: true },
    properties: jsonText('properties', {}),
    settings: jsonText('settings', {}),
    maxAccessDuration: { type: DataTypes.STRING(40), allowNull: true },
    defaultAccessDuration: { type: DataTypes.STRING(40), allowNull: true },
  });
}

/** Every environment of a tenant with its successor and short name: the chains the successor rule walks. */
export async function environmentChains(models: { Environment: RowModel }, tenantUid: string, transaction?: Transaction) {
  const rows = await models.Environment.findAll({ where: { tenantUid }, attributes: ['uid', 'shortName', 'successorUid'], transaction });
  return new Map(rows.map((r) => [r.uid as string, { shortName: r.shortName as string, successorUid: (r.successorUid as string | null) ?? null }]));
}
