import { DataTypes, Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';
import { newUid } from './define';
import { auditWritten } from '../core/observe';
import type { RowWrites } from './data-access';

export type AuditEventRow = Model & {
  uid: string; seq: string; tenantUid: string | null; timestamp: Date; action: string; actor: string; actorName: string | null;
  tenant: string | null; resourceType: string; resourceName: string | null; resourceId: string | null; details: unknown;
  actorKey: string | null; resourceNameKey: string | null;
};

export interface AuditEntry {
  action: string;
  resourceType: string;
  resourceName?: string | null;
  resourceId?: string | null;
  details?: Record<string, unknown> | null;
}

/** Up to this many visible rows of a kind are listed by value in a history query, more stay a subquery (handlers/audit-history.ts). */
export const AUDIT_VISIBLE_AS_VALUES = 500;

export interface AuditActor { tenantUid: string | null; tenant: string | null; actor: string; actorName: string | null }

/**
 * Field names whose values never reach the audit history. `credentials` (a provider's) is secret; `credential`,
 * the uid of an application credential, is not.
 */
const SECRET_KEYS = /password|secret|private_?key|privatekey|token|credentials/i;

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '***' : redact(v)]));
  }
  return value;
}

/** An entry's details as stored: redacted JSON text. */
const detailsText = (v: unknown): string | null => (v == null ? null : JSON.stringify(redact(v)));

export function defineAuditEvent(sequelize: Sequelize): ModelStatic<AuditEventRow> {
  return sequelize.define('AuditEvent', {
    uid: { type: DataTypes.CHAR(32), primaryKey: true, defaultValue: newUid },
    // Written by the database: orders entries that share a timestamp (one transaction) as they were written.
    seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
    tenantUid: { type: DataTypes.CHAR(32), allowNull: true },
    timestamp: { type: DataTypes.DATE(3), allowNull: false },
    action: { type: DataTypes.STRING(64), allowNull: false },
    actor: { type: DataTypes.STRING, allowNull: false },
    actorName: { type: DataTypes.STRING, allowNull: true },
    tenant: { type: DataTypes.STRING(30), allowNull: true },
    resourceType: { type: DataTypes.STRING(32), allowNull: false },
    resourceName: { type: DataTypes.STRING, allowNull: true },
    resourceId: { type: DataTypes.STRING(32), allowNull: true },
    // Lowercase twins: filters match any case on every database (see migration 0013).
    actorKey: { type: DataTypes.STRING, allowNull: true },
    resourceNameKey: { type: DataTypes.STRING, allowNull: true },
    details: {
      type: DataTypes.TEXT('long'), allowNull: true,
      get(this: Model) { const raw = this.getDataValue('details' as never) as unknown as string | null; return raw ? JSON.parse(raw) : null; },
      set(this: Model, v: unknown) { this.setDataValue('details' as never, detailsText(v) as never); },
    },
  }, { tableName: 'audit_events', timestamps: false }) as ModelStatic<AuditEventRow>;
}

/** The audit model and the data access that writes its rows. */
export interface AuditModels { AuditEvent: ModelStatic<AuditEventRow>; data: Pick<RowWrites, 'insertStored'> }

/**
 * The one write path of the audit history: always inside the mutation's own transaction. The entries count as
 * written (core/observe) once it commits; a rolled-back one (a dry run, a refusal) wrote none.
 */
export async function writeAudit(models: AuditModels, actor: AuditActor, entries: AuditEntry[], transaction: Transaction): Promise<void> {
  if (entries.length === 0) return;
  const timestamp = new Date();
  await models.data.insertStored(models.AuditEvent, entries.map((e) => ({
    uid: newUid(), tenantUid: actor.tenantUid, timestamp, action: e.action, actor: actor.actor, actorName: actor.actorName,
    tenant: actor.tenant, resourceType: e.resourceType, resourceName: e.resourceName ?? null, resourceId: e.resourceId ?? null,
    actorKey: actor.actor.toLowerCase(), resourceNameKey: e.resourceName?.toLowerCase() ?? null, details: detailsText(e.details),
  })), transaction);
  // A savepoint "commits" before its transaction decides: count on the outermost one.
  let outermost = transaction as Transaction & { parent?: Transaction };
  while (outermost.parent) outermost = outermost.parent;
  const count = entries.length;
  outermost.afterCommit(() => auditWritten(count));
}
