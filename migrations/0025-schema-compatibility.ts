/**
 * A schema's compatibility mode (issue 45): which earlier versions an upload is judged against, and how
 * (schema-formats/compatibility-modes). Existing schemas get NONE, so nothing that uploaded freely before is refused
 * now; new schemas get the service's default (`SCHEMA_COMPATIBILITY_DEFAULT`).
 */
import type { QueryInterface } from 'sequelize';
import { str } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await qi.addColumn('schemas', 'compatibility', { ...str(32, false), defaultValue: 'NONE' });
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.removeColumn('schemas', 'compatibility');
}
