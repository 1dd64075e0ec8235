/**
 * The database restarted under a mixed write load (issue 32): its fast shutdown ends every session while creates
 * and updates run. Every write answered 2xx is there afterwards, every failure is 503 in the error format with
 * `Retry-After`, and once the database accepts connections again the service writes within 5 s, by itself.
 * The database is the file's own (test/support/own-database), of the suite's kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestTenant } from '../support/app';
import { expectError } from '../support/errors';
import { call, type CallResult } from '../support/http';
import { appOnOwnDatabase, type OwnDatabase } from '../support/own-database';
import { pause } from '../support/service-process';

const LOOPS = 6;
let db: OwnDatabase;
let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  ({ db, app, t } = await appOnOwnDatabase('restart'));
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await db?.close();
});

interface Acknowledged { uid: string; name: string; email?: string }

describe('the database restarted under write load', () => {
  it('loses no acknowledged write, answers 503 with Retry-After meanwhile, and writes again within 5 s of its return', async () => {
    const acknowledged: Acknowledged[] = [];
    const failures: CallResult[] = [];
    let running = true;
    let n = 0;
    const write = async (method: string, path: string, body: unknown): Promise<CallResult | undefined> => {
      const res = await call(app, method, path, { token: t.admin.token, body });
      if (res.status >= 400) failures.push(res);
      return res.status < 300 ? res : undefined;
    };
    // Each loop creates a group, then sets its e-mail address once: a create and an update per round.
    const loop = async (id: number) => {
      while (running) {
        const name = `Restart ${id}-${++n}`;
        const made = await write('POST', '/groups', { name });
        if (!made) { await pause(50); continue; }
        const entry: Acknowledged = { uid: made.body.uid, name };
        acknowledged.push(entry);
        const email = `team-${id}-${n}@example.com`;
        if (await write('PATCH', `/groups/${entry.uid}`, { emailAddress: email })) entry.email = email;
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));

    await pause(1_500);
    const beforeRestart = acknowledged.length;
    await db.stopServer();
    await pause(1_000);
    await db.startServer();
    const back = Date.now();
    const countAtReturn = acknowledged.length;
    while (acknowledged.length === countAtReturn && Date.now() - back < 5_000) await pause(25);
    const recoveredInMs = Date.now() - back;
    await pause(1_000);
    running = false;
    await Promise.all(loops);

    expect(beforeRestart).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    expect(recoveredInMs).toBeLessThan(5_000);
    for (const f of failures) {
      expectError(f, 503);
      expect(f.headers.get('retry-after')).toBe('2');
    }
    const rows = await app.models.Group.findAll({ where: { tenantUid: t.tenant.uid } });
    const byUid = new Map(rows.map((r) => [r.uid as string, r]));
    const lost = acknowledged.filter((a) => !byUid.has(a.uid) || byUid.get(a.uid)!.name !== a.name);
    expect(lost).toEqual([]);
    const unchanged = acknowledged.filter((a) => a.email !== undefined && byUid.get(a.uid)!.email !== a.email);
    expect(unchanged).toEqual([]);
  });
});
