/**
 * Issue 30: what `npm start` tells its operator. The first start prints the admin's password; a restart says the
 * admin exists and how to reset its password; every start names the token issuer clients must use — the one that
 * discovery at any address announces — and, without PUBLIC_URL, that production sets it.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dialectOf } from '../../models/db';
import { freePort } from '../../scripts/embedded-postgres';
import { npmStart, ROOT, type NpmStart } from '../support/npm-start';
import { createRunDatabase } from '../support/run-database';

const tenant = `banner-${randomBytes(3).toString('hex')}`;
const email = `admin@${tenant}.test`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-banner-'));
const running: NpmStart[] = [];
let database: { url: string; drop: () => Promise<void> } | undefined;
afterAll(async () => {
  for (const start of running) await start.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const HINT = 'PUBLIC_URL is not set, so the issuer is localhost whatever host clients call: in production set PUBLIC_URL to the URL clients reach this service at.';

/**
 * `npm start` until its banner's issuer line; then stopped. Answers what it printed and discovery's issuer. On the
 * run's server by default; `DATABASE_URL: undefined` runs it on the embedded PostgreSQL of DATA_DIR.
 */
async function start(env: Record<string, string | undefined>, whileRunning?: (stdout: string) => Promise<void>): Promise<{ stdout: string; stderr: string; discovered: string; port: number }> {
  database ??= await createRunDatabase(inject('databaseUrl'));
  const port = await freePort();
  const service = npmStart({ DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), BOOTSTRAP_TENANT: tenant, BOOTSTRAP_ADMIN_EMAIL: email, WORKERS: '1', ...env });
  running.push(service);
  try {
    // The banner is one write: once its issuer line is there, all of it is.
    await service.printed('Token issuer');
    const res = await fetch(`http://127.0.0.1:${port}/auth/realms/${tenant}/.well-known/openid-configuration`);
    const { issuer } = (await res.json()) as { issuer: string };
    await whileRunning?.(service.stdout());
    return { stdout: service.stdout(), stderr: service.stderr(), discovered: issuer, port };
  } finally {
    await service.stop();
  }
}

/** The banner's lines, and npm's echo of the scripts it runs: everything else `npm start` prints is a JSON log line. */
const BANNER = [/^Portal: /, /^Created tenant '/, /^Get a token and call the API:$/, /^ {2}TOKEN=\$\(curl /, /^ {2}curl /, /^Admin \S+ of tenant '/, /^Token issuer/, /^PUBLIC_URL is not set/];
const NPM_ECHO = /^> /;
const isJson = (line: string) => { try { JSON.parse(line); return true; } catch { return false; } };
interface Run { code: number | null; stdout: string; stderr: string }

/** `script` in bash in the repository, as an operator pastes it; an undefined value removes that variable. */
function bash(script: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete merged[key];
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: ROOT, env: merged, timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const neitherJsonNorBanner = (stdout: string) =>
  stdout.split('\n').filter((line) => line !== '' && !NPM_ECHO.test(line) && !isJson(line) && !BANNER.some((b) => b.test(line)));

describe('the start banner', () => {
  it('first start: the password once and the issuer that discovery announces', async () => {
    const { stdout, discovered, port } = await start({});
    expect(stdout).toMatch(new RegExp(`Created tenant '${tenant}' with admin ${email} / \\S+ {2}\\(shown only this once\\)`));
    const issuer = `http://localhost:${port}/auth/realms/${tenant}`;
    expect(stdout).toContain(`Token issuer of tenant '${tenant}' (clients must use exactly this URL): ${issuer}\n${HINT}`);
    expect(stdout).toContain(`Portal: http://localhost:${port}/?tenant=${tenant}  (sign in there with the admin's e-mail address and password)\n`);
    expect(discovered).toBe(issuer);
  }, 120_000);

  it('a restart (as a cluster): the admin exists, and how to reset its password', async () => {
    const { stdout, port } = await start({ WORKERS: '2' });
    expect(stdout).not.toContain('Created tenant');
    expect(stdout).toContain(`Admin ${email} of tenant '${tenant}' already exists; lost its password? npm run admin -- reset-password ${email}  (with this service's DATABASE_URL)\n`);
    expect(stdout).toContain(`Token issuer of tenant '${tenant}' (clients must use exactly this URL): http://localhost:${port}/auth/realms/${tenant}\n`);
  }, 120_000);

  it('with PUBLIC_URL: that issuer, and no advice', async () => {
    const { stdout, discovered } = await start({ PUBLIC_URL: 'https://pms.example.com' });
    const issuer = `https://pms.example.com/auth/realms/${tenant}`;
    expect(stdout).toContain(`Token issuer of tenant '${tenant}' (clients must use exactly this URL): ${issuer}\n`);
    expect(stdout).not.toContain('PUBLIC_URL is not set');
    expect(stdout).toContain(`Portal: https://pms.example.com/?tenant=${tenant}  (`);
    expect(discovered).toBe(issuer);
  }, 120_000);
});

describe.skipIf(dialectOf(inject('databaseUrl')) !== 'postgres')('the start banner on the embedded PostgreSQL of a DATA_DIR', () => {
  // A space makes the printed DATA_DIR a quoted shell word.
  const embedded = { DATABASE_URL: undefined, DATA_DIR: path.join(dataDir, 'embedded data') };

  it('first start: JSON log lines and the banner, nothing else (no warning of a library); its curl lines work as printed', async () => {
    let called: Run | undefined;
    const { stdout, stderr } = await start({ ...embedded, LOG_LEVEL: 'info' }, async (printed) => {
      const lines = printed.split('\n').filter((line) => /^ {2}(TOKEN=|curl )/.test(line));
      called = await bash(lines.join('\n'));
    });
    expect(stderr).toBe('');
    expect(stdout).toContain('"msg":"migrations applied"');
    expect(stdout).toMatch(/^Created tenant '/m);
    expect(stdout).not.toContain('realm:');
    expect(neitherJsonNorBanner(stdout)).toEqual([]);
    expect(called?.code, called?.stderr).toBe(0);
    expect(JSON.parse(called!.stdout)._links).toHaveProperty('users');
  }, 120_000);

  it('a restart: the reset-password hint names this DATA_DIR, and the command works as printed', async () => {
    const { stdout } = await start(embedded);
    const hint = `lost its password? DATA_DIR='${embedded.DATA_DIR}' npm run admin -- reset-password ${email}\n`;
    expect(stdout).toContain(`Admin ${email} of tenant '${tenant}' already exists; ${hint}`);
    const command = /lost its password\? (.*)$/m.exec(stdout)![1];
    const run = await bash(command, { DATABASE_URL: undefined, DATA_DIR: undefined });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^New password of ${email} in tenant '${tenant}': \\S+ {2}\\(shown only this once\\)$`, 'm'));
  }, 120_000);
});
