/**
 * The tenant of a realm and, in the same round trip, its user with a given uid: what every authenticated request
 * needs, read fresh each time (a deleted or demoted user is refused at once, on every instance) in one query on
 * the tenants' unique short_name and the users' primary key. A GET of one item also names the row it will read:
 * that row, within the same tenant, comes back in the same statement, so the read costs one round trip, not two.
 * Its to-one targets are not joined in as well: PostgreSQL plans a join of seven tables for ~2 ms on every call
 * (a stream read measured 730 → 400 req/s with them), a join of three for ~0.2 ms.
 */
import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import type { Row } from './define';
import type { Models } from './index';
import { buildAliased, columnOf, selectColumns } from './select-sql';
import { numbered, queryPrepared } from './prepared';

/** The row a request will read: its model and uid. */
export interface ItemWanted { model: ModelStatic<Model>; uid: string }

/** `item`: present when one was asked for; null when no row of that uid is in the caller's tenant. */
export interface Caller { tenant: Row; user: Row | null; item?: Row | null }

/**
 * What a request needs of its caller's user row (the principal's uid, roles, email and name). Its password and
 * client-secret hashes, settings and federation links are not read on every request; code that needs them reads
 * the user itself.
 */
const CALLER_USER = new Set(['uid', 'tenantUid', 'email', 'roles', 'firstName', 'middleName', 'lastName', 'version']);

type Columns = ReturnType<typeof selectColumns>;
/**
 * The statement (PostgreSQL: numbered for a prepared statement; else split at its placeholders) and the aliased
 * columns of each joined table; built once per item model.
 */
type Built = { sql: string[]; prepared?: string; t: Columns; u: Columns; r: Columns };
const plain = new WeakMap<Models, Built>();
const withItem = new WeakMap<ModelStatic<Model>, Built>();

function build(models: Models, item: ModelStatic<Model> | undefined): Built {
  const q = (name: string) => models.sequelize.getQueryInterface().quoteIdentifier(name);
  const table = (m: ModelStatic<Model>) => q(m.getTableName() as string);
  const tenant = selectColumns(models.Tenant as ModelStatic<Row>, 't', 't_');
  const user = selectColumns(models.User as ModelStatic<Row>, 'u', 'u_').filter((c) => CALLER_USER.has(c.attribute));
  const row = item ? selectColumns(item, 'r', 'r_') : [];
  const sql = `SELECT ${[...tenant, ...user, ...row].map((c) => c.select).join(', ')} FROM ${table(models.Tenant)} t`
    + ` LEFT JOIN ${table(models.User)} u ON u.${q('tenant_uid')} = t.${q('uid')} AND u.${q('uid')} = ?`
    + (item ? ` LEFT JOIN ${table(item)} r ON r.${columnOf(item, 'tenantUid')} = t.${q('uid')} AND r.${columnOf(item, 'uid')} = ?` : '')
    + ` WHERE t.${q('short_name')} = ?`;
  // Split at its placeholders once: the values are escaped into it per call (Sequelize's replacements would scan
  // the whole text for them on every call).
  const prepared = models.sequelize.getDialect() === 'postgres' ? numbered(sql) : undefined;
  return { sql: sql.split('?'), prepared, t: tenant, u: user, r: row };
}

function statement(models: Models, item: ModelStatic<Model> | undefined): Built {
  let built = item ? withItem.get(item) : plain.get(models);
  if (built) return built;
  built = build(models, item);
  if (item) withItem.set(item, built);
  else plain.set(models, built);
  return built;
}

/** Whether a model's rows belong to one tenant (a `tenantUid` attribute): only those can be read alongside. */
export const isTenantRow = (model: ModelStatic<Model>): boolean => 'tenantUid' in model.getAttributes();

export async function findCaller(models: Models, realm: string, userUid: string, item?: ItemWanted): Promise<Caller | null> {
  const wanted = item && isTenantRow(item.model) ? item : undefined;
  const built = statement(models, wanted?.model);
  const values = wanted ? [userUid, wanted.uid, realm] : [userUid, realm];
  const [row] = built.prepared
    ? await queryPrepared(models.sequelize, built.prepared, values)
    : await models.sequelize.query<Record<string, unknown>>(built.sql.reduce((text, part, i) => text + models.sequelize.escape(values[i - 1]) + part), { type: QueryTypes.SELECT });
  if (!row) return null;
  const present = (alias: string) => row[alias] !== null && row[alias] !== undefined;
  const tenant = buildAliased(models.Tenant as ModelStatic<Row>, built.t, row);
  const user = present('u_uid') ? buildAliased(models.User as ModelStatic<Row>, built.u, row) : null;
  if (!wanted) return { tenant, user };
  return { tenant, user, item: present('r_uid') ? buildAliased(wanted.model as ModelStatic<Row>, built.r, row) : null };
}
