/** Runtime configuration read once from the environment (docs/contract.md §1.1). */
import { availableParallelism } from 'node:os';
import { parseBrowserClients, parseRedirectUris, type BrowserClientSettings } from './browser-client-settings';
import { ConfigError } from './config-error';
import { COMPATIBILITY_MODES, isCompatibilityMode, type CompatibilityMode } from './rules/compatibility-mode';

export interface Config {
  port: number;
  basePath: string;
  /** Set when an external Keycloak-style IdP is used; unset → the embedded issuer serves `{publicUrl}/auth`. */
  externalAuthUrl?: string;
  publicUrl?: string;
  databaseUrl?: string;
  /** Connections each process's database pool holds at most, 10 (`DATABASE_POOL_MAX`; models/db.ts). */
  databasePoolMax: number;
  dataDir: string;
  bootstrapTenant: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword?: string;
  maxBodyBytes: number;
  /** Issuers whose signed assertions the embedded issuer accepts for federated service accounts (`TRUSTED_ISSUERS`). */
  trustedIssuers: TrustedIssuer[];
  /** Validate every response against the OpenAPI document (switched on in tests). */
  validateResponses: boolean;
  logLevel: string;
  /** External providers' REST APIs (docs/contract.md §10): the public ones unless set (tests point them at loopback fakes). */
  aivenApiUrl: string;
  confluentCloudApiUrl: string;
  /** The bound of every outbound provider call, 10 s (`PROVIDER_TIMEOUT_MS`). */
  providerTimeoutMs: number;
  /** `npm start`'s worker processes sharing the port (`WORKERS`, default the core count; 1 = no cluster). */
  workers: number;
  /** Set: `/metrics` is served on this port only, not on the API port (`METRICS_PORT`; docs/observability.md). */
  metricsPort?: number;
  /** Traces are exported (OpenTelemetry SDK configured by `OTEL_*`): an OTLP endpoint or a trace exporter is set. */
  tracing: boolean;
  /** How long a stopping process waits for the requests it is serving, 10 s (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /** A request's header block must have arrived within this, 20 s (`HEADERS_TIMEOUT_MS`). */
  headersTimeoutMs: number;
  /** A whole request, body included, must have arrived within this, 60 s (`REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  /** Requests one keep-alive connection serves before it is closed, 1000 (`MAX_REQUESTS_PER_CONNECTION`). */
  maxRequestsPerConnection: number;
  /** Connections one process holds open at once; more are closed at once, 1000 (`MAX_CONNECTIONS`). */
  maxConnections: number;
  /** The embedded issuer's brute-force detection (`LOCKOUT_*`; auth/brute-force.ts). */
  lockout: LockoutSettings;
  /** Sign-ins one process holds at once, waiting for or running their hash; past it the token endpoint answers 503 (`SIGN_IN_QUEUE`). */
  signInQueue: number;
  /** How often each process revokes the grants past their `expiresAt`, 60 s; 0 turns its sweep off (`ACCESS_EXPIRY_SWEEP_MS`). */
  accessExpirySweepMs: number;
  /**
   * The compatibility mode of a schema created by an upload that names none (issue 45), `SCHEMA_COMPATIBILITY_DEFAULT`:
   * NONE unless set, so the clients that upload versions freely (the Terraform provider) keep working (ADR 0016).
   */
  schemaCompatibilityDefault: CompatibilityMode;
  /** The browser clients of the embedded issuer besides its own (`BROWSER_CLIENTS`, `SELF_SERVICE_REDIRECT_URIS`). */
  browserClients: BrowserClientSettings;
  /** Keycloak's SSO Session Idle (`SSO_SESSION_IDLE_SECONDS`, 1800) and Max (`SSO_SESSION_MAX_SECONDS`, 36000). */
  ssoSession: { idleSeconds: number; maxSeconds: number };
  /**
   * Notification delivery (issue 44): `SMTP_URL` (smtp:// or smtps://; unset: each mail is a log line), `MAIL_FROM`,
   * and how often each process looks for due messages, `NOTIFY_INTERVAL_MS` (1 s; 0: this process delivers none);
   * how long a claimed message is held before another process may take it over, `NOTIFY_LEASE_MS` (60 s: longer
   * than any one send's bounds); webhook URLs over plain http (`WEBHOOK_ALLOW_HTTP`) and to loopback, private or
   * link-local addresses (`WEBHOOK_ALLOW_PRIVATE`), both off unless set to `true`.
   */
  notifications: { smtpUrl?: string; mailFrom: string; intervalMs: number; leaseMs: number; webhookAllowHttp: boolean; webhookAllowPrivate: boolean };
}

