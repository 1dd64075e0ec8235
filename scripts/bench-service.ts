/**
 * The servers under test as child processes: the API exactly as `npm start` runs it (scripts/start.ts, its default
 * settings, the bench's database) with its cold start timed, and the bare baseline (bench-bare.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Api } from './bench-api';
import { freePort } from './embedded-postgres';
import { buildService, spawnScript, spawnStart, stopChild, tailOf } from './bench-procs';

export interface Server { origin: string; pid: number; stop: () => Promise<void> }

export interface ColdStart {
  /** ms from spawn. */
  info: number;
  token: number;
  user: number;
  /** The token request made on the first 200 of /api/info succeeded. */
  tokenAtOnce: boolean;
  /** Statuses /api/info answered before its first 200 (the port open too early would show here). */
  earlyAnswers: number[];
}

const START_TIMEOUT_MS = 180_000;
// A fixed key (as replicas share one): the signing keys a run seals in a DATABASE_URL database open on the next run.
const ENCRYPTION_KEY = createHash('sha256').update('npm run bench').digest('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with the status of GET `url`, or null while nothing listens. */
async function probe(url: string, headers?: Record<string, string>): Promise<number | null> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

function guard(child: ChildProcess, name: string): { check: () => void } {
  const tail = tailOf(child);
  return {
    check: () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${tail()}`);
    },
  };
}

function server(child: ChildProcess, origin: string): Server {
  return { origin, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * Starts the API and times it: /api/info polled every 20 ms from the spawn; on its first 200 a token is asked for at
 * once (retried until it works, which is then a finding), then GET /api/user with it. `extra`: more of the API's
 * environment (the import's AIVEN_API_URL).
 */
export async function startApi(env: { databaseUrl: string; dataDir: string; workers?: number; extra?: Record<string, string>; nodeFlags?: string[] }, api: (origin: string) => Api): Promise<{ server: Server; cold: ColdStart; api: Api }> {
  buildService();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const client = api(origin);
  // npm start's own settings: the log level and the worker count are its defaults unless the bench is told otherwise.
  const child = spawnStart({
    DATABASE_URL: env.databaseUrl, DATA_DIR: env.dataDir, PORT: String(port),
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    BOOTSTRAP_TENANT: client.tenant, BOOTSTRAP_ADMIN_EMAIL: client.email, BOOTSTRAP_ADMIN_PASSWORD: client.password,
    ...(env.workers !== undefined ? { WORKERS: String(env.workers) } : {}), ENCRYPTION_KEY, ...env.extra,
  }, env.nodeFlags);
  const { check } = guard(child, 'the API (npm start)');
  try {
    const earlyAnswers: number[] = [];
    for (;;) {
      check();
      if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error(`the API did not answer /api/info within ${START_TIMEOUT_MS / 1000} s`);
      const status = await probe(`${origin}/api/info`);
      if (status === 200) break;
      if (status !== null) earlyAnswers.push(status);
      await sleep(20);
    }
    const info = performance.now() - t0;
    let tokenAtOnce = true;
    while (!(await client.signIn())) {
      check();
      tokenAtOnce = false;
      if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error('no token from the API');
      await sleep(20);
    }
    const token = performance.now() - t0;
    const headers = await client.headers();
    while ((await probe(`${origin}/api/user`, headers)) !== 200) {
      check();
      if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error('GET /api/user never answered 200');
      await sleep(20);
    }
    const user = performance.now() - t0;
    return { server: server(child, origin), cold: { info, token, user, tokenAtOnce, earlyAnswers }, api: client };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

/** Starts bench-bare.ts on the database (PostgreSQL only). */
export async function startBare(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawnScript('scripts/bench-bare.ts', { DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: 'production' });
  const { check } = guard(child, 'bench-bare.ts');
  const t0 = performance.now();
  try {
    while ((await probe(`${origin}/streams/0`)) === null) {
      check();
      if (performance.now() - t0 > 60_000) throw new Error('bench-bare.ts did not start listening within 60 s');
      await sleep(50);
    }
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return server(child, origin);
}
