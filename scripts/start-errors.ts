/**
 * Start-up failures an operator can fix, each said in one line naming the cause and the fix, without a stack trace:
 * a configuration value, a DATA_DIR or port in use, a database that refuses the connection, an encryption key that
 * is not one. Anything else is a bug and keeps its stack.
 */
import cluster from 'node:cluster';
import { ConfigError } from '../core/config';
import { dialectOf } from '../models/db';
import { WorkerStartError, reportStartFailure } from '../server/workers';
import { DataDirInUseError } from './postgres-lock';
import { PostgresAccessError } from './postgres-user';
import { readableStack } from '../core/readable-stack';

type ErrorLike = { name?: unknown; code?: unknown; errno?: unknown; port?: unknown; syscall?: unknown; message?: unknown; parent?: unknown; original?: unknown };

/** The one line that explains `err`, or undefined when it is not a known operator error. */
export function explainStartError(err: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (err instanceof ConfigError || err instanceof PostgresAccessError || err instanceof DataDirInUseError || err instanceof WorkerStartError) {
    return err.message;
  }
  const e = (err ?? {}) as ErrorLike;
  if (e.code === 'EADDRINUSE' && e.syscall !== 'connect') return `port ${e.port ?? env.PORT ?? 8080} is in use: stop the other process or set PORT to a free port`;
  if (e.code === 'EACCES' && (e.syscall === 'listen' || e.syscall === 'bind')) {
    return `port ${e.port ?? env.PORT ?? 8080} may not be opened by this user: set PORT to 1024 or above`;
  }
  if (typeof e.message === 'string' && e.message.includes('lock file "postmaster.pid" already exists')) {
    return `DATA_DIR ${env.DATA_DIR || './.data'} is in use by another running service (its PostgreSQL): stop it, or set DATA_DIR to another directory`;
  }
  return env.DATABASE_URL ? databaseProblem(e, env.DATABASE_URL) : undefined;
}

/** Ends a failed start: the known cause in one line (from a worker: told to the primary, which says it), exit code 1. */
export async function failStart(err: unknown): Promise<never> {
  const line = explainStartError(err);
  const stack = (err as Error)?.stack;
  if (line === undefined) process.stderr.write(`${stack === undefined ? String(err) : readableStack(stack)}\n`);
  else if (cluster.isWorker) await reportStartFailure(line);
  else process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** Driver codes of PostgreSQL (SQLSTATE), MariaDB and mysql2 (errno, code), and of the socket, Sequelize wraps. */
function databaseProblem(err: ErrorLike, url: string): string | undefined {
  const codes = new Set<unknown>();
  for (let e: ErrorLike | undefined = err, depth = 0; e && depth < 3; depth++) {
    codes.add(e.code).add(e.errno).add(e.name);
    e = (e.parent ?? e.original) as ErrorLike | undefined;
  }
  const has = (...any: unknown[]) => any.some((c) => codes.has(c));
  const { user, host, database } = databaseTarget(url);
  if (has('28P01', '28000', 1045, 'ER_ACCESS_DENIED_ERROR', 'SequelizeAccessDeniedError')) {
    return `the database at ${host} refused user '${user}' (wrong password, no such user, or not allowed from this host): fix DATABASE_URL`;
  }
  if (has(1044, 'ER_DBACCESS_DENIED_ERROR')) return `user '${user}' may not use database '${database}' at ${host}: grant it, or fix DATABASE_URL`;
  if (has('3D000', 1049, 'ER_BAD_DB_ERROR')) return `database '${database}' does not exist at ${host}: create it, or fix DATABASE_URL`;
  if (has('ECONNREFUSED', 'SequelizeConnectionRefusedError')) return `nothing accepts connections at ${host}: start the database, or fix DATABASE_URL`;
  if (has('ENOTFOUND', 'EAI_AGAIN', 'SequelizeHostNotFoundError')) return `the database host in DATABASE_URL (${host}) is not known: fix DATABASE_URL`;
  if (has('ETIMEDOUT', 'SequelizeConnectionTimedOutError', 'SequelizeHostNotReachableError')) {
    return `the database at ${host} cannot be reached: check the network, or fix DATABASE_URL`;
  }
  return undefined;
}

/** User, host:port and database of a database URL; never its password. */
export function databaseTarget(url: string): { user: string; host: string; database: string } {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (dialectOf(url) === 'postgres' ? '5432' : '3306');
    return { user: decodeURIComponent(parsed.username), host: `${parsed.hostname}:${port}`, database: decodeURIComponent(parsed.pathname.slice(1)) };
  } catch {
    return { user: '?', host: '?', database: '?' };
  }
}
