/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded PostgreSQL in DATA_DIR. */
import { loadConfig } from '../core/config';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { startEmbeddedPostgres } from './embedded-postgres';

const config = loadConfig();
const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
const sequelize = openDatabase(config.databaseUrl ?? embedded!.url);
try {
  const applied = await migrate(sequelize);
  console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await sequelize.close();
  if (embedded) await embedded.stop();
}
