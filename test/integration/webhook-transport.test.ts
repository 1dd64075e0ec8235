/**
 * Sending webhook calls (providers/webhook.ts) to real HTTP servers on loopback: signatures a Standard Webhooks
 * receiver verifies with either secret of a rotation, the body byte for byte, failures with their status, and the
 * fences — no redirect followed, bounded times and reads, forbidden addresses refused before any connection, the
 * address a name resolves to checked where the socket connects — with no secret or signature in any error message.
 */
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type dns from 'node:dns';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily, type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, postWebhook, signatureOf, WebhookError, type WebhookCall, type WebhookPolicy } from '../../providers/webhook';
import { certificateKit, type CertificateKit } from '../support/certificates';

interface Received { path: string; headers: http.IncomingHttpHeaders; body: Buffer }
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface Receiver { url: string; port: number; received: Received[]; closed: number; server: http.Server | https.Server }

const receivers: Receiver[] = [];

/** A server on 127.0.0.1 that records every request it reads in full, then lets `handle` answer it. */
async function receiver(handle: Handler = (_req, res) => res.end('ok'), tls?: { cert: string; key: string }): Promise<Receiver> {
  const r = { received: [] as Received[], closed: 0 } as Receiver;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on('close', () => r.closed++);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      handle(req, res);
    });
  };
  r.server = tls ? https.createServer(tls, onRequest) : http.createServer(onRequest);
  r.server.listen(0, '127.0.0.1');
  await once(r.server, 'listening');
  r.port = (r.server.address() as AddressInfo).port;
  r.url = `${tls ? 'https' : 'http'}://127.0.0.1:${r.port}`;
  receivers.push(r);
  return r;
}

const LOCAL: WebhookPolicy = { allowHttp: true, allowPrivate: true };
const CURRENT = newWebhookSecret();
const PREVIOUS = newWebhookSecret();
const CLOUD_EVENT = JSON.stringify({
  specversion: '1.0', id: 'b7d2f0c4-6a7e-4f0e-9c59-0c5a3c2a1d11', source: '/tenants/acme', type: 'access.approved',
  time: '2024-05-01T12:00:00Z', datacontenttype: 'application/json', data: { stream: 'paiements-€', note: 'Grüße 👋\nzweite Zeile' },
});

const call = (url: string, extra: Partial<WebhookCall> = {}): WebhookCall => ({
  url, id: 'msg_2b6c3f1e', timestamp: new Date(), body: CLOUD_EVENT, secrets: [CURRENT, PREVIOUS], ...extra,
});

/** Every error message the calls produced: none may carry a secret or a signature. */
const messages: string[] = [];
const signatures: string[] = [];

async function failure(promise: Promise<unknown>): Promise<WebhookError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(WebhookError);
  const e = err as WebhookError;
  messages.push(e.message);
  expect(e.message.length).toBeLessThanOrEqual(300);
  expect(e.message).not.toMatch(/[\r\n]/);
  return e;
}

/** A lookup that answers `addresses` for every name, counting its calls. */
function fixedLookup(...addresses: dns.LookupAddress[]): typeof dns.lookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: dns.LookupOptions, callback: (err: null, a: string | dns.LookupAddress[], f?: number) => void) => {
    calls.push(hostname);
    setImmediate(() => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)));
  }) as unknown as typeof dns.lookup & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

const LOOPBACK: dns.LookupAddress = { address: '127.0.0.1', family: 4 };
const PUBLIC: dns.LookupAddress = { address: '93.184.215.14', family: 4 };

let certificates: CertificateKit;

beforeAll(() => {
  certificates = certificateKit();
});

afterAll(async () => {
  certificates?.cleanup();
  for (const r of receivers) {
    r.server.closeAllConnections();
    r.server.close();
  }
  for (const secret of [CURRENT, PREVIOUS]) {
    for (const m of messages) expect(m).not.toContain(secret.slice('whsec_'.length));
  }
  for (const s of signatures) for (const m of messages) expect(m).not.toContain(s);
});

