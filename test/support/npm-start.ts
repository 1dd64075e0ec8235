/**
 * `npm start` as a deployment runs it (its build step, the bundle, the worker cluster), on a fresh database of the
 * run's server, ready once `/api/info` answers; `stop` ends the whole process group and drops the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/embedded-postgres';
import { createRunDatabase } from './run-database';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export interface NpmStart { base: string; port: number; child: ChildProcess; output: () => string; stop: () => Promise<void> }

export async function npmStart(serverUrl: string, tenant: string, env: Record<string, string> = {}): Promise<NpmStart> {
  const db = await createRunDatabase(serverUrl);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-npm-start-'));
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env, DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_TENANT: tenant,
      BOOTSTRAP_ADMIN_EMAIL: `admin@${tenant}.test`, BOOTSTRAP_ADMIN_PASSWORD: `${tenant}-admin-password-1`, LOG_LEVEL: 'warn', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
    }
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; ;) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`no /api/info within 90 s:\n${output}`);
    }
    const res = await fetch(`${base}/api/info`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, port, child, output: () => output, stop };
}
