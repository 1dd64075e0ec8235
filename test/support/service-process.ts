/**
 * The real `npm start` (test/support/npm-start) on a fresh database of the suite's server, for the tests of
 * signals, stops and the worker cluster: its processes by role; and plain HTTP requests on a fresh connection each,
 * alone or as a load.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { tree } from '../../scripts/bench-procs';
import { freePort } from '../../scripts/embedded-postgres';
import { npmStart } from './npm-start';
import { createRunDatabase } from './run-database';

export interface Service {
  port: number;
  tenant: string;
  admin: { username: string; password: string };
  /** The `node` process npm runs: the primary of a cluster, or the one server. */
  primary: number;
  /** The primary's children (the workers; none with WORKERS=1). */
  workers: () => number[];
  output: () => string;
  /** npm's exit code once it has exited (npm exits with the code of the process it ran). */
  exited: Promise<number | null>;
  /** Kills what is still running and drops the database. */
  cleanUp: () => Promise<void>;
}

const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/** Waits until none of `pids` runs any more (60 s at most); answers those still running. */
export async function gone(pids: number[]): Promise<number[]> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && pids.some(alive);) await pause(50);
  return pids.filter(alive);
}

/**
 * SIGKILL to the process group of each npm pid, whoever of it is left (npm may be gone while a process it started
 * runs on), and waits until all of them have gone.
 */
export async function killGroups(npmPids: number[]): Promise<void> {
  const all = npmPids.flatMap((pid) => tree(pid));
  for (const pid of npmPids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch { /* nobody left */ }
  }
  await gone(all);
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 50 ms for at most `seconds`; fails naming `what`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, seconds = 60, output?: () => string): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; !(await condition());) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s${output ? `\n${output()}` : ''}`);
    await pause(50);
  }
}

/** `npm start` with WORKERS=`workers`; answers once it announces that it listens (every worker does). */
export async function startService(tenant: string, workers: number): Promise<Service> {
  const db = await createRunDatabase(inject('databaseUrl'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-service-'));
  const port = await freePort();
  const admin = { username: `admin@${tenant}.test`, password: `${tenant}-admin-password-1` };
  const npm = npmStart({
    DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_TENANT: tenant, BOOTSTRAP_ADMIN_EMAIL: admin.username,
    BOOTSTRAP_ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'info', WORKERS: String(workers),
  });
  const output = () => `${npm.stdout()}\n${npm.stderr()}`;
  const cleanUp = async () => {
    await killGroups([npm.pid]);
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await npm.printed('platform management service listening', 120_000);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // npm runs a shell that runs node: the primary is the first node process below npm.
  const primary = tree(npm.pid).find((pid) => /(^|\/)node$/.test(cmdline(pid).split('\0')[0]) && cmdline(pid).includes('start.mjs'))!;
  return {
    port, tenant, admin, primary, exited: npm.exited, cleanUp, output,
    workers: () => tree(primary).slice(1),
  };
}

export interface Answer { status: number; body: string; connection?: string }

/** One request on a connection of its own (no keep-alive: nothing is left open for a stopping server to close). */
export interface SendOptions {
  body?: string;
  headers?: Record<string, string>;
  /** Called once the whole request has been handed to the operating system. */
  sent?: () => void;
  /** Gives up on a connection silent for this long (error code `ETIMEDOUT`). */
  timeoutMs?: number;
}

export function send(port: number, method: string, target: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, agent: false, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })));
    if (options.sent) req.on('finish', options.sent);
    req.end(options.body);
  });
}

/** A password-grant token request: a sign-in, which hashes the password (scrypt, one per core at a time). */
export function signIn(service: Service, sent?: () => void): Promise<Answer> {
  const body = new URLSearchParams({ client_id: 'self-service', grant_type: 'password', ...service.admin }).toString();
  return send(service.port, 'POST', `/auth/realms/${service.tenant}/protocol/openid-connect/token`, {
    body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, sent,
  });
}

export async function accessToken(service: Service): Promise<string> {
  const answer = await signIn(service);
  if (answer.status !== 200) throw new Error(`sign-in: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

export interface Load {
  /** Answers by HTTP status, and failures by error code, so far. */
  statuses: Map<number, number>;
  failures: string[];
  answered: () => number;
  /** Ends the loops; resolves when their last requests have settled. */
  stop: () => Promise<void>;
}

/**
 * `concurrency` loops sending `GET target` one after another, each on a fresh connection: a keep-alive client that
 * sends on a connection the server is just closing as idle sees a reset, which HTTP leaves to the client to retry,
 * so a pooled client would measure its own retry policy rather than the service.
 */
export function load(port: number, target: string, headers: Record<string, string>, concurrency: number): Load {
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        const { status } = await send(port, 'GET', target, { headers, timeoutMs: 15_000 });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch (err) {
        failures.push(String((err as NodeJS.ErrnoException).code ?? (err as Error).message));
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    statuses, failures,
    answered: () => [...statuses.values()].reduce((a, b) => a + b, 0),
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}
