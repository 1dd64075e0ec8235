/**
 * MariaDB 10.3 is promised but only 10.11 can be installed here, so on MySQL-family servers every statement the
 * service sends during the tests is checked against the features 10.3 lacks; a file whose service used one fails.
 */
import type { Options } from 'sequelize';
import { dialectOf } from '../../models/db';

const NEWER_THAN_MARIADB_10_3: Array<[RegExp, string]> = [
  [/\bRETURNING\b/i, 'INSERT/DELETE … RETURNING (MariaDB 10.5)'],
  [/\bJSON_TABLE\b/i, 'JSON_TABLE (MariaDB 10.6)'],
  [/\bJSON_(ARRAYAGG|OBJECTAGG)\b/i, 'JSON_ARRAYAGG/JSON_OBJECTAGG (MariaDB 10.5)'],
  [/\b(UUID|INET6|INET4)\b(?!\s*\()/i, 'UUID/INET column types (MariaDB 10.5+)'],
  [/\bOFFSET\s+\d+\s+ROWS\b|\bFETCH\s+(FIRST|NEXT)\b/i, 'OFFSET … FETCH (MariaDB 10.6)'],
];

export interface SqlGuard { logging: Options['logging']; violations: string[] }

export function sqlGuard(databaseUrl: string): SqlGuard {
  const violations: string[] = [];
  if (dialectOf(databaseUrl) === 'postgres') return { logging: false, violations };
  return {
    violations,
    logging: (sql: string) => {
      // Quoted values are data (a description may well say "returning"), not SQL.
      const code = sql.replace(/'(?:[^'\\]|\\.|'')*'/g, "''");
      for (const [pattern, feature] of NEWER_THAN_MARIADB_10_3) {
        if (pattern.test(code)) violations.push(`${feature}: ${sql.slice(0, 300)}`);
      }
    },
  };
}
