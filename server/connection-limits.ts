/**
 * What one client may hold of a process (docs/operations.md, "Slow and abusive clients"): a request's headers and
 * the whole request must arrive within their timeouts (a slowloris client or a body trickled a byte at a time is
 * cut off, answered 408 by server/client-error.ts), a keep-alive connection serves a bounded number of requests,
 * and the process holds a bounded number of connections. Each bound is a setting (core/config.ts).
 */
import type { RequestListener, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../core/config';
import { ServiceUnavailableError } from '../core/errors';
import { sendError } from './error-body';

export type ClientBounds = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxRequestsPerConnection' | 'maxConnections'>;

/**
 * node:http's own timeouts. It looks for expired requests only every `connectionsCheckingInterval` (30 s unless
 * told): a quarter of the shorter bound, at most a second, cuts a client off soon after its bound.
 */
export function serverOptions(bounds: ClientBounds): ServerOptions {
  const shorter = Math.min(bounds.headersTimeoutMs, bounds.requestTimeoutMs);
  return {
    headersTimeout: bounds.headersTimeoutMs,
    requestTimeout: bounds.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(shorter / 4))),
  };
}

/**
 * The `max`-th response of a connection says `Connection: close`, and Node closes the connection once it is sent.
 * A request a client pipelined past it is not served (503): its answer could never be sent. Node's own
 * `maxRequestsPerSocket` answers that one with a bare 503, without the error body every error carries.
 */
export function limitRequestsPerConnection(listener: RequestListener, max: number): RequestListener {
  const served = new WeakMap<Socket, number>();
  return (req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    if (n >= max) res.setHeader('Connection', 'close');
    if (n > max) {
      sendError(req, res, new ServiceUnavailableError(`This connection has served its ${max} requests; send the request on a new connection`));
      return;
    }
    listener(req, res);
  };
}

/**
 * At most `max` open connections: one more is closed as soon as it is accepted, before it costs a parser or a
 * request (there is nothing to answer yet). Node's `server.maxConnections` is not used: in a cluster a worker
 * refusing with it hands the connection back to the primary, which offers it to a worker again at once, busily,
 * until one has room.
 */
export function limitConnections(server: Server, max: number): void {
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      socket.destroy();
      return;
    }
    open++;
    socket.once('close', () => { open--; });
  });
}
