/**
 * Issue 15: `npm start` answers nothing before it can serve. A client that waits for `/api/info` and then asks for
 * a token must get one: the first-start tenant exists before the port is open. `npm start` itself (its build step
 * and the bundle it runs), on fresh databases of the suite's server, as one process and as a cluster of workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { tree } from '../../scripts/bench-procs';
import { freePort } from '../../scripts/embedded-postgres';
import { createRunDatabase } from '../support/run-database';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const children: ChildProcess[] = [];
const drops: (() => Promise<void>)[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-start-'));

afterAll(async () => {
  for (const child of children) await stop(child);
  for (const drop of drops) await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

/** Waits until none of `pids` runs any more (30 s at most); returns those still running. */
async function gone(pids: number[]): Promise<number[]> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && pids.some(alive);) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}

/** SIGTERM to npm's whole process group, as a terminal's Ctrl-C or a supervisor's stop reaches it. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const all = [child.pid!, ...descendants(child.pid!)];
  process.kill(-child.pid!, 'SIGTERM');
  await gone(all);
}

/** Every process below `pid` (npm → the primary → its workers). */
const descendants = (pid: number) => tree(pid).slice(1);
const leaves = (pid: number) => descendants(pid).filter((p) => descendants(p).length === 0);

async function start(tenant: string, workers: number) {
  const db = await createRunDatabase(inject('databaseUrl'));
  drops.push(db.drop);
  const port = await freePort();
  const password = `${tenant}-admin-password-1`;
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_TENANT: tenant, BOOTSTRAP_ADMIN_EMAIL: `admin@${tenant}.test`, BOOTSTRAP_ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  // Poll as a deployment's readiness probe does: the first 200 is the signal.
  for (;;) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no /api/info within 90 s:\n${output}`);
    const res = await fetch(`${base}/api/info`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const token = await fetch(`${base}/auth/realms/${tenant}/protocol/openid-connect/token`, {
    method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username: `admin@${tenant}.test`, password }),
  });
  expect(token.status, await token.clone().text()).toBe(200);
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  const me = () => fetch(`${base}/api/user`, { headers: { Authorization: `Bearer ${accessToken}` } }).then((r) => r.status, () => 0);
  return { child, me, output: () => output };
}

describe('npm start', () => {
  it('opens its port only when the first-start tenant can sign in (WORKERS=1)', async () => {
    const { me } = await start('early', 1);
    expect(await me()).toBe(200);
  }, 120_000);

  it('WORKERS=2: the primary bootstraps before any worker listens, the workers serve, a killed one is replaced', async () => {
    const { child, me, output } = await start('pair', 2);
    expect(await me()).toBe(200);
    const workers = leaves(child.pid!);
    expect(workers, output()).toHaveLength(2);
    const statuses = await Promise.all(Array.from({ length: 40 }, () => me()));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // One worker may answer while the other still starts (a death then stops the service by design): the primary
    // announces the first-start tenant once every worker listens.
    for (const until = Date.now() + 60_000; !output().includes("Created tenant 'pair'");) {
      if (Date.now() > until) throw new Error(`the primary never announced the service:\n${output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    process.kill(workers[0], 'SIGKILL');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const now = leaves(child.pid!);
      if (now.length === 2 && !now.includes(workers[0])) break;
      if (Date.now() > deadline) throw new Error(`no replacement worker within 60 s:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The replacement reports itself only once it listens; until then the other worker serves alone.
    for (;;) {
      const again = await Promise.all(Array.from({ length: 20 }, () => me()));
      if (again.every((s) => s === 200)) break;
      if (Date.now() > deadline) throw new Error(`requests still failing after the replacement: ${again.join(',')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output()).toContain('worker exited; starting another');

    // The primary's own SIGTERM (npm does not pass signals on through its shell): it stops its workers and exits, and npm with it.
    const all = [child.pid!, ...descendants(child.pid!)];
    const primary = Number(readFileSync(`/proc/${workers[1]}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
    process.kill(primary, 'SIGTERM');
    expect(await gone(all)).toEqual([]);
  }, 180_000);
});
