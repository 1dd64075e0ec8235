/**
 * `npm start`: the API on PORT (8080). Without DATABASE_URL it runs an embedded PostgreSQL 16.8 with its data in
 * DATA_DIR (./.data), migrates, creates the demo tenant on first start and prints how to get a token. With
 * WORKERS > 1 (default: one per core) this process only owns the database and forks that many API workers
 * (server/workers); a worker is this same script.
 */
import cluster from 'node:cluster';
import type { Sequelize } from 'sequelize';
import { loadConfig, type Config } from '../core/config';
import { logger, soleWriter } from '../core/logger';
import { within } from '../core/within';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { initModels } from '../models';
import { startServer } from '../server/server';
import { forkWorkers, reportListening } from '../server/workers';
import { serveClusterMetrics } from '../server/telemetry/metrics-endpoint';
import { startTracing } from '../server/telemetry/tracing-sdk';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { announce, firstStart, type FirstStart } from './start-banner';
import { checkIssuerUrl, checkStoredKeys, preflight } from './start-checks';
import { failStart } from './start-errors';

const POOL_CLOSE_BOUND_MS = 5_000;

try {
  const config = loadConfig();
  if (cluster.isWorker) await runWorker(config);
  else await runPrimary(config);
} catch (err) {
  // A cause the operator can fix is one line and exit code 1 (scripts/start-errors.ts); a bug keeps its stack.
  await failStart(err);
}

async function runWorker(config: Config): Promise<void> {
  const tracing = config.tracing ? await startTracing() : undefined;
  const sequelize = openDatabase(config.databaseUrl!);
  const running = await startServer({ config, sequelize });
  reportListening(running.url, running.authUrl);
  onStop(async () => {
    await running.close();
    await closePool(sequelize);
    await tracing?.stop();
  });
  // A rolling restart is the primary's to run; a terminal's hang-up reaches the workers too and must not end them.
  onRestart(() => undefined);
}

async function runPrimary(config: Config): Promise<void> {
  await preflight(config);
  let embedded: EmbeddedDb | undefined;
  if (!config.databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL 16.8');
    embedded = await startEmbeddedPostgres(config.dataDir);
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const sequelize = openDatabase(databaseUrl);
  try {
    await servePrimary(config, sequelize, databaseUrl, embedded);
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    await embedded?.stop();
    throw err;
  }
}

async function servePrimary(config: Config, sequelize: Sequelize, databaseUrl: string, embedded: EmbeddedDb | undefined): Promise<void> {
  const applied = await migrate(sequelize);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const seed = async (models: ReturnType<typeof initModels>) => {
    await checkStoredKeys(models, config);
    await checkIssuerUrl(models, config);
    return firstStart(models, config);
  };

  if (config.workers === 1) {
    soleWriter();
    const tracing = config.tracing ? await startTracing() : undefined;
    let first: FirstStart = { created: null, existing: null };
    // The first-start tenant exists before the port opens: a client that sees /api/info can sign in at once.
    const running = await startServer({ config, sequelize, beforeListen: async (models) => { first = await seed(models); } });
    announce(config, running.url, running.authUrl, first, 1);
    onStop(async () => {
      await running.close();
      await closePool(sequelize);
      await embedded?.stop();
      await tracing?.stop();
    });
    onRestart(() => logger.warn('SIGHUP ignored: with WORKERS=1 there is no worker to replace'));
    return;
  }

  const first = await seed(initModels(sequelize));
  await sequelize.close();
  const metrics = await serveClusterMetrics(config.metricsPort);
  const workers = forkWorkers(config.workers, { DATABASE_URL: databaseUrl }, { shutdownTimeoutMs: config.shutdownTimeoutMs });
  const stopAll = async () => {
    await workers.stop();
    await metrics.close();
    await embedded?.stop();
  };
  try {
    const { url, authUrl } = await workers.ready;
    announce(config, url, authUrl, first, config.workers);
  } catch (err) {
    await workers.stop();
    await metrics.close();
    throw err;
  }
  onStop(stopAll);
  onRestart(() => void workers.restart());
}

/**
 * SIGINT (a terminal's Ctrl-C reaches every process of the group) and SIGTERM stop this process once, cleanly: a
 * server finishes the requests it holds (server/lifecycle), a primary stops its workers so.
 */
function onStop(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!cluster.isWorker) logger.info({ signal }, 'shutting down');
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Closing the pool waits for connections a hung database never releases; past the bound the process exits anyway
 * (its connections go with it), so a stop is bounded even then.
 */
async function closePool(sequelize: Sequelize): Promise<void> {
  await within(sequelize.close().catch(() => undefined), POOL_CLOSE_BOUND_MS);
}

/** SIGHUP: a rolling restart of the workers (server/workers). */
function onRestart(restart: () => void): void {
  process.on('SIGHUP', restart);
}
