/**
 * Once per test run: a database server (embedded PostgreSQL 16.8, or the server DATABASE_URL names), a fresh
 * database on it, migrated once. Test files get its URL through `inject('databaseUrl')`. And the portal, built as
 * `npm start` builds it, so the tests that run `npm start` find it built.
 */
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDb } from '../../scripts/embedded-postgres';
import { openDatabase } from '../../models/db';
import { migrate } from '../../migrations/migrator';
import { createRunDatabase } from './run-database';
import { buildPortal } from '../../scripts/build-portal';
import { sqlGuard } from './sql-guard';

declare module 'vitest' {
  export interface ProvidedContext { databaseUrl: string; dataDir: string }
}

let embedded: EmbeddedDb | undefined;
let dataDir = '';
let dropRunDatabase: (() => Promise<void>) | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Before any test runs `npm start`: its prestart then finds the portal built and starts at once.
  await buildPortal();
  dataDir = mkdtempSync(path.join(tmpdir(), 'pms-test-'));
  let url: string;
  if (process.env.DATABASE_URL) {
    const run = await createRunDatabase(process.env.DATABASE_URL);
    url = run.url;
    dropRunDatabase = run.drop;
  } else {
    embedded = await startEmbeddedPostgres(dataDir, 'platform_test');
    url = embedded.url;
  }
  const guard = sqlGuard(url);
  const sequelize = openDatabase(url, { logging: guard.logging });
  await migrate(sequelize);
  if (guard.violations.length > 0) throw new Error(`migrations use SQL newer than MariaDB 10.3:\n${guard.violations.join('\n')}`);
  const [[version]] = (await sequelize.query('SELECT VERSION() AS v')) as [Array<{ v: string }>, unknown];
  console.log(`test database: ${url.replace(/\/\/[^@]*@/, '//')} — ${version.v}`);
  await sequelize.close();
  project.provide('databaseUrl', url);
  project.provide('dataDir', dataDir);
}

export async function teardown(): Promise<void> {
  if (dropRunDatabase) await dropRunDatabase();
  if (embedded) await embedded.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
