/**
 * initdb and the postgres server as child processes, run as `runAs` when we are root.
 *
 * As root the cluster directory may sit below directories the `postgres` user cannot traverse (/root, a
 * `mktemp -d` directory, DATA_DIR itself). libuv enters the child's cwd *before* it drops to that user, and
 * `/proc/self/cwd` is a magic link that does not walk the path again, so with cwd = the cluster directory and
 * `-D /proc/self/cwd` initdb, the postmaster and every backend it forks reach the cluster without those ancestors
 * ever being opened up. The server chdirs into its data directory and uses relative paths from then on.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PostgresBinaries } from './postgres-binaries';
import { PostgresAccessError, type RunAs } from './postgres-user';

export interface ClusterOptions {
  binaries: PostgresBinaries;
  /** The cluster directory itself (absolute). */
  dir: string;
  runAs?: RunAs;
}

export interface RunningPostgres { stop: () => Promise<void> }

const READY = 'database system is ready to accept connections';
// The readiness line is matched in English, whatever the environment's locale.
const ENV = { LC_MESSAGES: 'C' };
const START_TIMEOUT_MS = 60_000;

/** Creates the cluster directory for `runAs` (0700, as PostgreSQL demands) and tells how children must address it. */
function location(o: ClusterOptions): { cwd: string; pgdata: string; ids: { uid?: number; gid?: number } } {
  fs.mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  if (!o.runAs) return { cwd: o.dir, pgdata: o.dir, ids: {} };
  if (!fs.existsSync('/proc/self/cwd')) throw new PostgresAccessError(o.dir, 'the data directory is handed over through /proc/self/cwd, and /proc is not mounted', 'mount /proc, run as a normal (non-root) user, or set DATABASE_URL to use an external database');
  if (!fs.existsSync(path.join(o.dir, 'PG_VERSION'))) {
    fs.chownSync(o.dir, o.runAs.uid, o.runAs.gid);
    fs.chmodSync(o.dir, 0o700);
  }
  return { cwd: o.dir, pgdata: '/proc/self/cwd', ids: { uid: o.runAs.uid, gid: o.runAs.gid } };
}

/** Keeps the last lines a child wrote, for error messages. */
function tail(child: ChildProcess, onText?: (text: string) => void): () => string {
  let text = '';
  const add = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-8_000);
    onText?.(text);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => text.trim().split('\n').slice(-20).join('\n');
}

/** `initdb` with superuser `user`/`password`; the password reaches it through a file only that user can read. */
export async function initCluster(o: ClusterOptions, user: string, password: string): Promise<void> {
  const { cwd, pgdata, ids } = location(o);
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pms-initdb-'));
  const pwFile = path.join(pwDir, 'pw');
  let fd: number | undefined;
  try {
    fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    let pwArg = pwFile;
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    if (o.runAs) {
      // Handed over as an open descriptor: TMPDIR may be as private as the data directory.
      fs.chownSync(pwFile, o.runAs.uid, o.runAs.gid);
      fd = fs.openSync(pwFile, 'r');
      stdio.push(fd);
      pwArg = '/proc/self/fd/3';
    }
    const args = [`--pgdata=${pgdata}`, '--auth=password', `--username=${user}`, `--pwfile=${pwArg}`, '--locale=C.UTF-8', '--encoding=UTF8', '--lc-messages=C'];
    const child = spawn(o.binaries.initdb, args, { cwd, ...ids, env: ENV, stdio });
    const output = tail(child);
    await new Promise<void>((resolve, reject) => {
      child.once('error', (err) => reject(spawnError(o, o.binaries.initdb, err)));
      child.once('close', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`initdb failed (${code ?? signal}) for the PostgreSQL cluster in ${o.dir}:\n${output()}`));
      });
    });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/** Starts the server on localhost:`port` and resolves once it accepts connections. */
export async function startPostgres(o: ClusterOptions, port: number): Promise<RunningPostgres> {
  const { cwd, pgdata, ids } = location(o);
  const child = spawn(o.binaries.postgres, ['-D', pgdata, '-p', String(port)], { cwd, ...ids, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A Node process that exits without stop() must not leave the server running.
  const killOnExit = () => child.kill('SIGINT');
  process.once('exit', killOnExit);
  try {
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (err?: Error) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      const output = tail(child, (text) => {
        if (text.includes(READY)) settle();
      });
      timer = setTimeout(() => settle(new Error(`PostgreSQL in ${o.dir} did not become ready within ${START_TIMEOUT_MS / 1000} s:\n${output()}`)), START_TIMEOUT_MS);
      child.once('error', (err) => settle(spawnError(o, o.binaries.postgres, err)));
      child.once('exit', (code, signal) => settle(new Error(`PostgreSQL in ${o.dir} exited (${code ?? signal}) before accepting connections:\n${output()}`)));
    });
  } catch (err) {
    child.kill('SIGINT');
    process.removeListener('exit', killOnExit);
    throw err;
  }
  return {
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT is PostgreSQL's fast shutdown: clients are disconnected, the cluster is checkpointed and left clean.
      child.kill('SIGINT');
      await exited;
    },
  };
}

function spawnError(o: ClusterOptions, file: string, err: Error): Error {
  const code = (err as NodeJS.ErrnoException).code ?? err.message;
  if (o.runAs && (code === 'EACCES' || code === 'EPERM')) return new PostgresAccessError(o.dir, `${file} could not be started in the data directory as that user (${code})`);
  return new Error(`could not start ${file} for the PostgreSQL cluster in ${o.dir}: ${err.message}`);
}
