/**
 * A loopback stand-in for the Confluent Cloud REST API: `/org/v2/environments`, `/cmk/v2/clusters` and
 * `/srcm/v2/clusters` (both requiring `environment`), HTTP Basic with one API key, paginated with `page_size`
 * and `page_token` and an absolute `metadata.next` link, errors as `{errors: [{status, code, title, detail}]}` —
 * the shapes of Confluent's OpenAPI documents. Failure modes make any path answer 401/403/404/500 or hang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeFailure, FakeRequest } from './fake-aiven';

export interface FakeConfluentEnvironment {
  id: string;
  kafkaClusters?: Array<{ id: string; bootstrap: string }>;
  schemaRegistries?: Array<{ id: string; httpEndpoint: string }>;
}
export interface FakeConfluentData {
  apiKey: string;
  secret: string;
  environments: FakeConfluentEnvironment[];
  /** The fake's largest page, below the documented 100, to make lists span pages. */
  maxPageSize?: number;
  /** Base of `metadata.next` links; the real API names its own host (`https://api.confluent.cloud`). */
  nextBase?: string;
}
export interface FakeConfluentCloud {
  url: string;
  requests: FakeRequest[];
  fail: (mode: FakeFailure | null, on?: RegExp) => void;
  close: () => Promise<void>;
}

type Reply = [status: number, body: unknown];
const error = (status: number, code: string, detail: string): Reply => [status, { errors: [{ id: 'fake', status: String(status), code, title: code, detail }] }];

export async function startFakeConfluentCloud(data: FakeConfluentData): Promise<FakeConfluentCloud> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  let failure: { mode: FakeFailure; on?: RegExp } | null = null;
  const expected = `Basic ${Buffer.from(`${data.apiKey}:${data.secret}`).toString('base64')}`;
  let url = '';

  /** One page of `items` as a `…List` object; the page token is the offset, opaque to the client. */
  const page = (req: URL, apiVersion: string, items: unknown[]): Reply => {
    const size = Math.min(Number(req.searchParams.get('page_size') ?? 10), data.maxPageSize ?? 100);
    const offset = Number(Buffer.from(req.searchParams.get('page_token') ?? '', 'base64url').toString() || 0);
    const metadata: Record<string, unknown> = { first: `${data.nextBase ?? url}${req.pathname}`, total_size: items.length };
    if (offset + size < items.length) {
      const next = new URLSearchParams(req.searchParams);
      next.set('page_token', Buffer.from(String(offset + size)).toString('base64url'));
      metadata.next = `${data.nextBase ?? url}${req.pathname}?${next}`;
    }
    return [200, { api_version: apiVersion, kind: apiVersion.startsWith('org') ? 'EnvironmentList' : 'ClusterList', metadata, data: items.slice(offset, offset + size) }];
  };

  const route = (req: IncomingMessage): Reply => {
    if (req.headers.authorization !== expected) return error(401, 'user_unauthenticated', 'Valid authentication credentials must be provided');
    const target = new URL(req.url ?? '/', 'http://fake');
    if (target.pathname === '/org/v2/environments') {
      return page(target, 'org/v2', data.environments.map((e) => ({ api_version: 'org/v2', kind: 'Environment', id: e.id, display_name: e.id, metadata: {} })));
    }
    const envId = target.searchParams.get('environment');
    if (target.pathname !== '/cmk/v2/clusters' && target.pathname !== '/srcm/v2/clusters') return error(404, 'not_found', 'Not found');
    if (!envId) return error(400, 'invalid_filter', 'environment is required');
    const env = data.environments.find((e) => e.id === envId);
    if (target.pathname === '/cmk/v2/clusters') {
      return page(target, 'cmk/v2', (env?.kafkaClusters ?? []).map((c) => ({
        api_version: 'cmk/v2', kind: 'Cluster', id: c.id,
        spec: { display_name: c.id, kafka_bootstrap_endpoint: c.bootstrap, http_endpoint: `https://${c.id}.confluent.cloud:443`, environment: { id: envId } },
        status: { phase: 'PROVISIONED' },
      })));
    }
    return page(target, 'srcm/v2', (env?.schemaRegistries ?? []).map((r) => ({
      api_version: 'srcm/v2', kind: 'Cluster', id: r.id,
      spec: { display_name: 'Stream Governance Package', package: 'ESSENTIALS', http_endpoint: r.httpEndpoint, environment: { id: envId } },
      status: { phase: 'PROVISIONED' },
    })));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, traceparent: req.headers.traceparent as string | undefined });
    let reply: Reply;
    if (failure && (!failure.on || failure.on.test(req.url ?? ''))) {
      if (failure.mode === 'hang') return;
      reply = error(failure.mode, 'failure', `failure ${failure.mode}`);
    } else {
      reply = route(req);
    }
    res.writeHead(reply[0], { 'content-type': 'application/json' }).end(JSON.stringify(reply[1]));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    fail: (mode, on) => { failure = mode === null ? null : { mode, on }; },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
