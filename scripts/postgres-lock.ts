/**
 * PostgreSQL's lock file, `postmaster.pid` in the cluster directory: its first line is the server's pid and its
 * fourth the port it listens on. PostgreSQL refuses to start on a cluster whose lock file names a running process,
 * so reading the file first tells whether a DATA_DIR is in use and where its server answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface RunningPostmaster {
  pid: number;
  port: number;
  /** The command the pid runs, when /proc tells: anything but `postgres` is a stale lock file whose pid was reused. */
  command?: string;
}

/** The server the lock file in `clusterDir` names, when that process runs; undefined otherwise. */
export function runningPostmaster(clusterDir: string): RunningPostmaster | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !running(pid)) return undefined;
  return { pid, port, command: commandOf(pid) };
}

/** Throws a DataDirInUseError when another process runs the embedded PostgreSQL of `dataDir`. */
export function assertDataDirFree(dataDir: string): void {
  const holder = runningPostmaster(path.resolve(dataDir, 'postgres'));
  if (holder) throw new DataDirInUseError(dataDir, holder);
}

/** Signal 0 checks existence only; EPERM means it runs as another user (the `postgres` user, say). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** `npm start` (or `npm run migrate`) on a DATA_DIR whose PostgreSQL another process runs. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';

  constructor(dataDir: string, readonly holder: RunningPostmaster) {
    const lockFile = path.join(path.resolve(dataDir), 'postgres', 'postmaster.pid');
    super(holder.command && holder.command !== 'postgres'
      ? `DATA_DIR ${path.resolve(dataDir)} is locked: ${lockFile} names pid ${holder.pid}, which now runs '${holder.command}', not PostgreSQL: if no service uses this DATA_DIR, delete that file, or set DATA_DIR to another directory`
      : `DATA_DIR ${path.resolve(dataDir)} is in use by another running service (PostgreSQL pid ${holder.pid}): stop it, or set DATA_DIR to another directory`);
  }
}
