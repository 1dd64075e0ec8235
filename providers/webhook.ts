/**
 * Sending one webhook call (issue 44): a POST of a CloudEvents 1.0 structured-mode JSON body, signed as the Standard
 * Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 with each of the
 * endpoint's secrets, so a receiver holding either side of a rotation verifies it).
 *
 * The receiver is an address an admin typed, so the call is fenced in: the URL is checked again when it is sent, the
 * addresses a host name resolves to are checked inside the lookup the socket connects with (one resolution, so the
 * name cannot rebind to another address between the check and the connection), redirects are not followed, and
 * connecting, the answer and the bytes read of it are bounded. Error messages carry a status and a short reason, never
 * a secret or a signature: they are stored with the delivery and shown to admins.
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { checkWebhookUrl, isForbiddenAddress, type WebhookUrlPolicy } from '../core/rules/webhook-address';
import { networkReason, TLS_CODES } from './network-errors';

export interface WebhookPolicy extends WebhookUrlPolicy {
  /** From the start of the call until the TCP connection stands (the name's lookup included). Default 5000. */
  connectTimeoutMs?: number;
  /** From the start of the call until the answer is read. Default 10000. */
  responseTimeoutMs?: number;
  /** The answer's body is read up to this many bytes, then the connection is dropped. Default 64 KiB. */
  maxResponseBytes?: number;
  /** Resolves host names; tests inject one. Default `dns.lookup`. */
  lookup?: typeof dns.lookup;
}

export interface WebhookCall {
  url: string;
  /** webhook-id: stable per message, so a receiver recognises a second delivery of it. */
  id: string;
  timestamp: Date;
  /** The CloudEvents JSON, sent and signed byte for byte as given. */
  body: string;
  /** `whsec_…` secrets, the current one first; each signs, so both sides of a rotation verify during the overlap. */
  secrets: string[];
}

export interface WebhookOutcome { status: number; ms: number }

const CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';
const USER_AGENT = 'streaming-platform-webhooks/1';
const MAX_MESSAGE = 300;
const MAX_EXCERPT = 200;

/** A call that did not succeed; `status` is the HTTP status when the endpoint answered, null when it did not. */
export class WebhookError extends Error {
  override readonly name = 'WebhookError';

  constructor(message: string, readonly status: number | null = null) {
    super(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);
  }
}

/** A new signing secret: 32 random bytes, base64, with the `whsec_` prefix the specification recommends. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The webhook-signature header: `v1,<base64>` per secret, separated by spaces. */
export function signatureOf(call: Pick<WebhookCall, 'id' | 'timestamp' | 'body' | 'secrets'>): string {
  if (call.secrets.length === 0) throw new Error('a webhook call needs at least one secret');
  return call.secrets.map((secret) => signer(secret).sign(call.id, call.timestamp, call.body)).join(' ');
}

function signer(secret: string): Webhook {
  try {
    return new Webhook(secret);
  } catch {
    // The library's own message is safe today; ours is certain to stay so.
    throw new Error('a webhook secret is not a whsec_ base64 key');
  }
}

/**
 * POST `call` to its URL. Resolves on a 2xx answer (its body beyond the bound dropped); throws WebhookError otherwise:
 * with the status for any other answer (3xx included: redirects are not followed), without one for a refused
 * address, a network failure or a timeout.
 */
