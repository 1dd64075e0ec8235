/**
 * Per test file: the real service on a loopback port against the run's database, and a tenant of the file's own
 * (tests never share fixtures and never clean up after each other).
 */
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../core/config';
import { openDatabase } from '../../models/db';
import { startServer, type RunningServer } from '../../server/server';
import { hashSecret } from '../../core/passwords';
import { sqlGuard } from './sql-guard';
import { transactionGuard } from './transaction-guard';
import type { Options } from 'sequelize';
import type { Row } from '../../models/define';
import { seedReferenceData } from '../../models/reference-data';

export interface TestApp extends RunningServer { api: string; config: Config; stop: () => Promise<void> }

/** `database`: Sequelize options over the service's own (a narrower pool, say). */
export async function startTestApp(overrides: Partial<Config> = {}, database: Options = {}): Promise<TestApp> {
  // `databaseUrl`: another database than the run's (one a test made and migrated itself).
  const url = overrides.databaseUrl ?? inject('databaseUrl');
  const guard = sqlGuard(url);
  const sequelize = openDatabase(url, { logging: guard.logging, ...database });
  const outside = transactionGuard(sequelize);
  // No expiry sweep and no notification delivery unless a test asks for them: on the shared database they would
  // revoke other files' expired grants and deliver other files' messages.
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults, port: 0, dataDir: inject('dataDir'), validateResponses: true, accessExpirySweepMs: 0,
    notifications: { ...defaults.notifications, intervalMs: 0 }, ...overrides,
  };
  const running = await startServer({ config, sequelize, host: '127.0.0.1' });
  return {
    ...running,
    config,
    api: `${running.url}${config.basePath}`,
    stop: async () => {
      await running.close();
      await sequelize.close();
      if (guard.violations.length > 0) throw new Error(`SQL newer than MariaDB 10.3:\n${guard.violations.join('\n')}`);
      if (outside.violations.length > 0) {
        throw new Error(`Statements outside their open transaction, or two at once on one:\n${[...new Set(outside.violations)].join('\n')}`);
      }
    },
  };
}

export interface TestUser { user: Row; email: string; password: string; token: string }
export interface TestTenant { tenant: Row; shortName: string; admin: TestUser }

const suffix = () => randomBytes(4).toString('hex');

/** A new tenant with a TENANT_ADMIN, created straight in the database (tenant creation over HTTP is tested apart). */
export async function createTenant(app: TestApp, prefix = 't'): Promise<TestTenant> {
  const shortName = `${prefix}-${suffix()}`.toLowerCase().slice(0, 30);
  const tenant = await app.models.Tenant.create({ name: `Tenant ${shortName}`, shortName });
  await seedReferenceData(app.models.sequelize.getQueryInterface(), tenant.uid);
  const admin = await createUser(app, { tenant, shortName } as TestTenant, ['TENANT_ADMIN']);
  return { tenant, shortName, admin };
}

export async function createUser(app: TestApp, t: Pick<TestTenant, 'tenant' | 'shortName'>, roles: string[], name = 'user'): Promise<TestUser> {
  const email = `${name}-${suffix()}@${t.shortName}.test`;
  const password = `pw-${suffix()}-${suffix()}`;
  const user = await app.models.User.create({
    tenantUid: t.tenant.uid, firstName: 'Test', lastName: name, email, passwordHash: await hashSecret(password), roles,
  });
  // External IdP mode (AUTH_URL) has no embedded token endpoint: tests sign their own tokens there.
  const token = app.config.externalAuthUrl ? '' : await passwordToken(app, t.shortName, email, password);
  return { user, email, password, token };
}

export async function passwordToken(app: TestApp, realm: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${app.authUrl}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The suite's app and a tenant of its own, the start of most suites. */
export async function startWithTenant(prefix: string, overrides: Partial<Config> = {}): Promise<{ app: TestApp; t: TestTenant }> {
  const app = await startTestApp(overrides);
  return { app, t: await createTenant(app, prefix) };
}
