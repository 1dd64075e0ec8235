import type { Model, ModelStatic } from 'sequelize';

/** A row as the generic layer sees it: attribute names are the model's (camelCase), values already decoded. */
export type Row = Model & Record<string, any>;
export type RowModel = ModelStatic<Row>;
