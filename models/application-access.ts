import { DataTypes, Op, OptimisticLockError, type Model, type ModelStatic, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import type { DataAccess } from './data-access';
import { columnOf, tableOf } from './select-sql';
import { defineModel, type Row, type RowModel } from './define';
import { isOpen, OPEN_STATUSES, type GrantStatus } from '../core/rules/grant-state';

export function defineApplicationAccess(sequelize: Sequelize) {
  return defineModel(sequelize, 'ApplicationAccess', 'application_access', {
    applicationUid: { type: DataTypes.CHAR(32), allowNull: false },
    streamUid: { type: DataTypes.CHAR(32), allowNull: false },
    accessType: { type: DataTypes.STRING(16), allowNull: false },
  });
}

export function defineApplicationAccessGrant(sequelize: Sequelize) {
  return defineModel(sequelize, 'ApplicationAccessGrant', 'application_access_grants', {
    accessUid: { type: DataTypes.CHAR(32), allowNull: false },
    applicationUid: { type: DataTypes.CHAR(32), allowNull: false },
    streamUid: { type: DataTypes.CHAR(32), allowNull: false },
    environmentUid: { type: DataTypes.CHAR(32), allowNull: false },
    accessType: { type: DataTypes.STRING(16), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false },
    comment: { type: DataTypes.STRING(2000), allowNull: true },
    requestedBy: { type: DataTypes.STRING, allowNull: true },
    processedBy: { type: DataTypes.STRING, allowNull: true },
    requestedAt: { type: DataTypes.DATE(3), allowNull: false },
    processedAt: { type: DataTypes.DATE(3), allowNull: true },
    openKey: { type: DataTypes.STRING(140), allowNull: true },
    expiresAt: { type: DataTypes.DATE(3), allowNull: true },
    /** When the "access expiring" notice was written (issue 44): once per grant. */
    expiryWarnedAt: { type: DataTypes.DATE(3), allowNull: true },
  });
}

/** What makes two open grants the same request (the unique `open_key`); null once the grant is over. */
export function openKey(g: { applicationUid: string; streamUid: string; environmentUid: string; accessType: string }, status: GrantStatus): string | null {
  return isOpen(status) ? `${g.applicationUid}:${g.streamUid}:${g.environmentUid}:${g.accessType}` : null;
}

export interface GrantMove { from: GrantStatus; to: GrantStatus; by: string; comment?: string | null }

/**
 * One transition of `grant` (a row as read, with its version) as a compare-and-set: the data access's update
 * writes it only while the row is still that version, so of two racing decisions exactly one wins, and the row is
 * then as stored (status, processing, version), with nothing to read back. Answers whether this call made the move.
 */
export async function moveGrant(data: Pick<DataAccess, 'update'>, grant: Row, m: GrantMove, transaction: Transaction): Promise<boolean> {
  const now = new Date();
  if (grant.status !== m.from) return false;
  // Nothing is approved past its end, however close the decision came to it.
  const expiresAt = grant.expiresAt as Date | null;
  if (m.to === 'Approved' && expiresAt !== null && expiresAt.getTime() <= now.getTime()) return false;
  grant.set({
    status: m.to, processedBy: m.by, processedAt: now, openKey: openKey(grant as never, m.to), modifiedBy: m.by, modifiedAt: now,
    ...(m.comment !== undefined ? { comment: m.comment } : {}),
  });
  try {
    await data.update(grant, transaction);
  } catch (err) {
    if (err instanceof OptimisticLockError) return false;
    throw err;
  }
  return true;
}

const countTexts = new WeakMap<ModelStatic<Model>, Map<string, string>>();

/** How many Pending or Approved grants match (delete blockers of applications, environments, streams, configs). */
export async function openGrantCount(models: { ApplicationAccessGrant: RowModel; data: Pick<DataAccess, 'select'> }, where: Record<string, string>, transaction?: Transaction): Promise<number> {
  // One statement text per model and set of attributes, built once, prepared where the dialect prepares.
  const keys = Object.keys(where).sort();
  const g = models.ApplicationAccessGrant as unknown as ModelStatic<Model>;
  let byKeys = countTexts.get(g);
  if (!byKeys) countTexts.set(g, (byKeys = new Map()));
  let sql = byKeys.get(keys.join(','));
  if (!sql) byKeys.set(keys.join(','), (sql = `SELECT count(*) AS n FROM ${tableOf(g)} WHERE ${columnOf(g, 'status')} IN (?)${keys.map((k) => ` AND ${columnOf(g, k)} = ?`).join('')}`));
  const [row] = await models.data.select(sql, [OPEN_STATUSES, ...keys.map((k) => where[k])], transaction);
  return Number(row.n);
}

/** Grants without an end or whose end is after `now`. */
export function notExpiredAt(now: Date): WhereOptions {
  return { [Op.or]: [{ expiresAt: null }, { expiresAt: { [Op.gt]: now } }] };
}

/** Approved grants in effect at `now`: an Approved grant past its `expiresAt` gives no access, swept or not. */
export function inEffectAt(now: Date): WhereOptions {
  return { [Op.and]: [{ status: 'Approved' }, notExpiredAt(now)] };
}

/** Whether an Approved grant matching `where` is in effect now (the deployment precondition). */
export async function hasGrantInEffect(grants: RowModel, where: Record<string, string>, transaction?: Transaction): Promise<boolean> {
  return !!(await grants.findOne({ where: { [Op.and]: [where, inEffectAt(new Date())] }, attributes: ['uid'], transaction }));
}
