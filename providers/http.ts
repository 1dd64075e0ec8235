/**
 * The one HTTP client of the provider adapters (Aiven, Confluent Cloud, schema registries): JSON over HTTPS with
 * an overall time bound, optional mutual TLS and a custom CA, and failures sorted the way docs/contract.md §10 answers them
 * (a refusal the caller can act on vs. a provider that cannot be reached or failed).
 */
import type { Agent, Dispatcher } from 'undici';
import { providerCallStarted, type ProviderOutcome } from '../core/observe';
import { networkReason, TLS_CODES } from './network-errors';
import { ProviderRejectedError, ProviderUnavailableError } from './types';

export interface HttpTls {
  /** PEM: the CA(s) to trust instead of the system's. */
  ca?: string;
  /** PEM: the client certificate and its private key, for mutual TLS. */
  cert?: string;
  key?: string;
  /** false: any server certificate is accepted (the caller asked for no CA validation). */
  rejectUnauthorized?: boolean;
}

export interface HttpOptions {
  /** Names the provider in messages: `AIVEN`, `CONFLUENT_CLOUD`, `APACHE_KAFKA`. */
  label: string;
  timeoutMs: number;
  headers?: Record<string, string>;
  tls?: HttpTls;
}

export interface HttpReply { status: number; body: unknown }

const CLOSED = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

/** Replies larger than this are a provider's failure, not something to hold in memory. */
const MAX_REPLY_BYTES = 32 * 1024 * 1024;


/**
 * GET `url` and parse its JSON. Statuses below 500 are returned for the adapter to read (401, 403, 404 mean
 * different things per provider); 5xx, a refused or reset connection, an unknown host and the time bound throw
 * ProviderUnavailableError; a TLS handshake the caller's certificates cannot complete throws ProviderRejectedError.
 */
export async function getJson(url: string, options: HttpOptions): Promise<HttpReply> {
  const host = hostOf(url);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  // Tracing adds `traceparent` here (core/observe); the credentials among these headers are never reported.
  const ended = providerCallStarted({ provider: options.label, method: 'GET', host, headers });
  const answer: { status?: number } = {};
  try {
    const reply = await exchange(url, options, host, headers, answer);
    ended(reply.status < 400 ? 'ok' : 'client_error', reply.status);
    return reply;
  } catch (err) {
    ended(outcomeOf(err, answer.status), answer.status);
    throw err;
  }
}

function outcomeOf(err: unknown, status: number | undefined): ProviderOutcome {
  if (err instanceof ProviderRejectedError) return 'refused';
  return status !== undefined && status >= 500 ? 'server_error' : 'unavailable';
}

/** The request itself; `answer.status` is set as soon as the provider answers, for the caller to report. */
async function exchange(url: string, options: HttpOptions, host: string, headers: Record<string, string>, answer: { status?: number }): Promise<HttpReply> {
  const { label, timeoutMs } = options;
  // Loaded on the first provider call: most processes never make one, and undici is a large module to hold.
  const undici = await import('undici');
  const dispatcher = options.tls ? tlsAgent(undici.Agent, options.tls) : undefined;
  try {
    let reply: Dispatcher.ResponseData;
    try {
      reply = await undici.request(url, {
        method: 'GET',
        headers,
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      throw classify(err, label, host, timeoutMs, Boolean(options.tls?.cert));
    }
    answer.status = reply.statusCode;
    const text = await readLimited(reply.body, label, host, timeoutMs);
    if (reply.statusCode >= 500) throw new ProviderUnavailableError(`${label}: ${host} answered ${reply.statusCode}`);
    let body: unknown = null;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        if (reply.statusCode < 300) throw new ProviderUnavailableError(`${label}: ${host} answered ${reply.statusCode} with a body that is not JSON`);
        body = text;
      }
    }
    return { status: reply.statusCode, body };
  } finally {
    if (dispatcher) void dispatcher.close().catch(() => undefined);
  }
}

function tlsAgent(AgentClass: typeof Agent, tls: HttpTls): Agent {
  return new AgentClass({
    connect: { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: tls.rejectUnauthorized ?? true },
  });
}

async function readLimited(body: Dispatcher.ResponseData['body'], label: string, host: string, timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > MAX_REPLY_BYTES) {
        body.destroy();
        throw new ProviderUnavailableError(`${label}: ${host} sent a reply larger than ${MAX_REPLY_BYTES / 1048576} MiB`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw err instanceof ProviderUnavailableError ? err : classify(err, label, host, timeoutMs);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** An error of the request as the adapters' callers answer it; the message never echoes headers or credentials. */
export function classify(err: unknown, label: string, host: string, timeoutMs: number, clientCertificate = false): Error {
  if (err instanceof ProviderRejectedError || err instanceof ProviderUnavailableError) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code ?? '';
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /TIMEOUT/.test(code)) {
    return new ProviderUnavailableError(`${label}: ${host} did not answer within ${Math.round(timeoutMs / 100) / 10} s`);
  }
  if (TLS_CODES.test(code)) {
    return new ProviderRejectedError(`${label}: TLS handshake with ${host} failed (${code}): check the certificate, key and truststore`);
  }
  // A server that refuses a client certificate closes the connection right after the handshake (TLS 1.3 sends its
  // alert after the client has finished): with one sent, that is far likelier a refusal than an outage.
  if (clientCertificate && CLOSED.has(code)) {
    return new ProviderRejectedError(`${label}: ${host} closed the connection after the TLS handshake: it does not accept the client certificate`);
  }
  const reason = code ? networkReason(code) : (e.cause?.message ?? (err as Error)?.message ?? 'connection failed');
  return new ProviderUnavailableError(`${label}: ${host} cannot be reached (${reason})`);
}