describe('a webhook call', () => {
  it('is a signed POST that a Standard Webhooks receiver verifies with either secret of a rotation', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const sent = call(`${r.url}/hooks?tenant=acme`);
    const outcome = await postWebhook(sent, LOCAL);
    expect(outcome.status).toBe(204);
    expect(outcome.ms).toBeGreaterThanOrEqual(0);
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got.path).toBe('/hooks?tenant=acme');
    expect(got.body.equals(Buffer.from(CLOUD_EVENT, 'utf8'))).toBe(true);
    expect(got.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    expect(got.headers['user-agent']).toBe('streaming-platform-webhooks/1');
    expect(got.headers['webhook-id']).toBe(sent.id);
    expect(got.headers['webhook-timestamp']).toBe(String(Math.floor(sent.timestamp.getTime() / 1000)));
    const headers = got.headers as Record<string, string>;
    const signature = headers['webhook-signature'];
    signatures.push(...signature.split(' ').map((s) => s.slice(3)));
    expect(signature).toBe(signatureOf(sent));
    expect(signature.split(' ')).toHaveLength(2);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    // Each side of the rotation alone verifies it; a secret that is neither does not.
    expect(new Webhook(CURRENT).verify(got.body.toString('utf8'), headers)).toEqual(JSON.parse(CLOUD_EVENT));
    expect(new Webhook(PREVIOUS).verify(got.body.toString('utf8'), headers)).toEqual(JSON.parse(CLOUD_EVENT));
    expect(() => new Webhook(newWebhookSecret()).verify(got.body.toString('utf8'), headers)).toThrow(/No matching signature/);
    // A body changed on the way no longer verifies.
    expect(() => new Webhook(CURRENT).verify(got.body.toString('utf8').replace('Grüße', 'Grusse'), headers)).toThrow(/No matching signature/);
  });

  it('signs with the current secret alone outside a rotation', async () => {
    const r = await receiver();
    await postWebhook(call(`${r.url}/`, { secrets: [CURRENT] }), LOCAL);
    const headers = r.received[0].headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(CURRENT).verify(r.received[0].body, headers)).not.toThrow();
    expect(() => new Webhook(PREVIOUS).verify(r.received[0].body, headers)).toThrow(/No matching signature/);
  });

  it('makes secrets of 32 random bytes with the whsec_ prefix, each different', () => {
    const secrets = new Set(Array.from({ length: 20 }, newWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const s of secrets) {
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    }
  });
});

describe('an endpoint that does not accept the call', () => {
  it('fails with its status and the start of its body, on one line, with what it echoes of the signature blanked', async () => {
    const r = await receiver((req, res) => res.writeHead(500).end(`boom\r\nwe got ${req.headers['webhook-signature']} for ${CURRENT}\n${'x'.repeat(5000)}`));
    const e = await failure(postWebhook(call(`${r.url}/`), LOCAL));
    signatures.push(...String(r.received[0].headers['webhook-signature']).split(' ').map((s) => s.slice(3)));
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/^HTTP 500: boom we got v1,\[redacted\] v1,\[redacted\] for whsec_\[redacted\] x+$/);
    expect(e.message.length).toBeLessThanOrEqual('HTTP 500: '.length + 200);
  });

  it('fails with the status alone when the answer has no body', async () => {
    const r = await receiver((_req, res) => res.writeHead(404).end());
    const e = await failure(postWebhook(call(`${r.url}/`), LOCAL));
    expect([e.status, e.message]).toEqual([404, 'HTTP 404']);
  });

  it('does not follow a redirect: the call fails with its status and the target hears nothing', async () => {
    const target = await receiver();
    const r = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const e = await failure(postWebhook(call(`${r.url}/`), LOCAL));
    expect([e.status, e.message]).toEqual([302, 'HTTP 302: redirects are not followed']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it.each([301, 303, 307, 308])('does not follow a %i either', async (status) => {
    const r = await receiver((_req, res) => res.writeHead(status, { location: '/again' }).end());
    const e = await failure(postWebhook(call(`${r.url}/`), LOCAL));
    expect(e.status).toBe(status);
    expect(r.received.map((x) => x.path)).toEqual(['/']);
  });

  it('fails without a status when nothing listens', async () => {
    const r = await receiver();
    const url = r.url;
    r.server.close();
    await once(r.server, 'close');
    const e = await failure(postWebhook(call(`${url}/`), LOCAL));
    expect([e.status, e.message]).toEqual([null, 'connection refused']);
  });

  it('fails on a certificate it cannot verify, before anything is sent', async () => {
    const r = await receiver(undefined, certificates.server('IP:127.0.0.1'));
    const e = await failure(postWebhook(call(`${r.url}/`), LOCAL));
    expect(e.status).toBeNull();
    expect(e.message).toMatch(/^TLS handshake failed \(/);
    expect(r.received).toHaveLength(0);
  });
});

describe('bounds', () => {
  const BOUNDED: WebhookPolicy = { ...LOCAL, connectTimeoutMs: 300, responseTimeoutMs: 300 };

  it('gives up on an endpoint that never answers after the response time', async () => {
    const r = await receiver(() => undefined);
    const started = Date.now();
    const e = await failure(postWebhook(call(`${r.url}/`), BOUNDED));
    expect(Date.now() - started).toBeLessThan(1500);
    expect([e.status, e.message]).toEqual([null, 'timed out after 300 ms waiting for the answer']);
    expect(r.received).toHaveLength(1);
  });

  it('gives up on connecting after the connect time (a lookup that never answers counts)', async () => {
    const never = (() => undefined) as unknown as typeof dns.lookup;
    const started = Date.now();
    const e = await failure(postWebhook(call('http://hooks.example.com/'), { ...BOUNDED, connectTimeoutMs: 200, lookup: never }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect([e.status, e.message]).toEqual([null, 'timed out after 200 ms connecting']);
  });

  it('reads an endless 2xx body only up to the bound, drops the connection and counts the call delivered', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const started = Date.now();
    const outcome = await postWebhook(call(`${r.url}/`), { ...LOCAL, responseTimeoutMs: 5_000, maxResponseBytes: 32 * 1024 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome.status).toBe(200);
    await expect.poll(() => r.closed).toBe(1);
  });

  it('counts a 2xx whose body trickles on past the response time as delivered, when that time is up', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(202);
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('.')), 20);
    });
    const started = Date.now();
    const outcome = await postWebhook(call(`${r.url}/`), BOUNDED);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(outcome.status).toBe(202);
  });

  it('fails an endless error body with its status and excerpt, just as quickly', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(503);
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('overloaded ')), 5);
    });
    const e = await failure(postWebhook(call(`${r.url}/`), { ...LOCAL, responseTimeoutMs: 300, maxResponseBytes: 64 }));
    expect(e.status).toBe(503);
    expect(e.message).toMatch(/^HTTP 503: overloaded( overloaded)*/);
  });
});