/** Keycloak's brute-force detection settings, under its names and with its defaults. */
export interface LockoutSettings {
  /** Failed sign-ins of one account that lock it (`LOCKOUT_FAILURES`, Keycloak's failureFactor, 30). */
  failureFactor: number;
  /** The wait each further `failureFactor` failures add (`LOCKOUT_WAIT_INCREMENT_SECONDS`, 60). */
  waitIncrementSeconds: number;
  /** The longest wait (`LOCKOUT_MAX_WAIT_SECONDS`, 900). */
  maxFailureWaitSeconds: number;
  /** A failure this long after the previous one starts the count afresh (`LOCKOUT_FAILURE_RESET_SECONDS`, 43200). */
  maxDeltaTimeSeconds: number;
}

/** One entry of `TRUSTED_ISSUERS`: an external identity provider (workload identity, CI) a service account may be bound to. */
export interface TrustedIssuer {
  /** Compared with the assertion's `iss` exactly, as a string. */
  issuer: string;
  /** Where the issuer publishes its RS256 keys (http or https). */
  jwksUri: string;
  /** When set, the assertion's `aud` must contain one of these. */
  audience?: string[];
}

export { ConfigError };

/** Where the embedded PostgreSQL and the key file live unless DATA_DIR says otherwise (relative to the working directory). */
export const DEFAULT_DATA_DIR = './.data';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: env.PORT ? Number(env.PORT) : 8080,
    basePath: env.BASE_PATH || '/api',
    externalAuthUrl: env.AUTH_URL ? env.AUTH_URL.replace(/\/+$/, '') : undefined,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolMax: databasePoolMax(env),
    dataDir: env.DATA_DIR || DEFAULT_DATA_DIR,
    bootstrapTenant: env.BOOTSTRAP_TENANT || 'demo',
    bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL || 'admin@demo.local',
    bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || undefined,
    maxBodyBytes: env.MAX_BODY_BYTES ? Number(env.MAX_BODY_BYTES) : 5 * 1024 * 1024,
    trustedIssuers: parseTrustedIssuers(env.TRUSTED_ISSUERS),
    validateResponses: env.VALIDATE_RESPONSES === '1' || env.VALIDATE_RESPONSES === 'true',
    logLevel: env.LOG_LEVEL || 'info',
    aivenApiUrl: (env.AIVEN_API_URL || 'https://api.aiven.io').replace(/\/+$/, ''),
    confluentCloudApiUrl: (env.CONFLUENT_CLOUD_API_URL || 'https://api.confluent.cloud').replace(/\/+$/, ''),
    providerTimeoutMs: positiveInt(env.PROVIDER_TIMEOUT_MS, 'PROVIDER_TIMEOUT_MS', 'milliseconds') ?? 10_000,
    workers: positiveInt(env.WORKERS, 'WORKERS', 'processes') ?? availableParallelism(),
    metricsPort: metricsPort(env),
    tracing: tracingWanted(env),
    shutdownTimeoutMs: positiveInt(env.SHUTDOWN_TIMEOUT_MS, 'SHUTDOWN_TIMEOUT_MS', 'milliseconds') ?? 10_000,
    ...clientBounds(env),
    lockout: {
      failureFactor: positiveInt(env.LOCKOUT_FAILURES, 'LOCKOUT_FAILURES', 'failed sign-ins') ?? 30,
      waitIncrementSeconds: positiveInt(env.LOCKOUT_WAIT_INCREMENT_SECONDS, 'LOCKOUT_WAIT_INCREMENT_SECONDS', 'seconds') ?? 60,
      maxFailureWaitSeconds: positiveInt(env.LOCKOUT_MAX_WAIT_SECONDS, 'LOCKOUT_MAX_WAIT_SECONDS', 'seconds') ?? 900,
      maxDeltaTimeSeconds: positiveInt(env.LOCKOUT_FAILURE_RESET_SECONDS, 'LOCKOUT_FAILURE_RESET_SECONDS', 'seconds') ?? 43_200,
    },
    signInQueue: positiveInt(env.SIGN_IN_QUEUE, 'SIGN_IN_QUEUE', 'sign-ins') ?? 64,
    schemaCompatibilityDefault: compatibilityMode(env.SCHEMA_COMPATIBILITY_DEFAULT),
    accessExpirySweepMs: env.ACCESS_EXPIRY_SWEEP_MS?.trim() === '0' ? 0 : positiveInt(env.ACCESS_EXPIRY_SWEEP_MS, 'ACCESS_EXPIRY_SWEEP_MS', 'milliseconds (0: off)') ?? 60_000,
    browserClients: { clients: parseBrowserClients(env.BROWSER_CLIENTS), selfServiceRedirectUris: parseRedirectUris(env.SELF_SERVICE_REDIRECT_URIS) },
    ssoSession: ssoSession(env),
    notifications: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      mailFrom: env.MAIL_FROM?.trim() || 'Streaming platform <platform@localhost>',
      intervalMs: env.NOTIFY_INTERVAL_MS?.trim() === '0' ? 0 : positiveInt(env.NOTIFY_INTERVAL_MS, 'NOTIFY_INTERVAL_MS', 'milliseconds (0: off)') ?? 1000,
      leaseMs: positiveInt(env.NOTIFY_LEASE_MS, 'NOTIFY_LEASE_MS', 'milliseconds') ?? 60_000,
      webhookAllowHttp: flag(env.WEBHOOK_ALLOW_HTTP, 'WEBHOOK_ALLOW_HTTP'),
      webhookAllowPrivate: flag(env.WEBHOOK_ALLOW_PRIVATE, 'WEBHOOK_ALLOW_PRIVATE'),
    },
  };
}

