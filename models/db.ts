import { Sequelize, type Options } from 'sequelize';
import { ConfigError, databasePoolMax } from '../core/config';
import { causalReadsOnGalera } from './galera-sessions';
import { driverSsl, parseMysqlUrl } from './mysql-url';
import { guardedPg } from './pg-guarded';
import { timeStatements } from './statement-timing';
import { leanTransactionStatements } from './pg-transactions';

export type Dialect = 'postgres' | 'mysql' | 'mariadb';

/**
 * Opens a Sequelize connection for a postgres://, mysql:// or mariadb:// URL. Timestamps are kept in UTC. The pool
 * holds at most DATABASE_POOL_MAX connections (read here, since every process that serves opens its pool through
 * this). A MySQL-family URL's parameters are checked and read once (models/mysql-url). Its statements are timed
 * (models/statement-timing); on a Galera cluster its reads see every acknowledged write (models/galera-sessions).
 */
export function openDatabase(url: string, extra: Options = {}): Sequelize {
  const dialect = dialectOf(url);
  let target = url;
  const options: Options = {
    dialect,
    logging: false,
    timezone: '+00:00',
    pool: { max: databasePoolMax(process.env), min: 0, idle: 10_000, acquire: 10_000 },
    define: { underscored: true, timestamps: false, freezeTableName: true },
    ...extra,
  };
  if (dialect === 'postgres') {
    options.dialectModule ??= guardedPg;
    // plan_cache_mode: our prepared statements (models/data-access-pg) all read rows by key. Otherwise PostgreSQL's
    // first five executions on each connection plan the statement for their values, and a list `= ANY($1)` is
    // planned on every call, its generic plan estimated for more values than a page passes.
    // random_page_cost: the usual value for SSDs and cached tables (the default 4 prices spinning disks); with 4, a
    // count in name order over a small tenant sorts the table instead of walking its (tenant, name) index.
    options.dialectOptions = {
      connectionTimeoutMillis: 5_000, options: '-c plan_cache_mode=force_generic_plan -c random_page_cost=1.1', ...(extra.dialectOptions ?? {}),
    };
    target = normaliseUrl(url);
  } else {
    const mysql = parseMysqlUrl(url);
    target = mysql.url;
    const ssl = driverSsl(dialect, mysql.tls, mysql.host);
    options.dialectOptions = {
      connectTimeout: 5_000, ...(dialect === 'mysql' && { charset: 'utf8mb4' }), ...(ssl && { ssl }), ...(extra.dialectOptions ?? {}),
    };
  }
  const sequelize = new Sequelize(target, options);
  timeStatements(sequelize);
  if (dialect === 'postgres') leanTransactionStatements(sequelize);
  causalReadsOnGalera(sequelize);
  return sequelize;
}

export function dialectOf(url: string): Dialect {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql') return 'mysql';
  if (scheme === 'mariadb') return 'mariadb';
  throw new ConfigError(`DATABASE_URL must start with postgres://, mysql:// or mariadb:// (got ${scheme}://)`);
}

function normaliseUrl(url: string): string {
  return url.replace(/^postgresql:/i, 'postgres:');
}
