/**
 * A Confluent-compatible schema registry on loopback, just big enough for provider B's calls: GET /subjects and
 * GET /subjects/{subject}/versions/latest. Plain HTTP, or HTTPS when given a key and certificate (optionally
 * demanding a client certificate signed by `clientCa`). Modes make it refuse (401), fail (500) or never answer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface FakeSchemaVersion { version: number; schema: string; schemaType?: 'AVRO' | 'PROTOBUF' | 'JSON' }

export interface FakeRegistryRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** Subject of the client certificate, for HTTPS with client certificates. */
  clientCertSubject: string | undefined;
  /** The W3C trace context the caller sent, if any. */
  traceparent?: string;
}

export type FakeRegistryMode = 'ok' | 'unauthorized' | 'forbidden' | 'error' | 'hang';

export interface FakeRegistryOptions {
  /** Subject → its versions (any order; the highest is "latest"). */
  subjects?: Record<string, FakeSchemaVersion[]>;
  /** Demand `Authorization: Basic base64(username:password)`; anything else → 401. */
  basicAuth?: { username: string; password: string };
  /** Serve HTTPS with this certificate; with `clientCa`, demand a client certificate it signed. */
  tls?: { cert: string; key: string; clientCa?: string };
  mode?: FakeRegistryMode;
}

export interface FakeRegistry {
  url: string;
  requests: FakeRegistryRequest[];
  /** Switch behaviour between calls. */
  mode: FakeRegistryMode;
  close(): Promise<void>;
}

export async function startFakeRegistry(options: FakeRegistryOptions = {}): Promise<FakeRegistry> {
  const subjects = options.subjects ?? {};
  const expected = options.basicAuth
    ? `Basic ${Buffer.from(`${options.basicAuth.username}:${options.basicAuth.password}`).toString('base64')}`
    : undefined;
  const requests: FakeRegistryRequest[] = [];
  const hanging = new Set<http.ServerResponse>();

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket as Partial<TLSSocket>;
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
    const path = new URL(req.url ?? '/', 'http://registry').pathname;
    requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      clientCertSubject: peer && peer.subject ? Object.entries(peer.subject).map(([k, v]) => `${k}=${v}`).join(',') : undefined,
      traceparent: req.headers.traceparent as string | undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
      res.end(JSON.stringify(body));
    };

    switch (registry.mode) {
      case 'hang':
        hanging.add(res);
        return;
      case 'error':
        return send(500, { error_code: 50001, message: 'Error in the backend data store' });
      case 'unauthorized':
        return send(401, { error_code: 401, message: 'Unauthorized' });
      case 'forbidden':
        return send(403, { error_code: 40301, message: 'User cannot access the resource.' });
      case 'ok':
        break;
    }
    if (expected && req.headers.authorization !== expected) return send(401, { error_code: 401, message: 'Unauthorized' });
    if (req.method !== 'GET') return send(405, { error_code: 405, message: 'Method not allowed' });

    if (path === '/subjects') return send(200, Object.keys(subjects));
    const m = /^\/subjects\/([^/]+)\/versions\/latest$/.exec(path);
    if (m) {
      const subject = decodeURIComponent(m[1]!);
      const versions = subjects[subject];
      if (!versions || versions.length === 0) return send(404, { error_code: 40401, message: `Subject '${subject}' not found.` });
      const latest = versions.reduce((a, b) => (b.version > a.version ? b : a));
      // Confluent leaves schemaType out for Avro; mimic that exactly.
      const body: Record<string, unknown> = { subject, version: latest.version, id: 100 + latest.version, schema: latest.schema };
      if (latest.schemaType && latest.schemaType !== 'AVRO') body.schemaType = latest.schemaType;
      return send(200, body);
    }
    return send(404, { error_code: 404, message: 'HTTP 404 Not Found' });
  };

  const server = options.tls
    ? https.createServer({
      cert: options.tls.cert,
      key: options.tls.key,
      ca: options.tls.clientCa,
      requestCert: !!options.tls.clientCa,
      rejectUnauthorized: !!options.tls.clientCa,
    }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const registry: FakeRegistry = {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    mode: options.mode ?? 'ok',
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return registry;
}

/**
 * A server certificate for 127.0.0.1 issued by `ca` (e.g. certificateKit().ca). The kit's leaves carry no
 * subjectAltName, and Node checks an IP address only against IP SANs, so a loopback HTTPS server needs its own.
 */
export function loopbackServerCertificate(ca: { cert: string; key: string }): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-registry-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    writeFileSync(file('ca.pem'), ca.cert);
    writeFileSync(file('ca.key'), ca.key);
    writeFileSync(file('san.cnf'), 'subjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n');
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file('server.key'));
    openssl('req', '-new', '-key', file('server.key'), '-subj', '/CN=127.0.0.1', '-out', file('server.csr'));
    openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-set_serial', String(Date.now()),
      '-days', '30', '-extfile', file('san.cnf'), '-out', file('server.pem'));
    return { cert: readFileSync(file('server.pem'), 'utf8'), key: readFileSync(file('server.key'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
