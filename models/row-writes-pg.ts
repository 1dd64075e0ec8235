/**
 * The row writes of the data access on PostgreSQL: what Sequelize's save and destroy send for a row (its
 * timestamps, its lowercase twins, its version as the optimistic lock), as named prepared statements on the
 * transaction's own connection (models/pg-prepared), each text built once per table and set of columns. Save
 * builds, escapes and formats its statement anew for every row; here a write is its values and one round trip.
 */
import { OptimisticLockError, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';
import { fillKeys } from './define';
import { queryPrepared } from './pg-prepared';
import { bookkeeping, markSaved, readRow, type Bookkeeping } from './sequelize-adapter';
import type { RowWrites } from './data-access';
import { columnOf, tableOf } from './select-sql';

/** Per model: its bookkeeping, its table and each attribute's quoted column. */
interface Table { keeping: Bookkeeping; table: string; columns: Map<string, string>; attributes: string[] }
const tables = new WeakMap<ModelStatic<Model>, Table>();

function tableInfo(model: ModelStatic<Model>): Table {
  let t = tables.get(model);
  if (!t) {
    const names = Object.keys(model.getAttributes());
    t = { keeping: bookkeeping(model), table: tableOf(model), columns: new Map(names.map((a) => [a, columnOf(model, a)])), attributes: names };
    tables.set(model, t);
  }
  return t;
}

/** Statement texts by model and key (the columns written), built once. */
const texts = new WeakMap<ModelStatic<Model>, Map<string, string>>();
function textOf(model: ModelStatic<Model>, key: string, build: () => string): string {
  let byKey = texts.get(model);
  if (!byKey) texts.set(model, (byKey = new Map()));
  let text = byKey.get(key);
  if (!text) byKey.set(key, (text = build()));
  return text;
}

const dataValues = (row: Model) => (row as unknown as { dataValues: Record<string, unknown> }).dataValues;
const previousValues = (row: Model) => (row as unknown as { _previousDataValues: Record<string, unknown> })._previousDataValues;

/** The attributes written for a new row: every one with a value, the database's own (autoIncrement) left out. */
function insertText(model: ModelStatic<Model>, t: Table, written: string[], rows: number): string {
  return textOf(model, `I${rows}:${written.join(',')}`, () => {
    let n = 0;
    const tuple = () => `(${written.map(() => `$${++n}`).join(', ')})`;
    return `INSERT INTO ${t.table} (${written.map((a) => t.columns.get(a)).join(', ')}) VALUES ${Array.from({ length: rows }, tuple).join(', ')}`;
  });
}

/** A new row's values as save stores them, the INSERT, and the row as read back; null: `unlessClash` and a unique clash. */
async function insertRow<M extends Model>(sequelize: Sequelize, row: M, transaction: Transaction, unlessClash: boolean): Promise<M | null> {
  const model = row.constructor as ModelStatic<Model>;
  const t = tableInfo(model);
  const values = { ...dataValues(row) };
  const now = new Date();
  if (t.keeping.createdAt && !values[t.keeping.createdAt]) values[t.keeping.createdAt] = now;
  if (t.keeping.updatedAt) values[t.keeping.updatedAt] = now;
  if (t.keeping.version) values[t.keeping.version] = 0;
  fillKeys(model, values);
  const written = t.attributes.filter((a) => values[a] !== undefined && !t.keeping.autoIncrement.includes(a));
  const text = insertText(model, t, written, 1) + (unlessClash ? ' ON CONFLICT DO NOTHING' : '');
  const { rowCount } = await queryPrepared(sequelize, text, written.map((a) => values[a]), transaction, { type: 'INSERT', model });
  if (rowCount === 0) return null;
  // As RETURNING * would give it: every attribute, null where nothing was written (no column has a default of
  // its own that the model lacks).
  const stored: Record<string, unknown> = {};
  for (const a of t.attributes) stored[a] = values[a] ?? null;
  return readRow(model as ModelStatic<M>, stored);
}

export function pgRowWrites(sequelize: Sequelize): RowWrites {
  return {
    insert: async <M extends Model>(row: M, transaction: Transaction) => (await insertRow(sequelize, row, transaction, false))!,
    insertUnlessClash: <M extends Model>(row: M, transaction: Transaction) => insertRow(sequelize, row, transaction, true),

    async update<M extends Model>(row: M, transaction: Transaction): Promise<M> {
      const model = row.constructor as ModelStatic<Model>;
      const t = tableInfo(model);
      const values = dataValues(row);
      const before = previousValues(row);
      fillKeys(model, values);
      // What set() marked changed, and the twins fillKeys changed with their sources.
      const changed = t.attributes.filter((a) => values[a] !== undefined && !same(values[a], before[a]));
      if (changed.length === 0) return row;
      const { updatedAt, version } = t.keeping;
      if (updatedAt && !changed.includes(updatedAt)) { values[updatedAt] = new Date(); changed.push(updatedAt); }
      const set = changed.filter((a) => a !== version);
      const text = textOf(model, `U:${set.join(',')}`, () => {
        let n = 0;
        const assignments = set.map((a) => `${t.columns.get(a)} = $${++n}`);
        if (version) assignments.push(`${t.columns.get(version)} = ${t.columns.get(version)} + 1`);
        return `UPDATE ${t.table} SET ${assignments.join(', ')} WHERE ${t.columns.get('uid')} = $${++n}${version ? ` AND ${t.columns.get(version)} = $${++n}` : ''}`;
      });
      const params = [...set.map((a) => values[a]), values.uid, ...(version ? [before[version]] : [])];
      const { rowCount } = await queryPrepared(sequelize, text, params, transaction, { type: 'UPDATE', model });
      if (version) {
        if (!rowCount) throw new OptimisticLockError({ modelName: model.name, values: { ...values }, where: { uid: values.uid } } as never);
        values[version] = Number(before[version]) + 1;
      }
      markSaved(row);
      return row;
    },

    async destroy(row: Model, transaction: Transaction): Promise<void> {
      const model = row.constructor as ModelStatic<Model>;
      const t = tableInfo(model);
      const { version } = t.keeping;
      const text = textOf(model, 'D', () => `DELETE FROM ${t.table} WHERE ${t.columns.get('uid')} = $1${version ? ` AND ${t.columns.get(version)} = $2` : ''}`);
      const values = previousValues(row);
      await queryPrepared(sequelize, text, [values.uid, ...(version ? [values[version]] : [])], transaction, { type: 'DELETE', model });
    },

    async insertStored(model: ModelStatic<Model>, rows: Record<string, unknown>[], transaction: Transaction): Promise<void> {
      if (rows.length === 0) return;
      const t = tableInfo(model);
      const written = t.attributes.filter((a) => rows[0][a] !== undefined && !t.keeping.autoIncrement.includes(a));
      await queryPrepared(sequelize, insertText(model, t, written, rows.length), rows.flatMap((r) => written.map((a) => r[a] ?? null)), transaction, { type: 'INSERT', model });
    },
  };
}

/** Sequelize's test for a changed value (setDataValue): dates by time, anything else by identity or JSON. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
