/**
 * Every statement the service sends passes Sequelize's `beforeQuery` and `afterQuery` hooks: its own queries and
 * the prepared ones of models/sequelize-adapter alike. The hooks time each one and report its kind and table
 * (core/observe); the SQL text and its values are never reported.
 */
import type { Sequelize } from 'sequelize';
import { statementKind, statementRan } from '../core/observe';

const SYSTEMS: Record<string, string> = { postgres: 'postgresql', mysql: 'mysql', mariadb: 'mariadb' };
const STARTED = Symbol('statement started');

interface Timed { sql?: string; [STARTED]?: number }

export function timeStatements(sequelize: Sequelize): void {
  const system = SYSTEMS[sequelize.getDialect()] ?? sequelize.getDialect();
  sequelize.addHook('beforeQuery', (_options, query) => {
    (query as unknown as Timed)[STARTED] = performance.now();
  });
  sequelize.addHook('afterQuery', (options, query) => {
    const timed = query as unknown as Timed;
    const started = timed[STARTED];
    if (started === undefined) return;
    const table = (options as { model?: { tableName?: string } }).model?.tableName;
    statementRan(statementKind(timed.sql), table, system, started);
  });
}