function compatibilityMode(value: string | undefined): CompatibilityMode {
  const mode = value?.trim().toUpperCase() || 'NONE';
  if (!isCompatibilityMode(mode)) throw new ConfigError(`SCHEMA_COMPATIBILITY_DEFAULT must be one of ${COMPATIBILITY_MODES.join(', ')}`);
  return mode;
}

/** A switch that is off unless set to `true` (or `1`); anything else but `false`/`0`/empty is refused, naming it. */
function flag(value: string | undefined, name: string): boolean {
  const v = value?.trim().toLowerCase() ?? '';
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw new ConfigError(`${name} must be true or false`);
}

/** An SMTP server's URL, or none; anything but smtp:// or smtps:// is refused at start, naming the setting. */
function smtpUrl(value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://mail.example.com:587 or smtps://user:password@mail.example.com');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  return v;
}

/** Keycloak's SSO session lifetimes; a maximum shorter than the idle time would end every session early. */
function ssoSession(env: NodeJS.ProcessEnv): Config['ssoSession'] {
  const idleSeconds = positiveInt(env.SSO_SESSION_IDLE_SECONDS, 'SSO_SESSION_IDLE_SECONDS', 'seconds') ?? 1800;
  const maxSeconds = positiveInt(env.SSO_SESSION_MAX_SECONDS, 'SSO_SESSION_MAX_SECONDS', 'seconds') ?? 36_000;
  if (maxSeconds < idleSeconds) throw new ConfigError(`SSO_SESSION_MAX_SECONDS (${maxSeconds}) must not be below SSO_SESSION_IDLE_SECONDS (${idleSeconds})`);
  return { idleSeconds, maxSeconds };
}

/** `DATABASE_POOL_MAX`: the most connections one process's pool opens to the database, for every dialect. */
export function databasePoolMax(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInt(env.DATABASE_POOL_MAX, 'DATABASE_POOL_MAX', 'connections') ?? 10;
}

