/**
 * The SQL of a findAll, as text: for a subquery (`IN (…)`, `COUNT(*) FROM (… LIMIT n)`) that must stay in the
 * database and keep every dialect's quoting, column mapping and operators exactly as Sequelize writes them.
 */
import { Utils, type FindOptions, type ModelStatic, type Model } from 'sequelize';

type Generator = { selectQuery: (table: string, options: object, model: unknown) => string };
type Mapper = { mapOptionFieldNames: (options: object, model: unknown) => object };

export function selectSql(model: ModelStatic<Model>, options: FindOptions): string {
  const generator = model.sequelize!.getQueryInterface().queryGenerator as unknown as Generator;
  // Attribute names to column names, as findAll would.
  const mapped = (Utils as unknown as Mapper).mapOptionFieldNames({ ...options }, model);
  return generator.selectQuery(model.getTableName() as string, mapped, model).replace(/;\s*$/, '');
}
