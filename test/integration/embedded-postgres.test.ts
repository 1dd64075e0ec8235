/**
 * The embedded PostgreSQL in a private (0700) directory: as root, where it runs as the `postgres` user, that
 * directory is an ancestor the user cannot traverse, which must neither stop it nor be loosened.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../../scripts/embedded-postgres';
import { PostgresAccessError, isRoot } from '../../scripts/postgres-user';

const privateDir = mkdtempSync(path.join(tmpdir(), 'pms-embedded-'));
const dataDir = path.join(privateDir, 'data');
afterAll(() => rmSync(privateDir, { recursive: true, force: true }));

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('runs a cluster below a 0700 directory and keeps its data across a restart', async () => {
    expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    const port = await freePort();

    const first = await startEmbeddedPostgres(dataDir, 'kept', port);
    try {
      await query(first.url, "CREATE TABLE note AS SELECT 'still here'::text AS text");
    } finally {
      await first.stop();
    }

    const second = await startEmbeddedPostgres(dataDir, 'kept', port);
    try {
      expect(await query(second.url, 'SELECT text FROM note')).toEqual([{ text: 'still here' }]);
    } finally {
      await second.stop();
    }

    expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    const cluster = statSync(path.join(dataDir, 'postgres'));
    expect(cluster.mode & 0o777).toBe(0o700);
    if (isRoot()) expect(cluster.uid).not.toBe(0);
  });

  it('explains what to change when the postgres user cannot run it', () => {
    const { message } = new PostgresAccessError('/root/private/data/postgres', 'the user cannot reach it');
    expect(message).toContain("user 'postgres'");
    expect(message).toContain('/root/private/data/postgres');
    expect(message).toMatch(/Fix: set DATA_DIR .* run as a normal \(non-root\) user, or set DATABASE_URL/);
  });
});
