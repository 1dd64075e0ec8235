/**
 * Issue 30: the worker cluster of `npm start` under load. SIGHUP to the primary replaces every worker, one at a time,
 * each new one listening before an old one stops: no request fails. A worker killed outright loses at most the
 * requests it was serving, as connection errors, never as an HTTP error; a replacement takes its place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, gone, load, startService, waitFor, type Load, type Service } from '../support/service-process';

const CONCURRENCY = 8;

let service: Service;
let headers: Record<string, string>;
beforeAll(async () => {
  service = await startService('cluster', 2);
  headers = { Authorization: `Bearer ${await accessToken(service)}` };
}, 180_000);
afterAll(async () => service?.cleanUp());

/** Runs the load until `more` further answers have come after `during` resolved. */
async function under(during: (running: Load) => Promise<void>, more = 100): Promise<Load> {
  const running = load(service.port, '/api/user', headers, CONCURRENCY);
  try {
    await waitFor('answers before', () => running.answered() >= more, 60, service.output);
    await during(running);
    const after = running.answered();
    await waitFor('answers after', () => running.answered() >= after + more, 60, service.output);
  } finally {
    await running.stop();
  }
  return running;
}

const replacedAll = (before: number[]) => () => {
  const now = service.workers();
  return now.length === before.length && now.every((pid) => !before.includes(pid));
};

describe('the worker cluster under load', () => {
  it('SIGHUP: every worker replaced, one at a time, and not one request lost', async () => {
    const before = service.workers();
    expect(before).toHaveLength(2);
    let duringRestart = 0;
    const result = await under(async (running) => {
      const from = running.answered();
      process.kill(service.primary, 'SIGHUP');
      await waitFor('every worker replaced', replacedAll(before), 120, service.output);
      await waitFor('the restart reported done', () => service.output().includes('rolling restart done'), 60, service.output);
      duringRestart = running.answered() - from;
    });
    expect(result.failures).toEqual([]);
    expect([...result.statuses.keys()]).toEqual([200]);
    expect(duringRestart, 'the load ran through the restart').toBeGreaterThan(0);
    expect(service.output()).not.toContain('starting another');
  }, 300_000);

  it('a worker killed outright: only its own requests fail, as connection errors; another takes its place', async () => {
    const before = service.workers();
    const victim = before[0];
    const result = await under(async () => {
      process.kill(victim, 'SIGKILL');
      await waitFor('a replacement worker', () => {
        const now = service.workers();
        return now.length === 2 && !now.includes(victim);
      }, 120, service.output);
    });
    expect([...result.statuses.keys()]).toEqual([200]);
    expect(result.failures.every((code) => ['ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)), result.failures.join(', ')).toBe(true);
    expect(result.failures.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(service.output()).toContain('worker exited; starting another');
  }, 300_000);

  it('SIGTERM afterwards still stops the whole cluster cleanly', async () => {
    const all = [service.primary, ...service.workers()];
    process.kill(service.primary, 'SIGTERM');
    expect(await service.exited).toBe(0);
    expect(await gone(all)).toEqual([]);
  }, 120_000);
});
