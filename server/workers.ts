/**
 * `npm start` on several cores: the primary process owns the database (embedded PostgreSQL is started once, by it),
 * migrates and bootstraps, then forks `WORKERS` processes that each run the whole API on the shared port (Node's
 * cluster hands connections round-robin). Nothing is shared between workers but the database, so any number of
 * them (or of hosts) stays consistent. A worker that dies after start-up is replaced; one that dies during
 * start-up stops the service, because a configuration error would only repeat.
 *
 * A rolling restart replaces the workers one at a time: a new worker first, and only once it listens is an old one
 * stopped, cleanly (it finishes what it holds, as on SIGTERM). The port is served throughout by at least `WORKERS`
 * processes.
 */
import cluster, { type Worker } from 'node:cluster';
import { logger } from '../core/logger';

export interface WorkerReady { type: 'listening'; url: string; authUrl: string }
interface WorkerFailed { type: 'start-failed'; reason: string }

/** In a worker: tells the primary this process serves the port. */
export function reportListening(url: string, authUrl: string): void {
  process.send?.({ type: 'listening', url, authUrl } satisfies WorkerReady);
}

/** In a worker: tells the primary, in one line, why this process cannot serve (a port in use); resolves once sent. */
export function reportStartFailure(reason: string): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send({ type: 'start-failed', reason } satisfies WorkerFailed, undefined, {}, () => resolve());
  });
}

/** A worker exited before it served: the reason it reported, else its exit code. */
export class WorkerStartError extends Error {
  override name = 'WorkerStartError';
}

export interface Workers {
  /** The first worker's address once every worker listens. */
  ready: Promise<WorkerReady>;
  /** Replaces every worker, one at a time; a second call while one runs joins it. */
  restart: () => Promise<void>;
  /** Stops every worker cleanly (each finishes the requests it holds); resolves when all have exited. */
  stop: () => Promise<void>;
}

export interface WorkerOptions {
  /** The workers' own bound for finishing their requests (`SHUTDOWN_TIMEOUT_MS`); a worker still running well past it is killed. */
  shutdownTimeoutMs?: number;
}

const RESTART_DELAY_MS = 1_000;
/** Beyond the drain: closing the worker's database pool. */
const EXIT_GRACE_MS = 5_000;

export function forkWorkers(count: number, env: Record<string, string>, options: WorkerOptions = {}): Workers {
  const killAfterMs = (options.shutdownTimeoutMs ?? 10_000) + EXIT_GRACE_MS;
  let stopping = false;
  let started = false;
  let restarting: Promise<void> | undefined;
  const live = new Set<Worker>();
  /** Workers being stopped on purpose: their exit is not a crash. */
  const retiring = new Set<Worker>();
  /** A rolling restart's new workers until they listen: if one fails, the restart stops and the old one serves on. */
  const candidates = new Set<Worker>();

  function fork(): { worker: Worker; listening: Promise<WorkerReady> } {
    const worker = cluster.fork(env);
    live.add(worker);
    let reason: string | undefined;
    const listening = new Promise<WorkerReady>((resolve, reject) => {
      worker.on('message', (message: WorkerReady | WorkerFailed) => {
        if (message?.type === 'start-failed') reason ??= message.reason;
        if (message?.type === 'listening') resolve(message);
      });
      worker.once('exit', (code, signal) => {
        const fail = () => reject(new WorkerStartError(reason ?? `worker ${worker.process.pid} exited during start-up (code ${code}, signal ${signal})`));
        // A reason sent just before exiting is read from the channel before the channel reports it closed.
        if (worker.isConnected()) worker.once('disconnect', fail);
        else fail();
      });
    });
    listening.catch(() => undefined);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      const retired = retiring.delete(worker);
      if (stopping || retired || candidates.has(worker)) return;
      if (!started) {
        // During start-up any exit fails the start, with the worker's own reason when it sent one.
        const exited = new WorkerStartError(`worker ${worker.process.pid} exited during start-up (code ${code}, signal ${signal})`);
        listening.then(() => failStart(exited), failStart);
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
      setTimeout(() => { if (!stopping) fork(); }, RESTART_DELAY_MS).unref();
    });
    return { worker, listening };
  }

  /** SIGTERM, then waits for the exit; a worker that outlives its own bound by far is killed. */
  function retire(worker: Worker): Promise<void> {
    if (worker.isDead()) return Promise.resolve();
    retiring.add(worker);
    return new Promise<void>((resolve) => {
      const kill = setTimeout(() => {
        logger.error({ pid: worker.process.pid }, 'worker did not stop in time; killing it');
        worker.process.kill('SIGKILL');
      }, killAfterMs);
      worker.once('exit', () => { clearTimeout(kill); resolve(); });
      worker.process.kill('SIGTERM');
    });
  }

  async function replaceAll(): Promise<void> {
    logger.info({ workers: live.size }, 'rolling restart: replacing the workers one at a time');
    for (const old of [...live]) {
      if (stopping) return;
      if (old.isDead() || retiring.has(old)) continue;
      const next = fork();
      candidates.add(next.worker);
      try {
        await next.listening;
      } catch (err) {
        if (!stopping) logger.error({ err: (err as Error).message }, 'rolling restart stopped: a new worker did not start; the others serve on');
        return;
      } finally {
        candidates.delete(next.worker);
      }
      await retire(old);
    }
    logger.info({ workers: live.size }, 'rolling restart done');
  }

  let failStart!: (err: Error) => void;
  const startFailed = new Promise<never>((_resolve, reject) => { failStart = reject; });
  const initial = Array.from({ length: count }, () => fork());
  const ready = Promise.race([Promise.all(initial.map((f) => f.listening)), startFailed]).then(([first]) => {
    started = true;
    return first;
  });
  return {
    ready,
    restart: () => {
      if (stopping) return Promise.resolve();
      return (restarting ??= replaceAll().finally(() => { restarting = undefined; }));
    },
    stop: async () => {
      stopping = true;
      await Promise.all([...live].map(retire));
    },
  };
}
