import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import { hashSecret } from '../core/passwords';
import { defineModel, jsonText, type Row } from './define';
import { DEFAULT_ROLES } from './user';
import type { Models } from '../core/context';

export const DEFAULT_AUTH_METHODS = [
  { rank: 1, protocol: 'SSL', mechanism: 'MUTUAL_TLS' },
  { rank: 2, protocol: 'SASL', mechanism: 'SCRAM_SHA_512' },
];
export const DEFAULT_TENANT_SETTINGS = {
  notificationsEnabled: 'false', schemaRolesEnforced: 'false', onlyResourceManagerCanUpdateAndDeploy: 'false',
};

/** Mechanisms each protocol allows in `supportedAuthenticationMethods` (docs/contract.md §5.1). */
export const MECHANISMS_BY_PROTOCOL: Record<string, string[]> = {
  SSL: ['MUTUAL_TLS'],
  SASL: ['SCRAM_SHA_256', 'SCRAM_SHA_512', 'OAUTH_BEARER'],
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

interface AuthMethod { rank: number; protocol: string; mechanism: string }

/** `<field>: <problem>` for every method whose mechanism does not fit its protocol, and for every repeated rank. */
export function authMethodProblems(methods: AuthMethod[], field = 'supportedAuthenticationMethods'): { field: string; message: string; rejectedValue: unknown }[] {
  const problems: { field: string; message: string; rejectedValue: unknown }[] = [];
  const ranks = new Set<number>();
  methods.forEach((m, i) => {
    const allowed = MECHANISMS_BY_PROTOCOL[m.protocol] ?? [];
    if (!allowed.includes(m.mechanism)) {
      problems.push({ field: `${field}[${i}].mechanism`, message: `must be one of ${allowed.join(', ')} for protocol ${m.protocol}`, rejectedValue: m.mechanism });
    }
    if (ranks.has(m.rank)) problems.push({ field: `${field}[${i}].rank`, message: 'must be unique', rejectedValue: m.rank });
    ranks.add(m.rank);
  });
  return problems;
}

/** The first TENANT_ADMIN of a new tenant (POST /tenants `admin`). */
export interface FirstAdmin { firstName: string; lastName: string; email: string; password: string }

/** Stores the first admin of a new tenant: TENANT_ADMIN plus the default author roles, password kept as scrypt hash. */
export async function createFirstAdmin(models: Models, tenant: Row, admin: FirstAdmin, actor: string, transaction: Transaction): Promise<Row> {
  return models.User.create({
    tenantUid: tenant.uid,
    firstName: admin.firstName,
    lastName: admin.lastName,
    email: admin.email,
    passwordHash: await hashSecret(admin.password),
    roles: ['TENANT_ADMIN', ...DEFAULT_ROLES],
    createdBy: actor,
    modifiedBy: actor,
  }, { transaction });
}
