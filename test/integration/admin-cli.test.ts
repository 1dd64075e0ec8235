/**
 * Issue 30: `npm run admin` administers the service without its API, as the real script run by a shell: on a
 * database of its own on the run's server (PostgreSQL, MariaDB through both drivers), and on the embedded database
 * of a DATA_DIR, stopped or in use by a running service.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrations } from '../../migrations';
import { dialectOf } from '../../models/db';
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres';
import { runAdmin, type AdminRun } from '../support/admin-cli';
import { passwordToken, startTestApp, type TestApp } from '../support/app';
import { call } from '../support/http';
import { createRunDatabase } from '../support/run-database';

/** `npm run admin` on this file's database unless `env` says otherwise. */
const admin = (args: string[], env: Record<string, string | undefined> = {}, npm = false) => runAdmin(args, { DATABASE_URL: database.url, ...env }, npm);

/** The password a command printed once. */
const printedPassword = (run: AdminRun) => /(?:\/|:) (\S+) {2}\(shown only this once\)/.exec(run.stdout)?.[1] ?? '';

const dirs: string[] = [];
let database: { url: string; drop: () => Promise<void> };
let app: TestApp | undefined;
beforeAll(async () => { database = await createRunDatabase(inject('databaseUrl')); });
afterAll(async () => {
  await app?.stop();
  await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const usage = 'Usage: npm run admin -- <command> [arguments]';

describe('npm run admin', () => {
  it.concurrent.each([
    [[], /^Usage: npm run admin --/],
    [['bogus'], /^unknown command 'bogus'$/],
    [['create-tenant', 'acme'], /^create-tenant takes <shortName> <admin email>$/],
    [['create-tenant', 'Not_A_Name', 'a@acme.test'], /^the shortName must match /],
    [['create-tenant', 'acme', 'not-an-address'], /^not an e-mail address: 'not-an-address'$/],
    [['reset-password'], /^reset-password takes <email>$/],
    [['list-tenants', '--yaml'], /^list-tenants: Unknown option '--yaml'/],
    [['migrate', 'now'], /^migrate takes no arguments$/],
  ])('refuses %j with one line and the usage (exit code 2)', async (args, line) => {
    const run = await admin(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(line);
    expect(run.stderr).toContain(usage);
    expect(run.stdout).toBe('');
  });

  it('help prints the usage', async () => {
    const run = await admin(['help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(usage);
    for (const command of ['reset-password', 'create-tenant', 'list-tenants', 'migrate', 'status']) expect(run.stdout).toContain(`  ${command}`);
  });

  it('asks for the migrations before anything else on a new database', async () => {
    const run = await admin(['list-tenants']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`the database lacks ${migrations.length} migration(s) of this version (${migrations[0].name}…): run npm run admin -- migrate, or start the service\n`);
    const status = JSON.parse((await admin(['status', '--json'])).stdout);
    expect(status.migrations).toMatchObject({ applied: 0, known: migrations.length, latest: null, pending: migrations.map((m) => m.name) });
    expect(status.tenants).toBeNull();
  });

  it('migrate applies every migration once (also through npm)', async () => {
    const first = await admin(['migrate'], {}, true);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(`applied: ${migrations.map((m) => m.name).join(', ')}\n`);
    const again = await admin(['migrate']);
    expect(again.stdout).toBe('database is up to date\n');
    app = await startTestApp({ databaseUrl: database.url });
  });

  it('create-tenant prints a password that signs in; the first tenant\'s admin is also SUPER_ADMIN', async () => {
    const run = await admin(['create-tenant', 'acme', 'admin@acme.test', '--name', 'Acme Corp']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Created tenant 'acme' with admin admin@acme\.test \/ \S{20} {2}\(shown only this once\)\n/);
    expect(run.stdout).toContain('Roles: SUPER_ADMIN, TENANT_ADMIN, APPLICATION_AUTHOR, ENVIRONMENT_AUTHOR, STREAM_AUTHOR\n');
    expect(run.stdout).toMatch(/\nToken issuer: http:\/\/localhost:\d+\/auth\/realms\/acme\n/);
    const token = await passwordToken(app!, 'acme', 'admin@acme.test', printedPassword(run));
    const me = await call(app!, 'GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.roles.map((r: { name: string }) => r.name)).toEqual(['SUPER_ADMIN', 'TENANT_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR']);
    const tenant = await call(app!, 'GET', '/tenant', { token });
    expect(tenant.body).toMatchObject({ name: 'Acme Corp', shortName: 'acme' });
    // Reference data is seeded as for a tenant made through the API.
    expect((await call(app!, 'GET', '/confidentialities', { token })).body.page.totalElements).toBeGreaterThan(0);

    const second = await admin(['create-tenant', 'beta', 'shared@example.test']);
    expect(second.stdout).toContain('Roles: TENANT_ADMIN, APPLICATION_AUTHOR, ENVIRONMENT_AUTHOR, STREAM_AUTHOR\n');
    expect(await passwordToken(app!, 'beta', 'shared@example.test', printedPassword(second))).not.toBe('');
    expect((await admin(['create-tenant', 'gamma', 'shared@example.test'])).code).toBe(0);

    const taken = await admin(['create-tenant', 'acme', 'other@acme.test']);
    expect(taken).toMatchObject({ code: 1, stdout: '', stderr: "tenant 'acme' already exists\n" });
  });

  it('reset-password: the old password stops working, the new one works, and the tenant\'s audit history says so', async () => {
    const before = await admin(['create-tenant', 'delta', 'admin@delta.test']);
    const old = printedPassword(before);
    const run = await admin(['reset-password', 'Admin@Delta.test']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^New password of admin@delta\.test in tenant 'delta': \S{20} {2}\(shown only this once\)\n$/);
    const fresh = printedPassword(run);
    await expect(passwordToken(app!, 'delta', 'admin@delta.test', old)).rejects.toThrow(/401/);
    const token = await passwordToken(app!, 'delta', 'admin@delta.test', fresh);

    const history = await call(app!, 'GET', '/audit-history?actor=admin-cli&resourceType=User&action=UPDATED', { token });
    expect(history.status).toBe(200);
    const events = history.body._embedded.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'UPDATED', resourceType: 'User', resourceName: 'admin@delta.test', actor: 'admin-cli', tenant: 'delta', details: { password: '***' } });
    expect(events[0].actorName).toMatch(/^npm run admin by \S+@\S+$/);
    expect(JSON.stringify(history.body)).not.toContain(fresh);
  });

  it('reset-password needs --tenant for an address of several tenants, and names what it cannot find', async () => {
    const both = await admin(['reset-password', 'shared@example.test']);
    expect(both).toMatchObject({ code: 1, stdout: '', stderr: 'shared@example.test is a user of tenants beta, gamma: name one with --tenant <shortName>\n' });
    const one = await admin(['reset-password', 'shared@example.test', '--tenant', 'gamma']);
    expect(one.stdout).toMatch(/^New password of shared@example\.test in tenant 'gamma': /);
    expect(await passwordToken(app!, 'gamma', 'shared@example.test', printedPassword(one))).not.toBe('');

    expect(await admin(['reset-password', 'nobody@example.test'])).toMatchObject({ code: 1, stderr: 'no user with e-mail address nobody@example.test (a service account has no password)\n' });
    expect(await admin(['reset-password', 'admin@acme.test', '--tenant', 'beta'])).toMatchObject({ code: 1, stderr: "no user with e-mail address admin@acme.test in tenant 'beta' (a service account has no password)\n" });
    expect(await admin(['reset-password', 'admin@acme.test', '--tenant', 'nowhere'])).toMatchObject({ code: 1, stderr: "no tenant 'nowhere' (npm run admin -- list-tenants lists them)\n" });
  });

  it('list-tenants lists the tenants, as text and as JSON', async () => {
    const text = await admin(['list-tenants']);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SHORT NAME +NAME +USERS +CREATED$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(['acme', 'beta', 'delta', 'gamma']);
    expect(lines[1]).toMatch(/^acme +Acme Corp +1 +\d{4}-\d\d-\d\dT/);
    const json = JSON.parse((await admin(['list-tenants', '--json'])).stdout);
    expect(json.map((t: { shortName: string; users: number }) => [t.shortName, t.users])).toEqual([['acme', 1], ['beta', 1], ['delta', 1], ['gamma', 1]]);
  });

  it('status says the version /api/info says, the migration level and the numbers of tenants and users', async () => {
    const info = await call(app!, 'GET', '/info');
    const json = JSON.parse((await admin(['status', '--json'])).stdout);
    expect(json).toMatchObject({
      version: info.body.version,
      migrations: { applied: migrations.length, known: migrations.length, latest: migrations.at(-1)!.name, pending: [], unknown: [] },
      tenants: 4,
      users: { people: 4, serviceAccounts: 0 },
    });
    expect(json.database).toContain(`${new URL(database.url).pathname.slice(1)} at `);
    const text = (await admin(['status'])).stdout;
    expect(text).toContain(`version     ${info.body.version}\n`);
    expect(text).toContain(`migrations  ${migrations.length} of ${migrations.length} applied (latest ${migrations.at(-1)!.name})\n`);
    expect(text).toContain('tenants     4\n');
    expect(text).toContain('users       4 people, 0 service accounts\n');
  });

  it('rotate-signing-key: a new active key, the previous one kept for its grace period; refused with another ENCRYPTION_KEY', async () => {
    const keys = () => app!.models.SigningKey.findAll({ order: [['createdAt', 'ASC']] });
    const before = await keys();
    expect(before.filter((k) => k.retiredAt === null)).toHaveLength(1);
    const wrong = await admin(['rotate-signing-key'], { ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('ENCRYPTION_KEY');
    expect(await keys()).toHaveLength(before.length);

    const run = await admin(['rotate-signing-key'], { DATA_DIR: inject('dataDir') });
    expect(run.code, run.stderr).toBe(0);
    const after = await keys();
    const active = after.filter((k) => k.retiredAt === null);
    expect(active).toHaveLength(1);
    expect(run.stdout).toContain(`New signing key ${active[0].kid}:`);
    const previous = after.find((k) => k.kid === before.find((b) => b.retiredAt === null)!.kid)!;
    expect(previous.retiredAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
  });

  it('says in one line when DATABASE_URL is refused (exit code 1)', async () => {
    const url = new URL(database.url);
    url.password = 'not-the-password';
    const run = await admin(['status'], { DATABASE_URL: url.toString() });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^the database at \S+ refused user '\S+' .*: fix DATABASE_URL\n$/);
  });
});

describe.skipIf(dialectOf(inject('databaseUrl')) !== 'postgres')('npm run admin on the embedded database of DATA_DIR', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-admin-'));
  dirs.push(dataDir);
  const embedded = { DATABASE_URL: undefined, DATA_DIR: dataDir };
  const lockFile = path.join(dataDir, 'postgres', 'postmaster.pid');

  it('starts its PostgreSQL for the command when no service runs, and stops it after', async () => {
    expect((await admin(['migrate'], embedded)).code).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
    const created = await admin(['create-tenant', 'local', 'admin@local.test'], embedded);
    expect(created.code, created.stderr).toBe(0);
    const status = await admin(['status'], embedded);
    expect(status.stdout).toContain(`database    embedded PostgreSQL of ${dataDir} (started for this command)\n`);
    expect(status.stdout).toContain('tenants     1\n');
    expect(existsSync(lockFile)).toBe(false);
  }, 120_000);

  it('works through the running PostgreSQL when the service runs on that DATA_DIR, and leaves it running', async () => {
    const running = await startEmbeddedPostgres(dataDir);
    try {
      const status = await admin(['status'], embedded);
      expect(status.stdout).toMatch(/database +embedded PostgreSQL of \S+ \(running, pid \d+\)\n/);
      const reset = await admin(['reset-password', 'admin@local.test'], embedded);
      expect(reset.code, reset.stderr).toBe(0);
      const client = new pg.Client(running.url);
      await client.connect();
      try {
        const { rows } = await client.query("SELECT actor FROM audit_events WHERE action = 'UPDATED' AND resource_name = 'admin@local.test'");
        expect(rows).toEqual([{ actor: 'admin-cli' }]);
      } finally {
        await client.end();
      }
    } finally {
      await running.stop();
    }
  }, 120_000);
});
