/**
 * The tenant of a realm and, in the same round trip, its user with a given uid: what every authenticated request
 * needs, read fresh each time (a deleted or demoted user is refused at once, on every instance) in one query on
 * the tenants' unique short_name and the users' primary key.
 */
import { QueryTypes, type ModelStatic } from 'sequelize';
import type { Row } from './define';
import type { Models } from './index';
import { selectColumns } from './select-sql';

export interface Caller { tenant: Row; user: Row | null }

/** The statement and, per joined table, [column alias, attribute] pairs; built once per connection's models. */
type Built = { sql: string; t: [string, string][]; u: [string, string][] };
const statements = new WeakMap<Models, Built>();

function build(models: Models): Built {
  const qi = models.sequelize.getQueryInterface();
  const q = (name: string) => qi.quoteIdentifier(name);
  const tenant = selectColumns(models.Tenant as ModelStatic<Row>, 't', 't_');
  const user = selectColumns(models.User as ModelStatic<Row>, 'u', 'u_');
  const sql = `SELECT ${[...tenant, ...user].map((c) => c.select).join(', ')} FROM ${q(models.Tenant.getTableName() as string)} t`
    + ` LEFT JOIN ${q(models.User.getTableName() as string)} u ON u.${q('tenant_uid')} = t.${q('uid')} AND u.${q('uid')} = ?`
    + ` WHERE t.${q('short_name')} = ?`;
  const pairs = (cols: typeof tenant) => cols.map((c) => [c.alias, c.attribute] as [string, string]);
  return { sql, t: pairs(tenant), u: pairs(user) };
}

export async function findCaller(models: Models, realm: string, userUid: string): Promise<Caller | null> {
  let built = statements.get(models);
  if (!built) statements.set(models, (built = build(models)));
  const [row] = await models.sequelize.query<Record<string, unknown>>(built.sql, { replacements: [userUid, realm], type: QueryTypes.SELECT });
  if (!row) return null;
  const pick = (m: 't' | 'u') => Object.fromEntries(built![m].map(([alias, attribute]) => [attribute, row[alias]]));
  const tenant = models.Tenant.build(pick('t'), { raw: true, isNewRecord: false }) as Row;
  const user = row.u_uid === null || row.u_uid === undefined ? null : models.User.build(pick('u'), { raw: true, isNewRecord: false }) as Row;
  return { tenant, user };
}
