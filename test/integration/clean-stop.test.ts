/**
 * Issue 30: a clean stop of one listener (server/lifecycle), on a node:http server over loopback whose handlers the
 * test holds open and releases, so what is in flight at the stop is known exactly rather than hoped for.
 */
import { createServer, request, Agent, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLifecycle, type Lifecycle } from '../../server/lifecycle';

interface Reply { status: number; headers: IncomingHttpHeaders; body: string }

interface Harness {
  server: Server;
  lifecycle: Lifecycle;
  port: number;
  /** How many `/held` requests the server is holding. */
  held: () => number;
  /** Answers every `/held` request held so far. */
  release: () => void;
}

const servers: Server[] = [];
afterEach(() => { for (const s of servers.splice(0)) s.closeAllConnections(); });

/** `/held` waits for `release()`; `/never` never answers; anything else answers at once. */
async function harness(): Promise<Harness> {
  const lifecycle = createLifecycle();
  const waiting: (() => void)[] = [];
  const server = createServer(lifecycle.track((req, res) => {
    if (req.url === '/never') return;
    if (req.url === '/held') {
      waiting.push(() => res.end('held'));
      return;
    }
    res.end('quick');
  }));
  lifecycle.watch(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server, lifecycle, port: (server.address() as AddressInfo).port,
    held: () => waiting.length,
    release: () => { for (const answer of waiting.splice(0)) answer(); },
  };
}

function get(port: number, path: string, agent: Agent | false = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    }).on('error', reject).end();
  });
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 5));
}

const connections = (server: Server) => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('a clean stop', () => {
  it('stops accepting at once, answers every request it holds with Connection: close, then closes every connection', async () => {
    const h = await harness();
    const inFlight = Array.from({ length: 3 }, () => get(h.port, '/held'));
    await until(() => h.held() === 3);
    // A keep-alive connection that has been answered and now idles.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    let idle!: Socket;
    const first = new Promise<Reply>((resolve, reject) => {
      request({ host: '127.0.0.1', port: h.port, path: '/quick', agent: keepAlive }, (res) => {
        idle = res.socket as Socket;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: '' }));
      }).on('error', reject).end();
    });
    expect((await first).status).toBe(200);
    // A connection the server has accepted whose request has not been sent yet.
    const fresh = connect(h.port, '127.0.0.1');
    await until(async () => (await connections(h.server)) === 5);

    const stopped = h.lifecycle.stop(h.server, 10_000);
    expect(h.lifecycle.stopping).toBe(true);

    await expect(get(h.port, '/quick')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await closed(idle);

    let raw = '';
    fresh.setEncoding('utf8');
    fresh.on('data', (d: string) => { raw += d; });
    fresh.write('GET /quick HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await closed(fresh);
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(raw.endsWith('quick')).toBe(true);

    h.release();
    for (const reply of await Promise.all(inFlight)) {
      expect(reply).toMatchObject({ status: 200, body: 'held' });
      expect(reply.headers.connection).toBe('close');
    }
    await stopped;
    expect(await connections(h.server)).toBe(0);
    keepAlive.destroy();
  });

  it('a request still unanswered when the bound runs out is cut off, and the stop completes', async () => {
    const h = await harness();
    const never = get(h.port, '/never');
    await until(async () => (await connections(h.server)) === 1);
    await h.lifecycle.stop(h.server, 200);
    await expect(never).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('stopping twice is one stop', async () => {
    const h = await harness();
    const a = h.lifecycle.stop(h.server, 1_000);
    const b = h.lifecycle.stop(h.server, 1_000);
    expect(b).toBe(a);
    await a;
  });
});