describe('forbidden addresses', () => {
  const STRICT: WebhookPolicy = { allowHttp: true, allowPrivate: false };

  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`, 'refused: the URL points to a loopback address'],
    ['the same address written as a number', (port: number) => `http://2130706433:${port}/`, 'refused: the URL points to a loopback address'],
    ['the same address written IPv4-mapped', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`, 'refused: the URL points to a loopback address'],
    ['localhost', (port: number) => `http://localhost:${port}/`, 'refused: the URL names the local host'],
  ])('refuses %s before any connection', async (_name, url, message) => {
    const r = await receiver();
    const e = await failure(postWebhook(call(url(r.port)), STRICT));
    expect([e.status, e.message]).toEqual([null, message]);
    expect(r.received).toHaveLength(0);
    expect(r.closed).toBe(0);
  });

  it('refuses plain http unless the policy allows it', async () => {
    const r = await receiver();
    const e = await failure(postWebhook(call(`${r.url}/`), { allowHttp: false, allowPrivate: true }));
    expect(e.message).toBe('refused: the URL must use https');
    expect(r.received).toHaveLength(0);
  });

  it('connects to the address its own lookup answered: the address checked is the address connected to', async () => {
    const r = await receiver();
    const lookup = fixedLookup(LOOPBACK);
    await postWebhook(call(`http://hooks.example.com:${r.port}/`), { ...LOCAL, lookup });
    expect(r.received.map((x) => x.headers.host)).toEqual([`hooks.example.com:${r.port}`]);
    expect(lookup.calls).toEqual(['hooks.example.com']);
  });

  it('refuses a name that resolves to a loopback address (DNS rebinding), and the server hears nothing', async () => {
    const r = await receiver();
    const lookup = fixedLookup(LOOPBACK);
    const e = await failure(postWebhook(call(`http://hooks.example.com:${r.port}/`), { ...STRICT, lookup }));
    expect([e.status, e.message]).toEqual([null, 'refused: the host resolves to a loopback address']);
    expect(lookup.calls).toEqual(['hooks.example.com']);
    expect(r.received).toHaveLength(0);
    expect(r.closed).toBe(0);
  });

  it('refuses a name when any of its addresses is forbidden, whichever comes first', async () => {
    const r = await receiver();
    for (const answer of [[PUBLIC, LOOPBACK], [{ address: '::ffff:169.254.169.254', family: 6 }, PUBLIC]]) {
      const e = await failure(postWebhook(call(`http://hooks.example.com:${r.port}/`), { ...STRICT, lookup: fixedLookup(...answer) }));
      expect(e.message).toMatch(/^refused: the host resolves to (a loopback|a cloud metadata) address$/);
    }
    expect(r.received).toHaveLength(0);
  });

  it('checks the address just the same when the socket asks its lookup for one address only', async () => {
    const r = await receiver();
    const before = getDefaultAutoSelectFamily();
    setDefaultAutoSelectFamily(false);
    try {
      const e = await failure(postWebhook(call(`http://hooks.example.com:${r.port}/`), { ...STRICT, lookup: fixedLookup(LOOPBACK) }));
      expect(e.message).toBe('refused: the host resolves to a loopback address');
      expect(r.received).toHaveLength(0);
      await postWebhook(call(`http://hooks.example.com:${r.port}/`), { ...LOCAL, lookup: fixedLookup(LOOPBACK) });
      expect(r.received).toHaveLength(1);
    } finally {
      setDefaultAutoSelectFamily(before);
    }
  });

  it('reports a name that does not resolve without a status', async () => {
    const notFound = ((_h: string, _o: unknown, callback: (err: NodeJS.ErrnoException) => void) => {
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' }));
    }) as unknown as typeof dns.lookup;
    const e = await failure(postWebhook(call('http://hooks.example.com/'), { ...STRICT, lookup: notFound }));
    expect([e.status, e.message]).toEqual([null, 'host name not found']);
  });
});
