/**
 * Issue 15: `npm start` answers nothing before it can serve. A client that waits for `/api/info` and then asks for
 * a token must get one: the first-start tenant exists before the port is open. The real start script, on a fresh
 * database of the suite's server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/embedded-postgres';
import { createRunDatabase } from '../support/run-database';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
let child: ChildProcess | undefined;
let drop: (() => Promise<void>) | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-start-'));

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('opens its port only when the first-start tenant can sign in', async () => {
    const db = await createRunDatabase(inject('databaseUrl'));
    drop = db.drop;
    const port = await freePort();
    const password = 'early-admin-password-1';
    child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/start.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), DATA_DIR: dataDir, BOOTSTRAP_TENANT: 'early', BOOTSTRAP_ADMIN_EMAIL: 'admin@early.test', BOOTSTRAP_ADMIN_PASSWORD: password, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => { output += String(d); });
    child.stderr!.on('data', (d) => { output += String(d); });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    // Poll as a deployment's readiness probe does: the first 200 is the signal.
    for (;;) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no /api/info within 60 s:\n${output}`);
      const res = await fetch(`${base}/api/info`).catch(() => undefined);
      if (res?.status === 200) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const token = await fetch(`${base}/auth/realms/early/protocol/openid-connect/token`, {
      method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username: 'admin@early.test', password }),
    });
    expect(token.status, await token.clone().text()).toBe(200);
    const accessToken = ((await token.json()) as { access_token: string }).access_token;
    const me = await fetch(`${base}/api/user`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
  }, 120_000);
});
