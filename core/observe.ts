/**
 * The one seam of what the service reports about itself. Instrumentation points (the statement hooks, the token
 * endpoint, the audit write, the provider clients, the AsyncAPI cache) call these functions; the server layer
 * attaches the observers behind them: metrics always, traces when tracing is on (server/telemetry). With nothing
 * attached each call is a loop over an empty list, so the layers below stay free of any telemetry library.
 *
 * Every value passed here becomes a metric label or a span attribute: only bounded values (a grant type, an
 * outcome, a provider, a statement kind, a table), never an id, a tenant, a path or anything a caller sent.
 */

/** The first keyword of a statement, as metrics and span names carry it. */
export type StatementKind = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE' | 'BEGIN' | 'COMMIT' | 'ROLLBACK' | 'SAVEPOINT' | 'SET' | 'OTHER';

/**
 * How a provider call ended: `ok` (answered below 400), `client_error` (answered 4xx, which the adapter reads),
 * `server_error` (answered 5xx), `refused` (the TLS handshake or the broker refused our credentials),
 * `unavailable` (not reached, reset, or not answered in time).
 */
export type ProviderOutcome = 'ok' | 'client_error' | 'server_error' | 'refused' | 'unavailable';

export interface ProviderCall {
  /** `AIVEN`, `CONFLUENT_CLOUD`, `APACHE_KAFKA`. */
  provider: string;
  /** `GET` for the HTTP providers, `admin` for the Kafka protocol. */
  method: string;
  /** The host called (the provider's API, a registry, the first bootstrap server): configuration, not a caller's id. */
  host: string;
  /**
   * The outbound HTTP headers, when there are any: an observer adds what carries the trace (`traceparent`) and
   * never reads or reports the others (credentials travel here).
   */
  headers?: Record<string, string>;
}

/** Ends a provider call: its outcome and, for HTTP, the status it answered. */
export type ProviderCallEnd = (outcome: ProviderOutcome, status?: number) => void;

export interface Observer {
  /** A statement ran from `startedAt` to `endedAt` (performance.now() milliseconds) on `system` (postgresql, mysql, mariadb). */
  statement?(kind: StatementKind, table: string | undefined, system: string, startedAt: number, endedAt: number): void;
  /** The token endpoint decided a grant: `outcome` is `issued` or the OAuth error code (`error` for a failure of ours). */
  tokenGrant?(grantType: string, outcome: string): void;
  /** Audit entries a committed transaction wrote. */
  auditWritten?(count: number): void;
  asyncApiCache?(hit: boolean): void;
  /** Recipients of a notification left out for want of an e-mail address (a group member without one). */
  recipientsSkipped?(count: number): void;
  /** A provider call starts at `startedAt`; the answer, if any, is called once when it ends. */
  providerCall?(call: ProviderCall, startedAt: number): ((outcome: ProviderOutcome, endedAt: number, status?: number) => void) | undefined;
}

const observers: Observer[] = [];

/** Attaches an observer; the answer detaches it again. */
export function addObserver(observer: Observer): () => void {
  observers.push(observer);
  return () => {
    const at = observers.indexOf(observer);
    if (at >= 0) observers.splice(at, 1);
  };
}

export function statementRan(kind: StatementKind, table: string | undefined, system: string, startedAt: number): void {
  if (observers.length === 0) return;
  const endedAt = performance.now();
  for (let i = 0; i < observers.length; i++) observers[i].statement?.(kind, table, system, startedAt, endedAt);
}

export function tokenGranted(grantType: string, outcome: string): void {
  for (let i = 0; i < observers.length; i++) observers[i].tokenGrant?.(grantType, outcome);
}

export function auditWritten(count: number): void {
  for (let i = 0; i < observers.length; i++) observers[i].auditWritten?.(count);
}

export function recipientsSkipped(count: number): void {
  for (let i = 0; i < observers.length; i++) observers[i].recipientsSkipped?.(count);
}

export function asyncApiCacheUsed(hit: boolean): void {
  for (let i = 0; i < observers.length; i++) observers[i].asyncApiCache?.(hit);
}

/** Call before sending (an observer may add headers); call the answer once the call has ended. */
export function providerCallStarted(call: ProviderCall): ProviderCallEnd {
  const startedAt = performance.now();
  const ends = observers.map((o) => o.providerCall?.(call, startedAt));
  let ended = false;
  return (outcome, status) => {
    if (ended) return;
    ended = true;
    const endedAt = performance.now();
    for (const end of ends) end?.(outcome, endedAt, status);
  };
}

const KINDS: readonly StatementKind[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'SET'];

/**
 * The kind of a statement from its first keyword (after blanks and opening parentheses: a UNION of parenthesised
 * SELECTs is a SELECT). `START TRANSACTION` is BEGIN, `WITH` a SELECT; anything else OTHER. No allocation on the
 * usual upper-case text.
 */
export function statementKind(sql: string | undefined): StatementKind {
  if (!sql) return 'OTHER';
  let i = 0;
  for (let c = sql.charCodeAt(i); c === 32 || c === 40 || c === 10 || c === 9 || c === 13; c = sql.charCodeAt(++i));
  for (const kind of KINDS) if (sql.startsWith(kind, i)) return kind;
  if (sql.startsWith('START', i)) return 'BEGIN';
  if (sql.startsWith('WITH', i)) return 'SELECT';
  const word = /^[A-Za-z]+/.exec(sql.slice(i, i + 12))?.[0].toUpperCase();
  if (word === 'START') return 'BEGIN';
  if (word === 'WITH') return 'SELECT';
  return (KINDS as readonly string[]).includes(word ?? '') ? word as StatementKind : 'OTHER';
}
