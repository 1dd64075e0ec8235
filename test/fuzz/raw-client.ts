/**
 * A deliberately dumb HTTP client for the fuzzer. fetch (undici) normalises paths, refuses some header values and
 * always frames bodies correctly; the fuzzer needs to send `/api/groups/%zz`, a Content-Type of garbage, a body
 * that lies about being JSON or a truncated one exactly as written. node:http with one keep-alive agent does that
 * and keeps a few thousand sequential requests cheap (no new TCP connection each).
 */
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query exactly as they go on the request line (already percent-encoded or deliberately not). */
  path: string;
  headers: Record<string, string>;
  /** Sent byte for byte (a Buffer for bytes that are not UTF-8); undefined sends no body and no Content-Length. */
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
}

export interface RawClient {
  send: (req: RawRequest) => Promise<RawResponse>;
  close: () => void;
}

export function rawClient(baseUrl: string): RawClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (req: RawRequest): Promise<RawResponse> => new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['Content-Length'] = Buffer.byteLength(req.body);
    const r = http.request({
      host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent,
      // The server must tolerate what we send; Node must not reject it on our side first.
      insecureHTTPParser: true,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try { json = text === '' ? undefined : JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    r.setTimeout(30_000, () => r.destroy(new Error(`timeout: ${req.method} ${req.path.slice(0, 200)}`)));
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
  return { send, close: () => agent.destroy() };
}

/** The request as a failure message shows it: enough to replay it with curl. */
export function describeRequest(req: RawRequest): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${k.toLowerCase() === 'authorization' ? 'Bearer <token>' : v}`).join('\n    ');
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length} chars)` : req.path;
  const text = req.body === undefined ? undefined : String(req.body);
  const body = text === undefined ? '(none)' : `${JSON.stringify(text.slice(0, 400))}${text.length > 400 ? ` … (${text.length} chars)` : ''}`;
  return `${req.method} ${path}\n    ${headers}\n  body: ${body}`;
}

export function describeResponse(res: RawResponse): string {
  const text = res.text.length > 600 ? `${res.text.slice(0, 600)}… (${res.text.length} chars)` : res.text;
  return `${res.status} content-type=${res.headers['content-type'] ?? '(none)'}\n  ${text}`;
}
