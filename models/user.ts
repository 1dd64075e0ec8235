import { DataTypes, Op, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, keyOf, type Row, type RowModel } from './define';

export const DEFAULT_ROLES = ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'];

/** Every role name a user may hold (docs/contract.md §4.3). */
export const KNOWN_ROLES = [
  'SUPER_ADMIN', 'TENANT_ADMIN', 'ENVIRONMENT_ADMIN', 'STREAM_ADMIN', 'SCHEMA_ADMIN', 'APPLICATION_ADMIN',
  'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR', 'SCHEMA_AUTHOR', 'APPLICATION_AUTHOR',
];

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

/** docs/contract.md §1.2: a service account's address is derived from its client id and realm. */
export const serviceAccountEmail = (clientId: string, realm: string) => `service-account-${clientId}@${realm}.local`;

/**
 * Names of a service account created without any: the client id as first name and "Service Account" as last name,
 * so `fullName` reads e.g. `billing-exporter Service Account`.
 */
export const serviceAccountNames = (clientId: string) => ({ firstName: clientId, lastName: 'Service Account' });

/** Distinct role names in the given order, from `[{name}]` or `["NAME"]` input. */
export function roleNames(input: unknown): string[] {
  const list = Array.isArray(input) ? input : [];
  return [...new Set(list.map((r) => (typeof r === 'string' ? r : String((r as { name?: unknown })?.name ?? ''))))];
}

export const holdsRole = (user: Row, role: string) => ((user.roles as string[] | null) ?? []).includes(role);

/**
 * Users of the tenant other than `exceptUid` holding `role`, locked for the rest of the transaction so that two
 * concurrent demotions cannot both see the other admin and leave the tenant without any.
 */
export async function otherHoldersOf(User: RowModel, tenantUid: string, role: string, exceptUid: string, transaction?: Transaction): Promise<number> {
  const rows = await User.findAll({
    attributes: ['uid', 'roles'],
    where: { tenantUid, uid: { [Op.ne]: exceptUid }, roles: { [Op.like]: `%"${role}"%` } },
    lock: transaction ? transaction.LOCK.UPDATE : undefined,
    transaction,
  });
  return rows.filter((r) => holdsRole(r, role)).length;
}

/** Service accounts of the tenant (other than `exceptUid`) bound to this federated identity. */
export async function federatedHolders(User: RowModel, tenantUid: string, issuer: string, subject: string, exceptUid: string | undefined, transaction?: Transaction): Promise<number> {
  return User.count({
    where: { tenantUid, serviceAccount: true, federatedIssuer: issuer, federatedSubject: subject, ...(exceptUid ? { uid: { [Op.ne]: exceptUid } } : {}) },
    transaction,
  });
}
