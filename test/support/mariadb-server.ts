/**
 * A throw-away MariaDB server of a test's own (scripts/mariadb.sh: own data directory, a free loopback port, no
 * systemd), for server options the run's shared server does not have. Needs mariadbd on PATH or in /usr/sbin.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/mariadb.sh');
const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin` };

export interface MariadbServer {
  port: number;
  /** Its directory, for files the server reads (certificates) beside its data. */
  dir: string;
  /** Runs statements as root over the server's Unix socket. */
  sql(statements: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startMariadb(options: string[] = []): Promise<MariadbServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-mariadb-own-'));
  const port = await freePort();
  try {
    await run(SCRIPT, ['start', dir, String(port), ...options], { env });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    dir,
    async sql(statements) {
      await run('mariadb', ['--no-defaults', `--socket=${path.join(dir, 'mariadb.sock')}`, '-uroot', '-e', statements], { env });
    },
    async stop() {
      await run(SCRIPT, ['stop', dir], { env });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
