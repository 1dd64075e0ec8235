import { DataTypes, type Sequelize } from 'sequelize';
import { defineModel, jsonText, keyOf } from './define';

export const DEFAULT_ROLES = ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'];

export function defineUser(sequelize: Sequelize) {
  return defineModel(sequelize, 'User', 'users', {
    firstName: { type: DataTypes.STRING(100), allowNull: false },
    middleName: { type: DataTypes.STRING(100), allowNull: true },
    lastName: { type: DataTypes.STRING(100), allowNull: false },
    email: { type: DataTypes.STRING, allowNull: false },
    emailKey: keyOf('email', 'email_key'),
    phoneNumber: { type: DataTypes.STRING(16), allowNull: true },
    roles: jsonText('roles', DEFAULT_ROLES),
    settings: jsonText('settings', {}),
    passwordHash: { type: DataTypes.STRING, allowNull: true },
    serviceAccount: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    clientId: { type: DataTypes.STRING(64), allowNull: true },
    clientSecretHash: { type: DataTypes.STRING, allowNull: true },
    federatedIssuer: { type: DataTypes.STRING, allowNull: true },
    federatedSubject: { type: DataTypes.STRING, allowNull: true },
    externalSubject: { type: DataTypes.STRING, allowNull: true },
  });
}

export function fullName(user: { firstName: string; middleName?: string | null; lastName: string }): string {
  return [user.firstName, user.middleName, user.lastName].filter((p) => p && p.trim() !== '').join(' ').replace(/\s+/g, ' ');
}
