/** Builds the whole service on an open database connection and starts listening. */
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sequelize } from 'sequelize';
import { createAuthenticator } from '../auth/authenticate';
import { issuerRouter } from '../auth/issuer';
import { createKeyStore } from '../auth/keys';
import type { Deps } from '../core/context';
import { initModels, type Models } from '../models';
import { createApp } from './app';
import { answerParserErrors } from './client-error';
import type { Config } from '../core/config';
import { createSecretBox } from '../core/secret-box';
import { migrations } from '../migrations';
import { createLifecycle } from './lifecycle';
import { limitConnections, limitRequestsPerConnection, serverOptions } from './connection-limits';
import { authBase, publicRoot as publicRootOf } from '../core/public-url';
import { collectMetrics } from './telemetry/metrics';
import { listenMetrics, serviceMetrics } from './telemetry/metrics-endpoint';
import { startExpirySweeper } from './access-expiry';
import { startNotificationDispatcher } from './notification-dispatch';
import { webhookChannel } from './webhook-channel';
import { logTransport, smtpTransport } from '../providers/mail';

export interface RunningServer {
  url: string;
  port: number;
  authUrl: string;
  models: Models;
  /** The port of /metrics when METRICS_PORT gives it one and this process serves it (not a cluster worker). */
  metricsPort?: number;
  /**
   * Stops cleanly: readiness fails at once, no connection is accepted, the requests in flight are answered (for at
   * most `shutdownTimeoutMs`), then every connection is closed. The database connection stays open for its owner.
   */
  close: () => Promise<void>;
}

export interface ServerOptions {
  config: Config;
  sequelize: Sequelize;
  host?: string;
  /** Runs on the models before the port opens (the first-start bootstrap): nothing answers before it is done. */
  beforeListen?: (models: Models) => Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config, sequelize } = options;
  const stopMetrics = collectMetrics(sequelize);
  const models = initModels(sequelize);
  let authUrl = config.externalAuthUrl ?? '';
  let publicRoot = config.publicUrl ?? '';
  const secrets = createSecretBox(config);
  const lifecycle = createLifecycle();
  const health = { stopping: () => lifecycle.stopping, newestMigration: migrations[migrations.length - 1].name };
  const deps: Deps = { models, config, authUrl: () => authUrl, publicRoot: () => publicRoot, secrets, health };
  const external = config.externalAuthUrl !== undefined;
  const keys = external ? undefined : createKeyStore(models, secrets);
  const app = await createApp({
    deps,
    authenticate: createAuthenticator({ ...deps, keys }),
    issuer: keys ? issuerRouter({ ...deps, keys }) : undefined,
  });
  if (options.beforeListen) await options.beforeListen(models);
  const server: Server = await new Promise((resolve, reject) => {
    const s = createServer(serverOptions(config), lifecycle.track(limitRequestsPerConnection(app, config.maxRequestsPerConnection)));
    lifecycle.watch(s);
    limitConnections(s, config.maxConnections);
    s.listen(config.port, options.host ?? '0.0.0.0', () => resolve(s));
    s.once('error', reject);
  });
  answerParserErrors(server);
  const sweeper = startExpirySweeper(models, config.accessExpirySweepMs, () => publicRoot);
  const n = config.notifications;
  const dispatcher = startNotificationDispatcher(models, {
    email: n.smtpUrl ? smtpTransport(n.smtpUrl, n.mailFrom) : logTransport(),
    webhook: webhookChannel(models, secrets, { allowHttp: n.webhookAllowHttp, allowPrivate: n.webhookAllowPrivate }),
  }, {
    intervalMs: n.intervalMs, leaseMs: n.leaseMs, messageDomain: new URL(config.publicUrl ?? 'http://localhost').hostname,
  });
  // In a cluster the primary serves METRICS_PORT (scripts/start.ts).
  const metrics = config.metricsPort !== undefined && !cluster.isWorker
    ? await listenMetrics(config.metricsPort, options.host ?? '0.0.0.0', serviceMetrics)
    : undefined;
  const closeMetrics = async () => {
    await metrics?.close();
    stopMetrics();
  };
  const port = (server.address() as AddressInfo).port;
  publicRoot = publicRootOf(config, port);
  authUrl = authBase(config, port);
  return {
    url: publicRoot,
    port,
    authUrl,
    models,
    metricsPort: metrics?.port,
    // The sweep and the delivery end with the listener, before the owner closes the database connection under them.
    close: () => Promise.all([sweeper.stop(), dispatcher.stop(), lifecycle.stop(server, config.shutdownTimeoutMs)]).then(closeMetrics),
  };
}
