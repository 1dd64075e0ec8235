/** A tenant's BUSINESS and TECHNICAL contact persons (docs/contract.md §5.1), one row per type. */
import { DataTypes, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, type Row } from './define';
import type { Models } from '../core/context';

export const CONTACT_TYPES = ['BUSINESS', 'TECHNICAL'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
export const DEFAULT_CONTACT_TYPE: ContactType = 'BUSINESS';

export function defineTenantContact(sequelize: Sequelize) {
  return defineModel(sequelize, 'TenantContact', 'tenant_contacts', {
    type: { type: DataTypes.STRING(16), allowNull: false },
    name: { type: DataTypes.STRING, allowNull: false },
    email: { type: DataTypes.STRING, allowNull: true },
    phoneNumber: { type: DataTypes.STRING(16), allowNull: true },
  });
}

/** `business`, `Technical`, ` TECHNICAL ` … → the canonical type; undefined when it names none. */
export function contactTypeOf(raw: string): ContactType | undefined {
  const squashed = raw.replace(/[\s_-]+/g, '').toUpperCase();
  return CONTACT_TYPES.find((t) => t === squashed);
}

export interface ContactValues { name: string; email: string | null; phoneNumber: string | null }

export function findContact(models: Models, tenantUid: string, type: ContactType, transaction?: Transaction): Promise<Row | null> {
  return models.TenantContact.findOne({ where: { tenantUid, type }, transaction });
}

/** Creates or replaces the contact of that type; answers the stored row and whether it is new. */
export async function storeContact(models: Models, tenantUid: string, type: ContactType, values: ContactValues, actor: string,
  transaction: Transaction): Promise<{ row: Row; created: boolean }> {
  const existing = await findContact(models, tenantUid, type, transaction);
  if (existing) {
    existing.set({ ...values, modifiedBy: actor });
    return { row: await existing.save({ transaction }), created: false };
  }
  const row = await models.TenantContact.create({ tenantUid, type, ...values, createdBy: actor, modifiedBy: actor }, { transaction });
  return { row, created: true };
}
