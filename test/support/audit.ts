/** The one audit reader of the tests: the rows the service wrote, read straight from the database. */
import type { AuditEventRow } from '../../models/audit-event';
import type { TestApp } from './app';

/** A row as the tests read it: `details` is whatever the action wrote. */
export type AuditRow = AuditEventRow & { details: any };

/**
 * The audit rows about one resource (its uid), or matching `where`, oldest first; `actionPrefix` keeps only the
 * actions that start with it (`APPLICATION_ACCESS_` of an application's rows, say).
 */
export async function auditOf(app: TestApp, where: string | Record<string, unknown>, actionPrefix = ''): Promise<AuditRow[]> {
  const rows = await app.models.AuditEvent.findAll({ where: typeof where === 'string' ? { resourceId: where } : where, order: [['seq', 'ASC']] });
  return rows.filter((r) => r.action.startsWith(actionPrefix));
}

/** The actions of `auditOf`, oldest first. */
export async function auditActions(app: TestApp, where: string | Record<string, unknown>, actionPrefix = ''): Promise<string[]> {
  return (await auditOf(app, where, actionPrefix)).map((r) => r.action);
}

/** The rows of an application's audit history about one access grant (`details.grant`), oldest first. */
export async function grantAuditOf(app: TestApp, applicationUid: string, grantUid: string): Promise<AuditRow[]> {
  return (await auditOf(app, applicationUid)).filter((r) => r.details?.grant === grantUid);
}