export async function postWebhook(call: WebhookCall, policy: WebhookPolicy): Promise<WebhookOutcome> {
  const refused = checkWebhookUrl(call.url, policy);
  if (refused) throw new WebhookError(`refused: the URL ${refused}`);
  const signature = signatureOf(call);
  const body = Buffer.from(call.body, 'utf8');
  const headers = {
    'content-type': CONTENT_TYPE,
    'content-length': String(body.length),
    'user-agent': USER_AGENT,
    'webhook-id': call.id,
    'webhook-timestamp': String(Math.floor(call.timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  // What an answer could echo back (a debugging endpoint returns the request's headers) and must not reach a message.
  const hidden = [...call.secrets.map((s) => s.replace(/^whsec_/, '')), ...signature.split(' ').map((s) => s.slice('v1,'.length))];
  return exchange(new URL(call.url), headers, body, policy, hidden);
}

/** The status line and the first bytes of the body, as far as they have arrived. */
interface Answer { status: number; chunks: Buffer[] }

function exchange(url: URL, headers: Record<string, string>, body: Buffer, policy: WebhookPolicy, hidden: string[]): Promise<WebhookOutcome> {
  const connectMs = policy.connectTimeoutMs ?? 5_000;
  const responseMs = policy.responseTimeoutMs ?? 10_000;
  const maxBytes = policy.maxResponseBytes ?? 64 * 1024;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest | undefined;
    let answer: Answer | undefined;
    let settled = false;
    const settle = (result: WebhookError | number) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      // Whatever is still coming (the rest of a large body, an answer after a timeout) is dropped with the socket.
      request?.destroy();
      if (result instanceof WebhookError) reject(result);
      else resolve({ status: result, ms: Math.round(performance.now() - started) });
    };
    // Once the status line is in, its answer stands: a body cut short by the bounds does not change it.
    const settleAnswer = (a: Answer) => settle(verdict(a.status, Buffer.concat(a.chunks), hidden));
    const connectTimer = setTimeout(() => settle(new WebhookError(`timed out after ${connectMs} ms connecting`)), connectMs);
    const responseTimer = setTimeout(() => (answer ? settleAnswer(answer) : settle(new WebhookError(`timed out after ${responseMs} ms waiting for the answer`))), responseMs);
    try {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        headers,
        // A connection of its own: every call resolves and checks its host again, and nothing lingers after it.
        agent: false,
        lookup: guardedLookup(policy),
      });
    } catch (err) {
      settle(failure(err));
      return;
    }
    request.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (err) => settle(failure(err)));
    request.on('response', (response) => {
      const current: Answer = { status: response.statusCode ?? 0, chunks: [] };
      answer = current;
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < maxBytes) current.chunks.push(chunk.subarray(0, maxBytes - size));
        size += chunk.length;
        if (size >= maxBytes) settleAnswer(current);
      });
      response.on('end', () => settleAnswer(current));
      response.on('error', () => settleAnswer(current));
    });
    request.end(body);
  });
}

/** The status's outcome: a 2xx is the status, anything else an error with its status and the start of its body. */
function verdict(status: number, body: Buffer, hidden: string[]): WebhookError | number {
  if (status >= 200 && status < 300) return status;
  if (status >= 300 && status < 400) return new WebhookError(`HTTP ${status}: redirects are not followed`, status);
  const excerpt = excerptOf(body, hidden);
  return new WebhookError(excerpt ? `HTTP ${status}: ${excerpt}` : `HTTP ${status}`, status);
}

/** The body's first characters on one line, with any secret or signature it echoes blanked out. */
function excerptOf(body: Buffer, hidden: string[]): string {
  let text = body.toString('utf8');
  for (const value of hidden) if (value) text = text.split(value).join('[redacted]');
  return text
    .replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, MAX_EXCERPT)
    .replace(/[\ud800-\udbff]$/, '');
}

/**
 * The socket's own lookup: the addresses it is about to connect to are the ones checked. Every address is checked,
 * whether the socket asks for one or (trying each family in turn) for all, and a name with any forbidden address is
 * refused as a whole.
 */
function guardedLookup(policy: WebhookPolicy): LookupFunction {
  const lookup = policy.lookup ?? dns.lookup;
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      if (addresses.length === 0) return callback(new WebhookError('host name not found'), '');
      const forbidden = policy.allowPrivate ? undefined : addresses.map((a) => isForbiddenAddress(a.address)).find((why) => why !== null);
      if (forbidden) return callback(new WebhookError(`refused: the host resolves to ${forbidden}`), '');
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** A failure before any answer, by its code only: Node's own messages name addresses and ports. */
function failure(err: unknown): WebhookError {
  if (err instanceof WebhookError) return err;
  const e = err as { code?: string; errors?: Array<{ code?: string }> };
  // Trying several addresses, Node reports all their failures together; the first says enough.
  const code = e.code ?? e.errors?.[0]?.code ?? '';
  if (TLS_CODES.test(code)) return new WebhookError(`TLS handshake failed (${code})`);
  return new WebhookError(code ? networkReason(code) : 'connection failed');
}
