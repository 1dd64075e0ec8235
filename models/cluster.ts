import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText, keyOf } from './define';

export function defineCluster(sequelize: Sequelize) {
  return defineModel(sequelize, 'Cluster', 'clusters', {
    name: { type: DataTypes.STRING, allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    description: { type: DataTypes.STRING, allowNull: true },
    location: { type: DataTypes.STRING, allowNull: true },
    bootstrapServers: jsonText('bootstrapServers', []),
    schemaRegistryUrls: jsonText('schemaRegistryUrls', []),
    providerType: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'APACHE_KAFKA' },
    apiUrl: { type: DataTypes.STRING, allowNull: true },
  });
}
