/**
 * `npm start`: the API on PORT (8080). Without DATABASE_URL it runs an embedded PostgreSQL 16.8 with its data in
 * DATA_DIR (./.data), migrates, creates the demo tenant on first start and prints how to get a token.
 */
import { loadConfig } from '../server/config';
import { logger } from '../server/logger';
import { openDatabase } from '../models/db';
import { migrate } from '../models/migrator';
import { bootstrap } from '../models/bootstrap';
import { startServer } from '../server/server';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';
import { PostgresAccessError } from './postgres-user';

const config = loadConfig();
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
const sequelize = openDatabase(config.databaseUrl ?? embedded!.url);
const applied = await migrate(sequelize);
if (applied.length > 0) logger.info({ applied }, 'migrations applied');
let seeded = null as Awaited<ReturnType<typeof bootstrap>>;
// The first-start tenant exists before the port opens: a client that sees /api/info can sign in at once.
const running = await startServer({
  config, sequelize,
  beforeListen: async (models) => {
    seeded = await bootstrap(models, { tenant: config.bootstrapTenant, email: config.bootstrapAdminEmail, password: config.bootstrapAdminPassword });
  },
});

logger.info({ url: `${running.url}${config.basePath}/`, authUrl: running.authUrl }, 'platform management service listening');
if (seeded && config.externalAuthUrl) {
  // The identity provider owns passwords in this mode: the admin is linked on its first sign-in by verified email.
  process.stdout.write([
    '',
    `Created tenant '${seeded.tenant}' with admin ${seeded.email}. Tokens come from ${config.externalAuthUrl}/realms/${seeded.tenant};`,
    `sign in there as ${seeded.email} (a verified e-mail address) and that account becomes this admin.`,
    '',
  ].join('\n'));
} else if (seeded) {
  const tokenUrl = `${running.authUrl}/realms/${seeded.tenant}/protocol/openid-connect/token`;
  process.stdout.write([
    '',
    `Created tenant '${seeded.tenant}' with admin ${seeded.email} / ${seeded.password}  (shown only this once)`,
    'Get a token and call the API:',
    `  TOKEN=$(curl -s -d client_id=self-service -d grant_type=password -d username=${seeded.email} -d 'password=${seeded.password}' ${tokenUrl} | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -H "Authorization: Bearer $TOKEN" -H "realm: ${seeded.tenant}" ${running.url}${config.basePath}/`,
    '',
  ].join('\n'));
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await running.close();
  await sequelize.close();
  if (embedded) await embedded.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
