/**
 * `npm start`: the API on PORT (8080). Without DATABASE_URL it runs an embedded PostgreSQL 16.8 with its data in
 * DATA_DIR (./.data), migrates, creates the demo tenant on first start and prints how to get a token. With
 * WORKERS > 1 (default: one per core) this process only owns the database and forks that many API workers
 * (server/workers); a worker is this same script.
 */
import cluster from 'node:cluster';
import { loadConfig, type Config } from '../core/config';
import { logger } from '../core/logger';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { bootstrap, type Bootstrapped } from '../models/bootstrap';
import { initModels } from '../models';
import { startServer } from '../server/server';
import { forkWorkers, reportListening } from '../server/workers';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { PostgresAccessError } from './postgres-user';

const config = loadConfig();
if (cluster.isWorker) await runWorker(config);
else await runPrimary(config);

async function runWorker(config: Config): Promise<void> {
  const sequelize = openDatabase(config.databaseUrl!);
  const running = await startServer({ config, sequelize });
  reportListening(running.url, running.authUrl);
  onStop(async () => {
    await running.close();
    await sequelize.close();
  });
  // A rolling restart is the primary's to run; a terminal's hang-up reaches the workers too and must not end them.
  onRestart(() => undefined);
}

async function runPrimary(config: Config): Promise<void> {
  let embedded: EmbeddedDb | undefined;
  if (!config.databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL 16.8');
    try {
      embedded = await startEmbeddedPostgres(config.dataDir);
    } catch (err) {
      // Configuration advice, not a crash: no stack trace.
      if (!(err instanceof PostgresAccessError)) throw err;
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const sequelize = openDatabase(databaseUrl);
  const applied = await migrate(sequelize);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const seed = (models: ReturnType<typeof initModels>) =>
    bootstrap(models, { tenant: config.bootstrapTenant, email: config.bootstrapAdminEmail, password: config.bootstrapAdminPassword });

  if (config.workers === 1) {
    let seeded: Bootstrapped | null = null;
    // The first-start tenant exists before the port opens: a client that sees /api/info can sign in at once.
    const running = await startServer({ config, sequelize, beforeListen: async (models) => { seeded = await seed(models); } });
    announce(config, running.url, running.authUrl, seeded, 1);
    onStop(async () => {
      await running.close();
      await sequelize.close();
      await embedded?.stop();
    });
    onRestart(() => logger.warn('SIGHUP ignored: with WORKERS=1 there is no worker to replace'));
    return;
  }

  const seeded = await seed(initModels(sequelize));
  await sequelize.close();
  const workers = forkWorkers(config.workers, { DATABASE_URL: databaseUrl }, { shutdownTimeoutMs: config.shutdownTimeoutMs });
  const stopAll = async () => {
    await workers.stop();
    await embedded?.stop();
  };
  try {
    const { url, authUrl } = await workers.ready;
    announce(config, url, authUrl, seeded, config.workers);
  } catch (err) {
    logger.error({ err: (err as Error).message }, 'the service could not start');
    await stopAll();
    process.exit(1);
  }
  onStop(stopAll);
  onRestart(() => void workers.restart());
}

function announce(config: Config, url: string, authUrl: string, seeded: Bootstrapped | null, workers: number): void {
  logger.info({ url: `${url}${config.basePath}/`, authUrl, workers }, 'platform management service listening');
  if (seeded && config.externalAuthUrl) {
    // The identity provider owns passwords in this mode: the admin is linked on its first sign-in by verified email.
    process.stdout.write([
      '',
      `Created tenant '${seeded.tenant}' with admin ${seeded.email}. Tokens come from ${config.externalAuthUrl}/realms/${seeded.tenant};`,
      `sign in there as ${seeded.email} (a verified e-mail address) and that account becomes this admin.`,
      '',
    ].join('\n'));
  } else if (seeded) {
    const tokenUrl = `${authUrl}/realms/${seeded.tenant}/protocol/openid-connect/token`;
    process.stdout.write([
      '',
      `Created tenant '${seeded.tenant}' with admin ${seeded.email} / ${seeded.password}  (shown only this once)`,
      'Get a token and call the API:',
      `  TOKEN=$(curl -s -d client_id=self-service -d grant_type=password -d username=${seeded.email} -d 'password=${seeded.password}' ${tokenUrl} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
      `  curl -H "Authorization: Bearer $TOKEN" -H "realm: ${seeded.tenant}" ${url}${config.basePath}/`,
      '',
    ].join('\n'));
  }
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

/** SIGHUP: a rolling restart of the workers (server/workers). */
function onRestart(restart: () => void): void {
  process.on('SIGHUP', restart);
}
