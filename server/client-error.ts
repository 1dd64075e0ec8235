/**
 * Errors Node's HTTP parser answers before Express sees a request (a request line or header block too large, a
 * malformed request, a request too slow to arrive). Without a listener Node writes a bare status line; every
 * status ≥ 400 must carry the §7 body, so the listener writes it.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { HttpError } from '../core/errors';
import { sendError } from './error-body';

interface ParserError extends Error { code?: string; rawPacket?: Buffer; bytesParsed?: number }

const PHRASES: Record<number, string> = {
  400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large',
};

/**
 * Which status the parser's error means. A header overflow before the first line ended (no line break in the
 * packet before the point the parser reached) is a target too long (414); otherwise the headers were (431).
 */
export function statusOfParserError(err: ParserError): number {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const lineEnd = err.rawPacket?.indexOf('\n') ?? -1;
    return lineEnd < 0 || lineEnd >= (err.bytesParsed ?? 0) ? 414 : 431;
  }
  return 400;
}

export function reasonOfParserError(status: number): string {
  switch (status) {
    case 408: return 'The request did not arrive in time';
    case 414: return 'The request target (URL) is too long';
    case 431: return 'The request headers are too large';
    default: return 'The request is not a well-formed HTTP request';
  }
}

/** The full HTTP/1.1 response, written straight to the socket (the parser gave up, so there is no response object). */
export function parserErrorResponse(status: number): string {
  const body = JSON.stringify(new HttpError(status, undefined, [reasonOfParserError(status)]).toBody());
  return [
    `HTTP/1.1 ${status} ${PHRASES[status] ?? 'Bad Request'}`,
    'Content-Type: application/hal+json;charset=UTF-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID().replace(/-/g, '')}`,
    'Connection: close',
    '', body,
  ].join('\r\n');
}

/**
 * Answers the parser's error and closes the connection (a listener of `clientError` must: Node leaves the socket
 * open, and a slow client would keep it). A request whose headers were read already has its response object: a
 * body that did not arrive in time is answered through it, so the request's log line and metrics say 408.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    const res = (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
    // A connection the client dropped has nobody to answer; a response already begun cannot be replaced.
    if (err.code === 'ECONNRESET' || !socket.writable || res?.headersSent) {
      socket.destroy();
      return;
    }
    const status = statusOfParserError(err);
    if (res) {
      res.setHeader('Connection', 'close');
      // Node closes the connection once this response is sent (`Connection: close`).
      sendError(res.req, res, new HttpError(status, undefined, [reasonOfParserError(status)]));
      return;
    }
    socket.end(parserErrorResponse(status), () => socket.destroy());
  });
}
