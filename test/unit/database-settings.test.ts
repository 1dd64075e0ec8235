/**
 * What openDatabase hands Sequelize and the drivers: `DATABASE_POOL_MAX` (default 10) as every dialect's pool size,
 * refused naming the variable when it is no positive whole number; a MySQL-family URL without its parameters and
 * with the `ssl` option they ask for; a parameter the service does not read stopping the open. Nothing connects.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Sequelize } from 'sequelize';
import { ConfigError, databasePoolMax, loadConfig } from '../../core/config';
import { openDatabase } from '../../models/db';
import { certificateKit } from '../support/certificates';

const URLS = { postgres: 'postgres://u:p@127.0.0.1:9/none', mysql: 'mysql://u:p@127.0.0.1:9/none', mariadb: 'mariadb://u:p@127.0.0.1:9/none' };
const opened: Sequelize[] = [];
const open = (url: string, extra = {}) => {
  const sequelize = openDatabase(url, extra);
  opened.push(sequelize);
  return sequelize;
};
/** The size of the pool Sequelize made (sequelize-pool's own reading of `pool.max`). */
const poolMax = (sequelize: Sequelize) => (sequelize.connectionManager as unknown as { pool: { maxSize: number } }).pool.maxSize;
afterEach(() => { vi.unstubAllEnvs(); });
afterAll(async () => { for (const sequelize of opened) await sequelize.close(); });

describe('DATABASE_POOL_MAX', () => {
  it('defaults to 10 connections per process', () => {
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(databasePoolMax({})).toBe(10);
    expect(databasePoolMax({ DATABASE_POOL_MAX: ' ' })).toBe(10);
  });

  it('takes a positive whole number', () => {
    expect(loadConfig({ DATABASE_POOL_MAX: '25' }).databasePoolMax).toBe(25);
    expect(databasePoolMax({ DATABASE_POOL_MAX: '1' })).toBe(1);
  });

  it.each(['0', '-5', '2.5', 'ten', '10x', 'Infinity'])('%j is refused in one line naming it', (raw) => {
    expect(() => loadConfig({ DATABASE_POOL_MAX: raw })).toThrow(new ConfigError(`DATABASE_POOL_MAX must be a positive whole number of connections, got "${raw}"`));
  });

  it.each(Object.entries(URLS))('is the pool size of every %s pool openDatabase opens', (_dialect, url) => {
    expect(poolMax(open(url))).toBe(10);
    vi.stubEnv('DATABASE_POOL_MAX', '3');
    expect(poolMax(open(url))).toBe(3);
    expect(poolMax(open(url, { pool: { max: 2 } }))).toBe(2);
    vi.stubEnv('DATABASE_POOL_MAX', '0');
    expect(() => openDatabase(url)).toThrow(ConfigError);
  });
});

describe('a MySQL-family URL as openDatabase passes it on', () => {
  const kit = certificateKit();
  const dir = mkdtempSync(path.join(tmpdir(), 'database-settings-'));
  const ca = path.join(dir, 'ca.pem');
  writeFileSync(ca, kit.ca.cert);
  afterAll(() => {
    kit.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['mysql', 'mariadb'] as const)('%s: no parameter reaches the driver, only the ssl option and the service\'s own', (dialect) => {
    const sequelize = open(`${dialect}://u:p@db.invalid:9/none?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`);
    const dialectOptions = sequelize.config.dialectOptions as Record<string, unknown>;
    expect(Object.keys(dialectOptions).sort()).toEqual(dialect === 'mysql' ? ['charset', 'connectTimeout', 'ssl'] : ['connectTimeout', 'ssl']);
    expect(dialectOptions.ssl).toMatchObject({ ca: kit.ca.cert, rejectUnauthorized: true });
    expect(sequelize.config).toMatchObject({ host: 'db.invalid', port: '9', database: 'none', username: 'u', password: 'p' });
  });

  it.each(['mysql', 'mariadb'] as const)('%s: without parameters, no ssl option', (dialect) => {
    expect(open(URLS[dialect]).config.dialectOptions).not.toHaveProperty('ssl');
  });

  it.each(['mysql', 'mariadb'] as const)('%s: a percent-encoded password arrives decoded', (dialect) => {
    expect(open(`${dialect}://u:p%40ss%3Aw%2Frd@127.0.0.1:9/none?sslmode=require`).config.password).toBe('p@ss:w/rd');
  });

  it.each(['mysql', 'mariadb'] as const)('%s: ssl=true (the drivers\' own name) stops the open', (dialect) => {
    expect(() => openDatabase(`${URLS[dialect]}?ssl=true`)).toThrow(/^DATABASE_URL parameter "ssl" is not one the service reads/);
  });

  it('PostgreSQL URLs keep node-postgres\'s own reading (sslmode and the rest)', () => {
    const sequelize = open(`${URLS.postgres}?sslmode=no-verify`);
    expect((sequelize.config.dialectOptions as Record<string, unknown>).ssl).toEqual({ rejectUnauthorized: false });
  });
});
