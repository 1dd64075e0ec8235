/**
 * `npm start` on several cores: the primary process owns the database (embedded PostgreSQL is started once, by it),
 * migrates and bootstraps, then forks `WORKERS` processes that each run the whole API on the shared port (Node's
 * cluster hands connections round-robin). Nothing is shared between workers but the database, so any number of
 * them (or of hosts) stays consistent. A worker that dies after start-up is replaced; one that dies during
 * start-up stops the service, because a configuration error would only repeat.
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
  stop: () => Promise<void>;
}

const RESTART_DELAY_MS = 1_000;

export function forkWorkers(count: number, env: Record<string, string>): Workers {
  let stopping = false;
  let started = false;
  const live = new Set<Worker>();
  let resolveReady!: (r: WorkerReady) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<WorkerReady>((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  let listening = 0;
  let first: WorkerReady | undefined;

  function fork(): void {
    const worker = cluster.fork(env);
    live.add(worker);
    let reason: string | undefined;
    worker.on('message', (message: WorkerReady | WorkerFailed) => {
      if (message?.type === 'start-failed') reason ??= message.reason;
      if (message?.type !== 'listening' || started) return;
      first ??= message;
      listening += 1;
      if (listening === count) {
        started = true;
        resolveReady(first);
      }
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      if (!started) {
        const fail = () => rejectReady(new WorkerStartError(reason ?? `worker ${worker.process.pid} exited during start-up (code ${code}, signal ${signal})`));
        // A reason sent just before exiting is read from the channel before the channel reports it closed.
        if (worker.isConnected()) worker.once('disconnect', fail);
        else fail();
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
      setTimeout(() => { if (!stopping) fork(); }, RESTART_DELAY_MS).unref();
    });
  }

  for (let i = 0; i < count; i++) fork();
  return {
    ready,
    stop: async () => {
      stopping = true;
      const exits = [...live].map((w) => new Promise<void>((resolve) => {
        if (w.isDead()) return resolve();
        w.once('exit', () => resolve());
        w.process.kill('SIGTERM');
      }));
      await Promise.all(exits);
    },
  };
}
