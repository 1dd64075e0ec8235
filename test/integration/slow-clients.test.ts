/**
 * Slow and abusive clients (docs/operations.md): a client that sends its headers a line at a time, or its body a
 * byte a second, is cut off at its bound and answered 408 in the error format, while other clients are served; a
 * keep-alive connection serves a bounded number of requests; the process holds a bounded number of connections.
 * The bounds are set small here; the tests wait for them, they do not time them.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { call } from '../support/http';

const BOUNDS = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, maxRequestsPerConnection: 3 };

let app: TestApp;
let t: TestTenant;
let bounded: TestApp;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('slow', BOUNDS));
  bounded = await startTestApp({ maxConnections: 3 });
});
afterAll(async () => {
  await app?.stop();
  await bounded?.stop();
});

/** A raw connection: what it received, and when it was closed. */
interface Raw { socket: net.Socket; received: () => string; closed: Promise<void> }

function connect(to: TestApp): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => { text += d; });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Sends one request on the connection and reads its whole response (Content-Length framed). */
async function exchange(raw: Raw, request: string): Promise<{ head: string; body: string }> {
  const start = raw.received().length;
  raw.socket.write(request);
  for (;;) {
    const text = raw.received().slice(start);
    const end = text.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
    if (end >= 0 && length && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1])) return { head: text.slice(0, end), body: text.slice(end + 4) };
    await new Promise((r) => setTimeout(r, 10));
  }
}

const liveness = 'GET /api/health/liveness HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** The §7 error body of a raw response, which must be the only thing on the connection. */
function errorBody(text: string): Record<string, unknown> {
  const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(head).toMatch(/\r\ncontent-type: application\/hal\+json/i);
  expect(head).toMatch(/\r\nconnection: close/i);
  return JSON.parse(body) as Record<string, unknown>;
}

/** Other clients' requests, one after another, until `until` settles: each must be served. */
async function servedMeanwhile(until: Promise<void>): Promise<number> {
  let done = false;
  void until.then(() => { done = true; });
  let served = 0;
  while (!done) {
    const res = await call(app, 'GET', '/info', { token: t.admin.token });
    expect(res.status).toBe(200);
    served++;
    await new Promise((r) => setTimeout(r, 100));
  }
  return served;
}

describe('slow clients are cut off at their bound, in the error format', () => {
  it('headers sent a line at a time, never finished (slowloris): 408, closed; others are served meanwhile', async () => {
    const slow = await connect(app);
    slow.socket.write('GET /api/info HTTP/1.1\r\nHost: localhost\r\n');
    let line = 0;
    const drip = setInterval(() => { if (slow.socket.writable) slow.socket.write(`X-Slow-${line++}: a\r\n`); }, 200);
    try {
      expect(await servedMeanwhile(slow.closed)).toBeGreaterThan(0);
    } finally {
      clearInterval(drip);
    }
    expect(errorBody(slow.received())).toEqual({
      status: 'REQUEST_TIMEOUT', message: 'Request timeout', errors: ['The request did not arrive in time'], subErrors: null,
    });
  });

  it('a connection that sends nothing is closed at the headers bound', async () => {
    const silent = await connect(app);
    await silent.closed;
    expect(errorBody(silent.received()).status).toBe('REQUEST_TIMEOUT');
  });

  it('a body trickled at 1 byte/s: 408 with the request id once the request bound passes; nothing is written', async () => {
    const trickle = await connect(app);
    const name = `trickled-${Date.now()}`;
    const body = JSON.stringify({ name, emailAddress: `${'x'.repeat(60)}@example.com` });
    trickle.socket.write([
      'POST /api/groups HTTP/1.1', 'Host: localhost', `Authorization: Bearer ${t.admin.token}`, 'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`, '', '',
    ].join('\r\n'));
    let sent = 0;
    const drip = setInterval(() => { if (trickle.socket.writable) trickle.socket.write(body[sent++] ?? ''); }, 1_000);
    try {
      expect(await servedMeanwhile(trickle.closed)).toBeGreaterThan(0);
    } finally {
      clearInterval(drip);
    }
    expect(sent).toBeLessThan(body.length);
    const text = trickle.received();
    expect(text).toMatch(/\r\nx-request-id: [0-9a-f]{32}\r\n/i);
    expect(errorBody(text)).toMatchObject({ status: 'REQUEST_TIMEOUT', errors: ['The request did not arrive in time'] });
    const found = await call(app, 'GET', `/groups/search/findByName?name=${name}`, { token: t.admin.token });
    expect(found.body._embedded?.groups ?? []).toEqual([]);
  });
});

describe('connections are bounded', () => {
  it(`a keep-alive connection serves ${BOUNDS.maxRequestsPerConnection} requests, the last with Connection: close, then closes`, async () => {
    const raw = await connect(app);
    const heads: string[] = [];
    for (let i = 0; i < BOUNDS.maxRequestsPerConnection; i++) heads.push((await exchange(raw, liveness)).head);
    await raw.closed;
    expect(heads.map((h) => h.split('\r\n')[0])).toEqual(Array(BOUNDS.maxRequestsPerConnection).fill('HTTP/1.1 200 OK'));
    expect(heads.slice(0, -1).map((h) => /\r\nconnection: (\S+)/i.exec(h)?.[1])).toEqual(Array(BOUNDS.maxRequestsPerConnection - 1).fill('keep-alive'));
    expect(heads.at(-1)).toMatch(/\r\nconnection: close/i);
  });

  it('past the connection bound a new connection is closed unanswered, while the admitted ones are served', async () => {
    const admitted = await Promise.all([connect(bounded), connect(bounded), connect(bounded)]);
    for (const raw of admitted) expect((await exchange(raw, liveness)).head).toMatch(/^HTTP\/1\.1 200 /);
    const refused = await connect(bounded);
    refused.socket.write(liveness);
    await refused.closed;
    expect(refused.received()).toBe('');
    for (const raw of admitted) expect((await exchange(raw, liveness)).head).toMatch(/^HTTP\/1\.1 200 /);
    // A connection that ends makes room for the next.
    admitted[0].socket.destroy();
    await admitted[0].closed;
    let next: Raw | undefined;
    for (let attempt = 0; attempt < 50 && !next; attempt++) {
      const raw = await connect(bounded);
      raw.socket.write(liveness);
      const outcome = await Promise.race([raw.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 200))]);
      if (outcome === 'open' || raw.received() !== '') next = raw;
    }
    expect(next, 'a connection admitted once one was closed').toBeDefined();
    for (const raw of [...admitted.slice(1), next!]) raw.socket.destroy();
  });
});
