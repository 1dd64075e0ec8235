/**
 * The Prometheus metrics of one process, on prom-client's default registry: what core/observe reports, the requests
 * (server/telemetry/requests), the database pools, the sign-in queue and the notification outbox read at scrape
 * time, and Node's process metrics. Every label takes values from a closed set (operationIds, kinds, outcomes):
 * never an id, a tenant or a path. docs/observability.md lists each metric.
 */
import cluster from 'node:cluster';
import type { Sequelize } from 'sequelize';
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';
import { addObserver, type Observer, type StatementKind } from '../../core/observe';
import { hashingQueueLength } from '../../core/passwords';
import { poolUsage } from '../../models/sequelize-adapter';
import { countByState, DELIVERY_STATES, type DeliveryState, type Notifications } from '../../models/notification';
import { answerPrimary } from './cluster-metrics';
import { FastHistogram } from './fast-histogram';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requestSeconds = new FastHistogram(
  'http_server_request_duration_seconds',
  'Requests by operationId (or a fixed name outside the API), method and status class, from arrival to the last byte',
  ['operation', 'method', 'status_class'],
  SECONDS,
);

let inFlight = 0;
new Gauge({
  name: 'http_server_requests_in_flight',
  help: 'Requests received and not yet answered',
  collect() { this.set(inFlight); },
});

const pools = new Set<Sequelize>();
new Gauge({
  name: 'db_pool_connections',
  help: 'Pooled database connections by state: used (lent to a statement or transaction) or idle',
  labelNames: ['state'] as const,
  collect() {
    let used = 0, idle = 0;
    for (const sequelize of pools) {
      const usage = poolUsage(sequelize);
      used += usage.used;
      idle += usage.idle;
    }
    this.set({ state: 'used' }, used);
    this.set({ state: 'idle' }, idle);
  },
});
new Gauge({
  name: 'db_pool_waiting',
  help: 'Statements and transactions waiting for a pooled connection',
  collect() {
    let waiting = 0;
    for (const sequelize of pools) waiting += poolUsage(sequelize).waiting;
    this.set(waiting);
  },
});

/** The outbox is counted at most this often per process, and a scrape waits at most this long for the count. */
const OUTBOX_MAX_AGE_MS = 5_000;
const OUTBOX_WAIT_MS = 1_000;
let outbox: { at: number; counts: Record<DeliveryState, number> | null } = { at: -Infinity, counts: null };
let counting: Promise<void> | undefined;

/**
 * The outbox's states, counted by one grouped statement on the first registered database whose models are defined
 * (a process has one; a test process may have several on one database). A database that fails leaves no count, so
 * the series disappear rather than go stale; one slower than OUTBOX_WAIT_MS leaves the last count in the scrape
 * while its answer is awaited for the next.
 */
async function outboxCounts(): Promise<Record<DeliveryState, number> | null> {
  if (performance.now() - outbox.at < OUTBOX_MAX_AGE_MS) return outbox.counts;
  const sequelize = [...pools].find((s) => s.isDefined('Notification'));
  if (!sequelize) return null;
  counting ??= countByState(sequelize.models.Notification as Notifications).then(
    (counts) => { outbox = { at: performance.now(), counts }; },
    () => { outbox = { at: performance.now(), counts: null }; },
  ).finally(() => { counting = undefined; });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([counting, new Promise((resolve) => { timer = setTimeout(resolve, OUTBOX_WAIT_MS); })]);
  clearTimeout(timer);
  return outbox.counts;
}

new Gauge({
  name: 'notifications',
  help: 'Notifications in the outbox: pending (not tried yet), failed (tried, waiting for a retry), sent, dead (retries given up); counted at most every 5 s, absent while the database does not answer',
  labelNames: ['status'] as const,
  // Every worker counts the one table: the cluster's value is one worker's, not their sum.
  aggregator: 'first',
  async collect() {
    const counts = await outboxCounts();
    this.reset();
    if (counts) for (const status of DELIVERY_STATES) this.set({ status }, counts[status]);
  },
});

const statementSeconds = new FastHistogram(
  'db_statement_duration_seconds',
  'Database statements by kind (their first keyword), from sending to the answer',
  ['operation'],
  [0.0005, ...SECONDS],
);

