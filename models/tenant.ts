import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText } from './define';

export const DEFAULT_AUTH_METHODS = [
  { rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' },
  { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' },
];
export const DEFAULT_TENANT_SETTINGS = {
  notificationsEnabled: 'false', schemaRolesEnforced: 'false', onlyResourceManagerCanUpdateAndDeploy: 'false',
};

export function defineTenant(sequelize: Sequelize) {
  return defineModel(sequelize, 'Tenant', 'tenants', {
    name: { type: DataTypes.STRING(100), allowNull: false },
    shortName: { type: DataTypes.STRING(30), allowNull: false },
    uniqueConsumerGroup: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    logo: { type: DataTypes.STRING, allowNull: true },
    dataClassificationEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    supportedAuthenticationMethods: jsonText('supportedAuthenticationMethods', DEFAULT_AUTH_METHODS),
    wizardCompleted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    customerId: { type: DataTypes.STRING, allowNull: true },
    properties: jsonText('properties', null, true),
    settings: jsonText('settings', DEFAULT_TENANT_SETTINGS),
  }, false);
}
