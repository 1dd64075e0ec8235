import { DataTypes, Model, type ModelAttributes, type Sequelize } from 'sequelize';
import { randomUUID } from 'node:crypto';

import type { RowModel } from '../core/row';

export type { Row, RowModel } from '../core/row';

export const newUid = (): string => randomUUID().replace(/-/g, '');

/** JSON kept in a TEXT column: decoded on read, encoded on write; identical on all three databases. */
export function jsonText(attribute: string, fallback: unknown, allowNull = false) {
  const column = attribute;
  return {
    type: DataTypes.TEXT('long'),
    allowNull,
    ...(allowNull ? {} : { defaultValue: JSON.stringify(fallback) }),
    get(this: Model) {
      const raw = this.getDataValue(column as never) as unknown as string | null;
      if (raw === null || raw === undefined) return allowNull ? null : structuredClone(fallback);
      return JSON.parse(raw);
    },
    set(this: Model, value: unknown) {
      const stored = value === null || value === undefined ? (allowNull ? null : JSON.stringify(fallback)) : JSON.stringify(value);
      this.setDataValue(column as never, stored as never);
    },
  };
}

/**
 * A lowercase twin of a unique field, so per-tenant uniqueness ignores case on every database
 * (PostgreSQL compares case-sensitively; the *_key column makes the unique index case-blind).
 */
export function keyOf(source: string, column: string) {
  return { type: DataTypes.STRING, allowNull: false, field: column, _keyOf: source } as const;
}

/** Each model's lowercase twins: [twin, source] attribute pairs. */
const twins = new WeakMap<object, (readonly [string, string])[]>();

/**
 * Sets each lowercase twin of `values` (a row's data values) from its source, as the model's beforeValidate hook
 * does before Sequelize's save: for a write that stores the values without save (models/row-writes-pg).
 */
export function fillKeys(model: object, values: Record<string, unknown>): void {
  for (const [attr, source] of twins.get(model) ?? []) {
    const value = values[source];
    if (typeof value === 'string') values[attr] = value.toLowerCase();
  }
}

/**
 * Sets each lowercase twin of a row from its source through `set`, so that save, which writes only what changed
 * before its hooks run, writes the twin of a renamed row too (the beforeValidate hook alone would change it too late).
 */
export function syncKeys(row: Model): void {
  for (const [attr, source] of twins.get(row.constructor) ?? []) {
    const value = row.getDataValue(source as never) as unknown;
    if (typeof value === 'string') row.set(attr as never, value.toLowerCase() as never);
  }
}

/** Defines a tenant-scoped model with the common fields, optimistic locking and lowercase unique keys kept in sync. */
export function defineModel(sequelize: Sequelize, name: string, table: string, attributes: ModelAttributes, tenantScoped = true): RowModel {
  const keys = Object.entries(attributes)
    .filter(([, a]) => typeof a === 'object' && a !== null && '_keyOf' in (a as object))
    .map(([attr, a]) => [attr, (a as unknown as { _keyOf: string })._keyOf] as const);
  const model = sequelize.define(name, {
    uid: { type: DataTypes.CHAR(32), primaryKey: true, defaultValue: newUid },
    ...(tenantScoped ? { tenantUid: { type: DataTypes.CHAR(32), allowNull: false, field: 'tenant_uid' } } : {}),
    createdBy: { type: DataTypes.STRING, field: 'created_by' },
    modifiedBy: { type: DataTypes.STRING, field: 'modified_by' },
    // DATE(3): without a length Sequelize's mysql dialect writes whole seconds (MySQL 8 would even round up).
    createdAt: { type: DataTypes.DATE(3), allowNull: false, field: 'created_at' },
    modifiedAt: { type: DataTypes.DATE(3), allowNull: false, field: 'modified_at' },
    ...attributes,
  }, {
    tableName: table,
    timestamps: true,
    createdAt: 'createdAt',
    updatedAt: 'modifiedAt',
    version: true,
    hooks: keys.length === 0 ? {} : {
      beforeValidate(row: Model) {
        for (const [attr, source] of keys) {
          const value = row.getDataValue(source as never) as unknown;
          if (typeof value === 'string') row.setDataValue(attr as never, value.toLowerCase() as never);
        }
      },
    },
  }) as unknown as RowModel;
  twins.set(model, keys);
  // Sequelize maps createdAt/modifiedAt to snake_case columns through `underscored`.
  return model;
}
