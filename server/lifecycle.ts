/**
 * A listener's clean stop. From the moment it begins, the process reports itself stopping (readiness fails), stops
 * accepting connections and answers every request it holds with `Connection: close`, so no client sends another on
 * that connection; each connection closes as soon as it is idle. After `timeoutMs` whatever is left is closed.
 *
 * A connection accepted just before the stop whose request has not arrived yet is given `FIRST_REQUEST_GRACE_MS` to
 * send it: in a cluster the primary hands connections to a worker up to the moment the worker tells it it stopped
 * accepting, and those are served, not dropped.
 */
import type { RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A client writes its request as soon as it has connected; one that has sent nothing by then is not mid-request. */
const FIRST_REQUEST_GRACE_MS = 1_000;
const POLL_MS = 10;

interface Connection { since: number; served: boolean; responses: Set<ServerResponse> }

export interface Lifecycle {
  readonly stopping: boolean;
  /** The listener to serve with: it keeps count of the requests each connection is serving. */
  track: (listener: RequestListener) => RequestListener;
  /** Follows the connections of `server` (call once, before it listens). */
  watch: (server: Server) => void;
  /** Stops `server` cleanly (once, however often it is called); resolves once every connection is closed. */
  stop: (server: Server, timeoutMs: number) => Promise<void>;
}

export function createLifecycle(): Lifecycle {
  let stopping = false;
  const connections = new Map<Socket, Connection>();

  // One listener for every response (no closure per request): the response finds its connection again by its request.
  function released(this: ServerResponse): void {
    connections.get(this.req.socket)?.responses.delete(this);
  }

  const track = (listener: RequestListener): RequestListener => (req, res) => {
    const connection = connections.get(req.socket);
    if (connection) {
      connection.served = true;
      connection.responses.add(res);
      res.on('close', released);
    }
    if (stopping) res.setHeader('Connection', 'close');
    listener(req, res);
  };

  const watch = (server: Server) => {
    server.on('connection', (socket: Socket) => {
      connections.set(socket, { since: Date.now(), served: false, responses: new Set() });
      socket.once('close', () => connections.delete(socket));
    });
  };

  /** Closes what is idle; answers whether anything is still worth waiting for. */
  function closeIdle(): boolean {
    let waiting = false;
    const now = Date.now();
    for (const [socket, c] of connections) {
      if (c.responses.size > 0) waiting = true;
      else if (c.served || now - c.since >= FIRST_REQUEST_GRACE_MS) socket.destroy();
      else waiting = true;
    }
    return waiting;
  }

  let stopped: Promise<void> | undefined;
  const stop = (server: Server, timeoutMs: number) => (stopped ??= drain(server, timeoutMs));

  async function drain(server: Server, timeoutMs: number): Promise<void> {
    stopping = true;
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    server.close();
    for (const c of connections.values()) {
      for (const res of c.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    const deadline = Date.now() + timeoutMs;
    while (closeIdle() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    server.closeAllConnections();
    for (const socket of connections.keys()) socket.destroy();
    await closed;
  }

  return { get stopping() { return stopping; }, track, watch, stop };
}