/** The bounds of what one client may hold (server/connection-limits.ts); the headers come within the whole request. */
function clientBounds(env: NodeJS.ProcessEnv): Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxRequestsPerConnection' | 'maxConnections'> {
  const headersTimeoutMs = positiveInt(env.HEADERS_TIMEOUT_MS, 'HEADERS_TIMEOUT_MS', 'milliseconds') ?? 20_000;
  const requestTimeoutMs = positiveInt(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', 'milliseconds') ?? Math.max(60_000, headersTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request`);
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    maxRequestsPerConnection: positiveInt(env.MAX_REQUESTS_PER_CONNECTION, 'MAX_REQUESTS_PER_CONNECTION', 'requests') ?? 1000,
    maxConnections: positiveInt(env.MAX_CONNECTIONS, 'MAX_CONNECTIONS', 'connections') ?? 1000,
  };
}

/** `METRICS_PORT`: a TCP port other than the API's. */
function metricsPort(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.METRICS_PORT;
  if (raw === undefined || raw.trim() === '') return undefined;
  const port = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || port < 1 || port > 65535) throw new ConfigError(`METRICS_PORT must be a TCP port (1-65535), got "${raw}"`);
  if (port === Number(env.PORT || 8080)) throw new ConfigError(`METRICS_PORT must differ from PORT (both ${port}): unset METRICS_PORT to serve /metrics on the API port`);
  return port;
}

const TRACE_EXPORTERS = ['otlp', 'console', 'zipkin', 'none'];

/**
 * Traces are on when the OpenTelemetry SDK would export them: an OTLP endpoint is set or OTEL_TRACES_EXPORTER names
 * an exporter, and neither `OTEL_TRACES_EXPORTER=none` nor `OTEL_SDK_DISABLED=true` turns them off. An exporter the
 * SDK does not know stops the start rather than leaving traces silently off.
 */
function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
  const unknown = exporters.find((e) => !TRACE_EXPORTERS.includes(e));
  if (unknown !== undefined) throw new ConfigError(`OTEL_TRACES_EXPORTER must be one of ${TRACE_EXPORTERS.join(', ')}, got "${unknown}"`);
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || exporters.includes('none')) return false;
  return exporters.length > 0 || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * `TRUSTED_ISSUERS` = JSON `[{issuer, jwksUri, audience?}]` (`audience` a string or an array of strings).
 * Unset or blank → none. Anything malformed stops the start with a ConfigError naming the entry and field:
 * a silently ignored entry would surface much later as "invalid_grant" for every federated service account.
 */
export function parseTrustedIssuers(raw: string | undefined): TrustedIssuer[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new ConfigError(`TRUSTED_ISSUERS is not valid JSON (${(err as Error).message}); expected [{"issuer": "...", "jwksUri": "...", "audience": "..."}]`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError('TRUSTED_ISSUERS must be a JSON array of {issuer, jwksUri, audience?}');
  const seen = new Set<string>();
  return parsed.map((entry: unknown, i) => {
    const at = `TRUSTED_ISSUERS[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ConfigError(`${at} must be an object {issuer, jwksUri, audience?}`);
    const { issuer, jwksUri, audience } = entry as Record<string, unknown>;
    if (typeof issuer !== 'string' || issuer.trim() === '') throw new ConfigError(`${at}.issuer must be a non-empty string`);
    if (seen.has(issuer)) throw new ConfigError(`${at}.issuer ${issuer} is listed twice`);
    seen.add(issuer);
    if (typeof jwksUri !== 'string' || !isHttpUrl(jwksUri)) throw new ConfigError(`${at}.jwksUri must be an http(s) URL`);
    const trusted: TrustedIssuer = { issuer, jwksUri };
    if (audience !== undefined && audience !== null) {
      const list = typeof audience === 'string' ? [audience] : audience;
      if (!Array.isArray(list) || list.length === 0 || !list.every((a) => typeof a === 'string' && a !== '')) {
        throw new ConfigError(`${at}.audience must be a non-empty string or a non-empty array of them`);
      }
      trusted.audience = list as string[];
    }
    return trusted;
  });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An optional positive integer variable; anything else stops the start naming it. */
function positiveInt(raw: string | undefined, name: string, unit: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive whole number of ${unit}, got "${raw}"`);
  return n;
}