const tokenGrants = new Counter({
  name: 'auth_token_grants_total',
  help: 'Token requests of the embedded issuer by grant type and outcome (issued, or the OAuth error code)',
  labelNames: ['grant_type', 'outcome'] as const,
});

new Gauge({
  name: 'auth_sign_in_queue_length',
  help: 'Password and client-secret derivations waiting for a free slot (one per core)',
  collect() { this.set(hashingQueueLength()); },
});

const auditEntries = new Counter({
  name: 'audit_entries_written_total',
  help: 'Audit history entries written by committed transactions',
});

const recipientsWithoutAddress = new Counter({
  name: 'notification_recipients_skipped_total',
  help: 'Recipients of a notification left out because they have no e-mail address',
});

const providerCalls = new Counter({
  name: 'provider_calls_total',
  help: 'Calls to external providers (Aiven, Confluent Cloud, schema registries, Kafka admin sessions) by outcome',
  labelNames: ['provider', 'outcome'] as const,
});
const providerSeconds = new Histogram({
  name: 'provider_call_duration_seconds',
  help: 'Duration of calls to external providers',
  labelNames: ['provider'] as const,
  buckets: SECONDS,
});

const asyncApiCache = new Counter({
  name: 'asyncapi_cache_requests_total',
  help: 'AsyncAPI document cache lookups by result (hit or miss)',
  labelNames: ['result'] as const,
});

type Observe = { observe(seconds: number): void };
const statementChildren = new Map<StatementKind, Observe>();
const STATUS_CLASSES = ['aborted', '1xx', '2xx', '3xx', '4xx', '5xx'];
/** method → operation → one child per status class: no label object or key string is built per request. */
const requestChildren = new Map<string, Map<string, Observe[]>>();

/** One request answered (or abandoned: `status` 0) after `seconds`. */
export function requestObserved(operation: string, method: string, status: number, seconds: number): void {
  let byOperation = requestChildren.get(method);
  if (!byOperation) requestChildren.set(method, (byOperation = new Map()));
  let children = byOperation.get(operation);
  if (!children) {
    children = STATUS_CLASSES.map((statusClass) => requestSeconds.series(operation, method, statusClass));
    byOperation.set(operation, children);
  }
  const statusClass = status >= 100 && status < 600 ? Math.floor(status / 100) : 0;
  children[statusClass].observe(seconds);
}

export function requestBegan(): void {
  inFlight += 1;
}

export function requestEnded(): void {
  inFlight -= 1;
}

const observer: Observer = {
  statement(kind, _table, _system, startedAt, endedAt) {
    let child = statementChildren.get(kind);
    if (!child) statementChildren.set(kind, (child = statementSeconds.series(kind)));
    child.observe((endedAt - startedAt) / 1000);
  },
  tokenGrant(grantType, outcome) {
    tokenGrants.inc({ grant_type: grantType, outcome });
  },
  auditWritten(count) {
    auditEntries.inc(count);
  },
  recipientsSkipped(count) {
    recipientsWithoutAddress.inc(count);
  },
  asyncApiCache(hit) {
    asyncApiCache.inc({ result: hit ? 'hit' : 'miss' });
  },
  providerCall(call, startedAt) {
    return (outcome, endedAt) => {
      providerCalls.inc({ provider: call.provider, outcome });
      providerSeconds.observe({ provider: call.provider }, (endedAt - startedAt) / 1000);
    };
  },
};

let installed = false;

/** Starts collecting (once per process); `sequelize`'s pool counts from now until the answer is called. */
export function collectMetrics(sequelize: Sequelize): () => void {
  if (!installed) {
    installed = true;
    addObserver(observer);
    collectDefaultMetrics();
    if (cluster.isWorker) answerPrimary();
  }
  pools.add(sequelize);
  return () => { pools.delete(sequelize); };
}

/**
 * This process's metrics in the Prometheus text format. The outbox is counted first, so that its statement is in the
 * statement metrics of the same scrape.
 */
export async function localMetrics(): Promise<string> {
  await outboxCounts();
  return register.metrics();
}

export const METRICS_CONTENT_TYPE = register.contentType;
