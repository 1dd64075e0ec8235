/**
 * The tenant of a realm and, in the same round trip, its user with a given uid: what every authenticated request
 * needs, read fresh each time (a deleted or demoted user is refused at once, on every instance) in one query on
 * the tenants' unique short_name and the users' primary key. A GET of one item also names the row it will read:
 * that row, within the same tenant, comes back in the same statement, so the read costs one round trip, not two.
 * On PostgreSQL the statement is prepared, its answer is one JSON column (models/select-sql textColumns), and the
 * item's associations come in the same statement, each as a subquery of its own (to-many: linkedJson). MySQL and
 * MariaDB read the row alone, and its associations after it.
 */
import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import type { Row } from './define';
import type { Models } from '../core/context';
import { buildAliased, columnOf, linkedJson, oneJson, selectColumns, textColumns, type RelatedWanted, type TextColumns } from './select-sql';
import { numbered, queryPrepared } from './prepared';

export type { RelatedWanted } from './select-sql';

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
const CALLER_USER = new Set(['uid', 'tenantUid', 'email', 'roles', 'firstName', 'middleName', 'lastName', 'version']);

/**
 * The statement and how to read its answer, built once per item model. MySQL and MariaDB (`text`): split at its
 * placeholders, the aliased columns of each joined table. PostgreSQL (`pg`): numbered for a prepared statement, one
 * JSON column (select-sql textColumns) holding the tenant, the user, the row, the item's to-one targets (`one`) and
 * its to-many targets (`many`), a subquery each.
 */
type Columns = ReturnType<typeof selectColumns>;
type Built = {
  text?: { sql: string[]; t: Columns; u: Columns; r: Columns };
  pg?: {
    prepared: string; t: TextColumns<Row>; u: TextColumns<Row>; r?: TextColumns<Row>;
    one: { wanted: RelatedWanted; select: string; decode(value: unknown): Row | null }[];
    /**
     * As a statement of its own pipelined behind the caller's (one round trip still) a stream read served
     * 0.38–0.45 of bare's requests in paired runs, as a subquery 0.45–0.64 (median ~0.53): PostgreSQL answers each
     * statement of a pipeline in its own write, so Node was woken twice.
     */
    many: { wanted: RelatedWanted; decode(value: unknown): Row[] }[];
  };
};
const plain = new WeakMap<Models, Built>();
const withItem = new WeakMap<ModelStatic<Model>, Built>();

function build(models: Models, item: ItemWanted | undefined): Built {
  const q = (name: string) => models.sequelize.getQueryInterface().quoteIdentifier(name);
  const table = (m: ModelStatic<Model>) => q(m.getTableName() as string);
  const from = ` FROM ${table(models.Tenant)} t`
    + ` LEFT JOIN ${table(models.User)} u ON u.${q('tenant_uid')} = t.${q('uid')} AND u.${q('uid')} = ?`
    + (item ? ` LEFT JOIN ${table(item.model)} r ON r.${columnOf(item.model, 'tenantUid')} = t.${q('uid')} AND r.${columnOf(item.model, 'uid')} = ?` : '')
    + ` WHERE t.${q('short_name')} = ?`;
  if (models.sequelize.getDialect() !== 'postgres') {
    const t = selectColumns(models.Tenant as ModelStatic<Row>, 't', 't_');
    const u = selectColumns(models.User as ModelStatic<Row>, 'u', 'u_').filter((c) => CALLER_USER.has(c.attribute));
    const r = item ? selectColumns(item.model, 'r', 'r_') : [];
    // Split at its placeholders once: the values are escaped into it per call (Sequelize's replacements would scan
    // the whole text for them on every call).
    return { text: { sql: `SELECT ${[...t, ...u, ...r].map((c) => c.select).join(', ')}${from}`.split('?'), t, u, r } };
  }
  const related = item?.related ?? [];
  const one = related.filter((r) => !r.join).map((wanted, i) => ({ wanted, ...oneJson(wanted.target as ModelStatic<Row>, `a${i}`, `r.${columnOf(item!.model, wanted.attribute!)}`) }));
  // Keyed by the row read (none: no targets).
  const many = related.filter((r) => r.join).map((wanted) => ({ wanted, ...linkedJson(wanted.join!, wanted.target as ModelStatic<Row>, `r.${columnOf(item!.model, 'uid')}`) }));
  const t = textColumns(models.Tenant as ModelStatic<Row>, 't');
  const u = textColumns(models.User as ModelStatic<Row>, 'u', CALLER_USER);
  const r = item ? textColumns(item.model as ModelStatic<Row>, 'r') : undefined;
  const parts = [t.array, u.array, ...(r ? [r.array] : []), ...one.map((o) => o.select), ...many.map((m) => m.select)];
  const prepared = numbered(`SELECT json_build_array(${parts.join(', ')})::text AS ${q('caller')}${from}`);
  return { pg: { prepared, t, u, r, one, many } };
}

/** Built once per item model: its `related` list comes from the model's one resource, the same on every call. */
function statement(models: Models, item: ItemWanted | undefined): Built {
  let built = item ? withItem.get(item.model) : plain.get(models);
  if (built) return built;
  built = build(models, item);
  if (item) withItem.set(item.model, built);
  else plain.set(models, built);
  return built;
}

/** Whether a model's rows belong to one tenant (a `tenantUid` attribute): only those can be read alongside. */
export const isTenantRow = (model: ModelStatic<Model>): boolean => 'tenantUid' in model.getAttributes();

export async function findCaller(models: Models, realm: string, userUid: string, item?: ItemWanted): Promise<Caller | null> {
  const wanted = item && isTenantRow(item.model) ? item : undefined;
  const built = statement(models, wanted);
  const values = wanted ? [userUid, wanted.uid, realm] : [userUid, realm];
  if (built.pg) {
    const [answer] = await queryPrepared(models.sequelize, built.pg.prepared, values);
    return answer ? decodePg(built.pg, JSON.parse(answer.caller as string) as unknown[]) : null;
  }
  const { sql, t, u, r } = built.text!;
  const [row] = await models.sequelize.query<Record<string, unknown>>(sql.reduce((text, part, i) => text + models.sequelize.escape(values[i - 1]) + part), { type: QueryTypes.SELECT });
  if (!row) return null;
  const tenant = buildAliased(models.Tenant as ModelStatic<Row>, t, row);
  const user = row.u_uid != null ? buildAliased(models.User as ModelStatic<Row>, u, row) : null;
  if (!wanted) return { tenant, user };
  return { tenant, user, item: row.r_uid != null ? buildAliased(wanted.model as ModelStatic<Row>, r, row) : null };
}

/** The caller's JSON column: tenant, user, row, to-one targets, to-many targets, in the order build wrote them. */
function decodePg(pg: NonNullable<Built['pg']>, parts: unknown[]): Caller {
  const tenant = pg.t.decode(parts[0] as (string | null)[])!;
  const user = pg.u.decode(parts[1] as (string | null)[]);
  if (!pg.r) return { tenant, user };
  const read = pg.r.decode(parts[2] as (string | null)[]);
  if (!read) return { tenant, user, item: null };
  const related = new Map<string, Row[]>();
  pg.one.forEach(({ wanted, decode }, i) => {
    const target = decode(parts[3 + i]);
    related.set(wanted.rel, target ? [target] : []);
  });
  pg.many.forEach(({ wanted, decode }, i) => related.set(wanted.rel, decode(parts[3 + pg.one.length + i])));
  return { tenant, user, item: read, related };
}
