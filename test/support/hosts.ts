/**
 * Several hosts of one service: `npm start` (WORKERS=1) as many times, each with its own port and DATA_DIR as on
 * separate machines, all on one new database and sharing what README says hosts must share (ENCRYPTION_KEY,
 * PUBLIC_URL). `PMS_HOST_DATABASE_URLS` (space-separated server URLs, e.g. the nodes of a Galera cluster) puts
 * host i on server i (round robin); otherwise every host is on the suite's database server.
 * Each host is also a TestApp facade (its API and issuer by port; the models a connection of the test's own), so
 * the suite's helpers (`call`, `createTenant`, `accessWorld`, …) work through any host.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '../../core/config';
import { initModels } from '../../models';
import { openDatabase } from '../../models/db';
import { freePort } from '../../scripts/embedded-postgres';
import type { TestApp } from './app';
import { npmStart, type NpmStart } from './npm-start';
import { createRunDatabase } from './run-database';
import { killGroups } from './service-process';

export interface Host { port: number; npm: NpmStart; app: TestApp; output: () => string }

export interface Hosts {
  hosts: Host[];
  /** What every host shares. */
  shared: { encryptionKey: string; publicUrl: string; databaseUrls: string[] };
  admin: { tenant: string; username: string; password: string };
  /** Host i, round robin: spreads a batch of requests across the hosts. */
  at: (i: number) => TestApp;
  /** Starts one more host on the same database; `env` overrides what it would share. */
  add: (env?: Record<string, string>) => Promise<Host>;
  stop: () => Promise<void>;
}

export function hostServerUrls(): string[] {
  const listed = (process.env.PMS_HOST_DATABASE_URLS ?? '').split(/\s+/).filter(Boolean);
  return listed.length > 0 ? listed : [inject('databaseUrl')];
}

/** `count` hosts started at once on one new, empty database. */
export async function startHosts(count: number, env: Record<string, string> = {}): Promise<Hosts> {
  const servers = hostServerUrls();
  const db = await createRunDatabase(servers[0]);
  const dbName = new URL(db.url).pathname;
  const databaseUrls = servers.map((s) => Object.assign(new URL(s), { pathname: dbName }).toString());
  const shared = { encryptionKey: randomBytes(32).toString('base64'), publicUrl: 'http://pms-hosts.test', databaseUrls };
  const tenant = `hosts${randomBytes(3).toString('hex')}`;
  const admin = { tenant, username: `admin@${tenant}.test`, password: `${tenant}-admin-password-1` };
  const models = initModels(openDatabase(databaseUrls[0]));
  const dirs: string[] = [];
  const hosts: Host[] = [];

  let started = 0;
  const add = async (extra: Record<string, string> = {}): Promise<Host> => {
    const server = databaseUrls[started++ % databaseUrls.length];
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-host-'));
    dirs.push(dataDir);
    const npm = npmStart({
      DATABASE_URL: server, PORT: String(port), DATA_DIR: dataDir, WORKERS: '1',
      ENCRYPTION_KEY: shared.encryptionKey, PUBLIC_URL: shared.publicUrl, BOOTSTRAP_TENANT: tenant,
      BOOTSTRAP_ADMIN_EMAIL: admin.username, BOOTSTRAP_ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'info', ...env, ...extra,
    });
    const url = `http://127.0.0.1:${port}`;
    const config = { ...loadConfig({}), port, publicUrl: shared.publicUrl };
    const app = { url, api: `${url}/api`, authUrl: `${url}/auth`, port, models, config, stop: async () => undefined } as unknown as TestApp;
    const host: Host = { port, npm, app, output: () => `${npm.stdout()}\n${npm.stderr()}` };
    hosts.push(host);
    await npm.printed('platform management service listening', 120_000);
    return host;
  };

  const stop = async () => {
    await killGroups(hosts.map((h) => h.npm.pid));
    await models.sequelize.close();
    await db.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await Promise.all(Array.from({ length: count }, () => add()));
  } catch (err) {
    await stop();
    throw err;
  }
  return { hosts, shared, admin, at: (i) => hosts[i % hosts.length].app, add, stop };
}
