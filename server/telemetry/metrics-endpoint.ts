/**
 * `GET /metrics`: the Prometheus text of the whole service (docs/observability.md). Public, as /api/info is: it
 * names no tenant, id or path, and Prometheus scrapes without a token. On the API port unless METRICS_PORT is set;
 * then only on that port, served by the process that owns the cluster. It takes no parameters; any method but
 * GET and HEAD answers 405, and metrics that cannot be collected 503, both with the error body.
 */
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MethodNotAllowedError, NotFoundError, ServiceUnavailableError } from '../../core/errors';
import { answerParserErrors } from '../client-error';
import { sendError } from '../error-body';
import { askPrimary, clusterMetrics, serveWorkers } from './cluster-metrics';
import { localMetrics, METRICS_CONTENT_TYPE } from './metrics';
import { requestFailed } from './requests';

export type MetricsSource = () => Promise<string>;

/** A worker answers with the cluster's sum, asked of the primary; a lone process with its own. */
export const serviceMetrics: MetricsSource = () => (cluster.isWorker ? askPrimary() : localMetrics());

export function serveMetrics(req: IncomingMessage, res: ServerResponse, source: MetricsSource = serviceMetrics): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(req, res, new MethodNotAllowedError(['GET', 'HEAD'], req.method ?? ''));
    return;
  }
  source().then((text) => {
    res.statusCode = 200;
    res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(req.method === 'HEAD' ? undefined : text);
  }, (err: unknown) => {
    requestFailed(res, err);
    sendError(req, res, new ServiceUnavailableError('The metrics could not be collected'));
  });
}

/** METRICS_PORT: a listener of its own answering /metrics and nothing else. */
export async function listenMetrics(port: number, host: string, source: MetricsSource): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') serveMetrics(req, res, source);
    else sendError(req, res, new NotFoundError(`No endpoint ${req.method} ${path}: this port serves /metrics only`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  answerParserErrors(server);
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * The primary of a cluster: the workers' sum, for workers that ask (/metrics on the API port) or on METRICS_PORT
 * when it is set (workers then serve none).
 */
export async function serveClusterMetrics(metricsPort: number | undefined): Promise<{ close: () => Promise<void> }> {
  serveWorkers();
  if (metricsPort === undefined) return { close: async () => undefined };
  return listenMetrics(metricsPort, '0.0.0.0', clusterMetrics);
}
