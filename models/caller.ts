/**
 * The caller's read, the part both dialect families share: what every authenticated request needs (the tenant of
 * its realm and its user with a given uid, read fresh each time, so a deleted or demoted user is refused at once on
 * every instance) and, for a GET of one item, that row within the same tenant, in the same statement: one round
 * trip, not two. Each data-access implementation selects and decodes its own way (models/data-access-pg,
 * models/data-access-mysql) from the tables joined here.
 */
import type { Model, ModelStatic } from 'sequelize';
import type { Row } from './define';
import type { Models } from '../core/context';
import { columnOf, tableOf, type RelatedWanted } from './select-sql';

export type { RelatedWanted } from './select-sql';

/** What the caller's statement reads besides the item: the tenants and users. */
export type CallerModels = Pick<Models, 'sequelize' | 'Tenant' | 'User'>;

/** The row a request will read: its model and uid, and the associations it will render. */
export interface ItemWanted { model: ModelStatic<Model>; uid: string; related?: RelatedWanted[] }

/**
 * `item`: present when one was asked for; null when no row of that uid is in the caller's tenant. `related`: per
 * association asked for, the targets read in the same round trip (to-many in link order), when they could be.
 */
export interface Caller { tenant: Row; user: Row | null; item?: Row | null; related?: Map<string, Row[]> }

/**
 * What a request needs of its caller's user row (the principal's uid, roles, email and name). Its password and
 * client-secret hashes, settings and federation links are not read on every request; code that needs them reads
 * the user itself.
 */
export const CALLER_USER = new Set(['uid', 'tenantUid', 'email', 'roles', 'firstName', 'middleName', 'lastName', 'version']);

/** Whether a model's rows belong to one tenant (a `tenantUid` attribute): only those can be read alongside. */
export const isTenantRow = (model: ModelStatic<Model>): boolean => 'tenantUid' in model.getAttributes();

/**
 * The tables of the caller's statement: the tenant `t` by its short name, its user `u` and, when a GET names one,
 * the item `r` in that tenant; placeholders, in order: user uid, item uid (with an item), realm.
 */
export function callerFrom(models: CallerModels, item?: ModelStatic<Model>): string {
  const q = (name: string) => models.sequelize.getQueryInterface().quoteIdentifier(name);
  return ` FROM ${tableOf(models.Tenant as ModelStatic<Model>)} t`
    + ` LEFT JOIN ${tableOf(models.User as ModelStatic<Model>)} u ON u.${q('tenant_uid')} = t.${q('uid')} AND u.${q('uid')} = ?`
    + (item ? ` LEFT JOIN ${tableOf(item)} r ON r.${columnOf(item, 'tenantUid')} = t.${q('uid')} AND r.${columnOf(item, 'uid')} = ?` : '')
    + ` WHERE t.${q('short_name')} = ?`;
}

/** The values of the caller's statement, in its placeholders' order (see callerFrom). */
export function callerValues(realm: string, userUid: string, item?: ItemWanted): string[] {
  return item ? [userUid, item.uid, realm] : [userUid, realm];
}
