/**
 * The data access on MySQL and MariaDB: the statements of models/select-sql as text through
 * Sequelize (the pinned mariadb driver has no prepared statements), a column per attribute under the names findAll
 * gives them, each row built by model.build as findAll builds it (its type sanitizers read these drivers'
 * booleans). An item's associations and a page's targets are read after their rows (handlers/_lib/store).
 */
import { QueryTypes, type Model, type ModelStatic, type Transaction } from 'sequelize';
import type { Row } from './define';
import { CALLER_USER, callerFrom, callerValues, isTenantRow, selectColumns, type Columns } from './select-sql';
import type { CallerModels, ItemWanted } from './caller';
import { sequelizeReads, sequelizeWrites, statementReads, type DataAccess } from './data-access';

/** A row of the model from a statement's row read under `columns`' aliases. */
function build<M extends Model>(model: ModelStatic<M>, columns: Columns, row: Record<string, unknown>): M {
  return model.build(Object.fromEntries(columns.map((c) => [c.attribute, row[c.alias]])) as never, { raw: true, isNewRecord: false });
}

export function mysqlDataAccess(models: CallerModels): DataAccess {
  const { sequelize } = models;
  const select = (sql: string, values: unknown[], transaction?: Transaction) =>
    sequelize.query<Record<string, unknown>>(sql, { replacements: values, type: QueryTypes.SELECT, transaction });
  return {
    ...sequelizeReads,
    ...statementReads(select, (model, values) => model.build(values as never, { raw: true, isNewRecord: false })),
    ...sequelizeWrites,
    // MySQL and MariaDB plan every execution for its values.
    selectUnprepared: (sql, values) => select(sql, values),
    readCaller: (realm, userUid, item) => readCaller(models, realm, userUid, item),
    async readPage(model, where, order, limit, offset) {
      return { rows: await model.findAll({ where, order, limit, offset }) };
    },
  };
}

/**
 * Built once per item model: the caller's statement split at its placeholders (the values are escaped into it per
 * call; Sequelize's replacements would scan the whole text for them on every call), and the aliased columns of
 * each joined table.
 */
type CallerStatement = { sql: string[]; t: Columns; u: Columns; r: Columns };
const plainCaller = new WeakMap<CallerModels, CallerStatement>();
const itemCaller = new WeakMap<ModelStatic<Model>, CallerStatement>();

function callerStatement(models: CallerModels, item: ModelStatic<Model> | undefined): CallerStatement {
  let built = item ? itemCaller.get(item) : plainCaller.get(models);
  if (built) return built;
  const t = selectColumns(models.Tenant as ModelStatic<Model>, 't', 't_');
  const u = selectColumns(models.User as ModelStatic<Model>, 'u', 'u_').filter((c) => CALLER_USER.has(c.attribute));
  const r = item ? selectColumns(item, 'r', 'r_') : [];
  built = { sql: `SELECT ${[...t, ...u, ...r].map((c) => c.select).join(', ')}${callerFrom(models, item)}`.split('?'), t, u, r };
  if (item) itemCaller.set(item, built);
  else plainCaller.set(models, built);
  return built;
}

async function readCaller(models: CallerModels, realm: string, userUid: string, item?: ItemWanted) {
  const wanted = item && isTenantRow(item.model) ? item : undefined;
  const { sql, t, u, r } = callerStatement(models, wanted?.model);
  const values = callerValues(realm, userUid, wanted);
  const [row] = await models.sequelize.query<Record<string, unknown>>(sql.reduce((text, part, i) => text + models.sequelize.escape(values[i - 1]) + part), { type: QueryTypes.SELECT });
  if (!row) return null;
  const tenant = build(models.Tenant as ModelStatic<Row>, t, row);
  const user = row.u_uid != null ? build(models.User as ModelStatic<Row>, u, row) : null;
  if (!wanted) return { tenant, user };
  return { tenant, user, item: row.r_uid != null ? build(wanted.model as ModelStatic<Row>, r, row) : null };
}
