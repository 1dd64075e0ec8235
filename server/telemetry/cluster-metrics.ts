/**
 * The metrics of a worker cluster (server/workers) as one: each worker keeps its own registry, and the primary asks
 * every worker for its metrics over the cluster's IPC channel and adds them up (prom-client's aggregation: counters
 * and histograms summed, Node's process metrics each by its own rule). A worker that serves /metrics on the API port
 * asks the primary for that sum. Each message is one half of a request/response pair matched by id.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, register, type MetricObjectWithValues, type MetricValue } from 'prom-client';

type Metrics = MetricObjectWithValues<MetricValue<string>>[];
interface Message { type?: string; id?: number; metrics?: Metrics; text?: string; error?: string }

/** worker → primary: I answer from now on (a worker still starting is not asked). */
const READY = 'pms:metrics:ready';
/** primary → worker: your metrics, please; worker → primary: here they are. */
const COLLECT = 'pms:metrics:collect';
const COLLECTED = 'pms:metrics:collected';
/** worker → primary: the whole cluster's, please; primary → worker: here they are, as text. */
const ASK = 'pms:metrics:ask';
const ANSWER = 'pms:metrics:answer';

const TIMEOUT_MS = 5_000;

interface Waiting<T> { resolve: (value: T) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
let nextId = 0;

/** Registers a request under a new id; it fails on its own after TIMEOUT_MS. */
function awaitAnswer<T, W extends Waiting<T>>(pending: Map<number, W>, what: string, extra: Omit<W, keyof Waiting<T>>): { id: number; answer: Promise<T> } {
  const id = nextId++;
  const answer = new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`${what} did not answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    pending.set(id, { ...extra, resolve, reject, timer } as W);
  });
  return { id, answer };
}

function finish<T>(pending: Map<number, Waiting<T>>, id: number, outcome: { value?: T; error?: string }): void {
  const waiting = pending.get(id);
  if (!waiting) return;
  pending.delete(id);
  clearTimeout(waiting.timer);
  if (outcome.error !== undefined) waiting.reject(new Error(outcome.error));
  else waiting.resolve(outcome.value as T);
}

// In a worker.

const asked = new Map<number, Waiting<string>>();
let answering = false;

/** In a worker: answer the primary's collection requests, and receive its answers to ours. Once per process. */
export function answerPrimary(): void {
  if (answering) return;
  answering = true;
  process.on('message', (message: Message) => {
    if (message?.type === COLLECT) {
      register.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics }),
        (err: Error) => process.send?.({ type: COLLECTED, id: message.id, error: err.message }),
      );
    } else if (message?.type === ANSWER && message.id !== undefined) {
      finish(asked, message.id, { value: message.text, error: message.error });
    }
  });
  process.send?.({ type: READY });
}

/** In a worker: the whole cluster's metrics, from the primary. */
export function askPrimary(): Promise<string> {
  answerPrimary();
  const { id, answer } = awaitAnswer<string, Waiting<string>>(asked, 'the primary process', {});
  process.send?.({ type: ASK, id });
  return answer;
}

// In the primary.

interface Collection extends Waiting<Metrics[]> { replies: Metrics[]; missing: Set<number> }
const collections = new Map<number, Collection>();
const ready = new Set<number>();
let serving = false;

/** In the primary: collect from workers, and answer workers that ask for the sum. Once per process. */
export function serveWorkers(): void {
  if (serving) return;
  serving = true;
  cluster.on('message', (worker: Worker, message: Message) => {
    if (message?.type === READY) ready.add(worker.id);
    else if (message?.type === COLLECTED && message.id !== undefined) collected(worker, message.id, message);
    else if (message?.type === ASK) {
      clusterMetrics().then(
        (text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text }),
        (err: Error) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: err.message }),
      );
    }
  });
  // A worker that exits while asked is not waited for.
  cluster.on('exit', (worker: Worker) => {
    ready.delete(worker.id);
    for (const [id, collection] of collections) if (collection.missing.delete(worker.id)) complete(id, collection);
  });
}

function collected(worker: Worker, id: number, message: Message): void {
  const collection = collections.get(id);
  if (!collection?.missing.delete(worker.id)) return;
  if (message.error !== undefined) finish(collections, id, { error: message.error });
  else {
    collection.replies.push(message.metrics ?? []);
    complete(id, collection);
  }
}

function complete(id: number, collection: Collection): void {
  if (collection.missing.size === 0) finish(collections, id, { value: collection.replies });
}

/** In the primary: the metrics of every worker that has started, added up, in the Prometheus text format. */
export async function clusterMetrics(): Promise<string> {
  serveWorkers();
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && ready.has(w.id) && w.isConnected());
  if (workers.length === 0) return '';
  const { id, answer } = awaitAnswer<Metrics[], Collection>(collections, 'a worker process', { replies: [], missing: new Set(workers.map((w) => w.id)) });
  for (const worker of workers) worker.send({ type: COLLECT, id });
  return AggregatorRegistry.aggregate(await answer).metrics();
}
