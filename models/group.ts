import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, keyOf } from './define';

export function defineGroup(sequelize: Sequelize) {
  return defineModel(sequelize, 'Group', 'groups', {
    name: { type: DataTypes.STRING(80), allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    email: { type: DataTypes.STRING, allowNull: true },
    phoneNumber: { type: DataTypes.STRING(16), allowNull: true },
  });
}
