import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText, keyOf } from './define';

export const DEFAULT_TOPIC_NAME_PATTERN = '{tenant}-{instance}-{environment}-{stream}';

export function defineInstance(sequelize: Sequelize) {
  return defineModel(sequelize, 'Instance', 'instances', {
    name: { type: DataTypes.STRING(50), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    shortName: { type: DataTypes.STRING(20), allowNull: false },
    shortNameKey: keyOf('shortName', 'short_name_key'),
    description: { type: DataTypes.STRING(200), allowNull: true },
    topicNamePattern: { type: DataTypes.STRING, allowNull: false, defaultValue: DEFAULT_TOPIC_NAME_PATTERN },
    enabledAuthenticationMethods: jsonText('enabledAuthenticationMethods', []),
    granularBrowsePermission: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    connectEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    supportTierUid: { type: DataTypes.CHAR(32), allowNull: true },
  });
}
