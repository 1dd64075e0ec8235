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
import { authBase, publicRoot as publicRootOf } from '../core/public-url';
import { collectMetrics } from './telemetry/metrics';
import { listenMetrics, serviceMetrics } from './telemetry/metrics-endpoint';

export interface RunningServer {
  url: string;
  port: number;
  authUrl: string;
  models: Models;
  /** The port of /metrics when METRICS_PORT gives it one and this process serves it (not a cluster worker). */
  metricsPort?: number;
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
  const secrets = createSecretBox(config);
  const deps: Deps = { models, config, authUrl: () => authUrl, secrets };
  const external = config.externalAuthUrl !== undefined;
  const keys = external ? undefined : createKeyStore(models, secrets);
  const app = await createApp({
    deps,
    authenticate: createAuthenticator({ ...deps, keys }),
    issuer: keys ? issuerRouter({ ...deps, keys }) : undefined,
  });
  if (options.beforeListen) await options.beforeListen(models);
  const server: Server = await new Promise((resolve, reject) => {
    const s = createServer(app).listen(config.port, options.host ?? '0.0.0.0', () => resolve(s));
    s.once('error', reject);
  });
  answerParserErrors(server);
  // In a cluster the primary serves METRICS_PORT (scripts/start.ts).
  const metrics = config.metricsPort !== undefined && !cluster.isWorker
    ? await listenMetrics(config.metricsPort, options.host ?? '0.0.0.0', serviceMetrics)
    : undefined;
  const closeMetrics = async () => {
    await metrics?.close();
    stopMetrics();
  };
  const port = (server.address() as AddressInfo).port;
  const publicRoot = publicRootOf(config, port);
  authUrl = authBase(config, port);
  return {
    url: publicRoot,
    port,
    authUrl,
    models,
    metricsPort: metrics?.port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }).then(closeMetrics),
  };
}
