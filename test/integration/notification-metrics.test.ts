/**
 * The outbox's metric (issue 44): `notifications` counts the rows by status — pending (not tried
 * yet), failed (waiting for a retry), sent, dead — read from the database at scrape time at most every few
 * seconds. A backlog or dead messages never fail readiness; a database that is away leaves the scrape answering
 * without the outbox's series, which come back with it. The database is the file's own (test/support/own-database),
 * so the counts are exactly this file's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, type Outgoing } from '../../models/notification';
import type { TestApp, TestTenant } from '../support/app';
import { scrape, valueOf, type Sample } from '../support/metrics';
import { appOnOwnDatabase, type OwnDatabase } from '../support/own-database';
import { waitFor } from '../support/service-process';

let db: OwnDatabase;
let app: TestApp;
let t: TestTenant;

beforeAll(async () => {
  ({ db, app, t } = await appOnOwnDatabase('outbox-metric'));
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await db?.close();
});

const METRIC = 'notifications';
const outbox = (samples: Sample[]) => Object.fromEntries(['pending', 'failed', 'sent', 'dead'].map((state) => [state, valueOf(samples, METRIC, { status: state })]));
const write = (n: number) => app.models.sequelize.transaction((transaction) => enqueue(app.models.Notification, Array.from({ length: n }, (_, i): Outgoing => ({
  tenantUid: t.tenant.uid as string, event: 'access.requested', channel: 'email', recipient: `m${i}@example.com`, payload: JSON.stringify({ subject: `m${i}` }),
})), transaction));
/** Sets `n` pending rows never tried to `changes`. */
const move = async (n: number, changes: Record<string, unknown>) => {
  const rows = await app.models.Notification.findAll({ where: { status: 'pending', attempts: 0 }, limit: n });
  await app.models.Notification.update(changes, { where: { uid: rows.map((r) => r.uid) } });
};
/** Scrapes until the outbox's series say `expected` (the counts are at most a few seconds old). */
const untilCounted = async (expected: Record<string, number>) => {
  let last: Record<string, number> = {};
  await waitFor(`${METRIC} ${JSON.stringify(expected)}`, async () => {
    last = outbox((await scrape(`${app.url}/metrics`)).samples);
    return JSON.stringify(last) === JSON.stringify(expected);
  }, 15, () => `last scraped: ${JSON.stringify(last)}`);
};

describe('the notification outbox metric', () => {
  it('counts each state, one series per state', async () => {
    await write(10);
    await move(2, { attempts: 3, dueAt: new Date(Date.now() + 60_000), lastError: '421 try later' });
    await move(4, { status: 'sent', attempts: 1, sentAt: new Date() });
    await move(1, { status: 'dead', attempts: 30 });
    const { samples, text } = await scrape(`${app.url}/metrics`);
    expect(samples.filter((s) => s.name === METRIC).map((s) => s.labels)).toEqual(
      expect.arrayContaining([{ status: 'pending' }, { status: 'failed' }, { status: 'sent' }, { status: 'dead' }]),
    );
    expect(samples.filter((s) => s.name === METRIC)).toHaveLength(4);
    expect(text).toContain(`# TYPE ${METRIC} gauge`);
    expect(outbox(samples)).toEqual({ pending: 3, failed: 2, sent: 4, dead: 1 });
  });

  it('a backlog and dead messages leave the service ready', async () => {
    await write(200);
    const ready = await fetch(`${app.api}/health/readiness`);
    expect(ready.status).toBe(200);
  });

  it('a database that is away: the scrape answers at once without the outbox series; they return with the database, counted anew', async () => {
    await db.stopServer();
    try {
      await waitFor('the outbox series to disappear', async () => {
        const started = Date.now();
        const during = await scrape(`${app.url}/metrics`);
        expect(during.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(valueOf(during.samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
        return !during.samples.some((s) => s.name === METRIC);
      }, 15);
      expect((await fetch(`${app.api}/health/liveness`)).status).toBe(200);
    } finally {
      await db.startServer();
    }
    await untilCounted({ pending: 203, failed: 2, sent: 4, dead: 1 });
  });
});
