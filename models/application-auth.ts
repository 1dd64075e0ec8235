/** An application's principals and credentials per environment (docs/contract.md §5.11, §5.12): how it authenticates there. */
import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, type RowModel } from './define';

export function defineApplicationPrincipal(sequelize: Sequelize) {
  return defineModel(sequelize, 'ApplicationPrincipal', 'application_principals', {
    applicationUid: { type: DataTypes.CHAR(32), allowNull: false },
    environmentUid: { type: DataTypes.CHAR(32), allowNull: false },
    principal: { type: DataTypes.STRING(1024), allowNull: false },
    identity: { type: DataTypes.STRING(300), allowNull: false },
    type: { type: DataTypes.STRING(16), allowNull: false },
    custom: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    applicationPem: { type: DataTypes.TEXT('long'), allowNull: true },
    privateKey: { type: DataTypes.TEXT('long'), allowNull: true },
    expiresOn: { type: DataTypes.DATE(3), allowNull: true },
    fingerprint: { type: DataTypes.STRING(64), allowNull: true },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  });
}

export function defineApplicationCredential(sequelize: Sequelize) {
  return defineModel(sequelize, 'ApplicationCredential', 'application_credentials', {
    applicationUid: { type: DataTypes.CHAR(32), allowNull: false },
    environmentUid: { type: DataTypes.CHAR(32), allowNull: false },
    target: { type: DataTypes.STRING(32), allowNull: false },
    username: { type: DataTypes.STRING(128), allowNull: false },
    types: jsonText('types', []),
    description: { type: DataTypes.STRING(255), allowNull: true },
    secret: { type: DataTypes.TEXT('long'), allowNull: false },
    clusters: { type: DataTypes.STRING(2000), allowNull: true },
  });
}

type AuthModels = { ApplicationPrincipal: RowModel; ApplicationCredential: RowModel };

/** Whether the application has a principal or a credential in the environment (an access request needs one, §6.1). */
export async function authenticatesIn(models: AuthModels, applicationUid: string, environmentUid: string, transaction?: Transaction): Promise<boolean> {
  const where = { applicationUid, environmentUid };
  // Sequential: inside a transaction both would share one connection.
  if (await models.ApplicationPrincipal.findOne({ where, attributes: ['uid'], transaction })) return true;
  return !!(await models.ApplicationCredential.findOne({ where, attributes: ['uid'], transaction }));
}

/** How many principals and credentials hang off an application or sit in an environment (delete blockers). */
export async function authenticationCount(models: AuthModels, where: { applicationUid: string } | { environmentUid: string }, transaction?: Transaction) {
  const principals = await models.ApplicationPrincipal.count({ where, transaction });
  const credentials = await models.ApplicationCredential.count({ where, transaction });
  return { principal: principals, credential: credentials };
}
