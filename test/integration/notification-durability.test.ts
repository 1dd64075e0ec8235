/**
 * The outbox loses nothing and delivers once (issue 44), against real SMTP servers on loopback (smtp-server):
 * - the database restarted while a dispatcher delivers: every message arrives; a message sent while its row could
 *   not be marked is sent again once its lease runs out, with the same Message-ID;
 * - a host killed with SIGKILL in the middle of a send (its mail server holds the DATA phase open): another host takes
 *   every message over once the dead host's lease has run out, and the one cut off arrives with the Message-ID the
 *   first attempt carried;
 * - two hosts on one database deliver each of 60 messages exactly once, both of them delivering.
 * The hosts are `npm start` processes (test/support/hosts); the restart is on a database server of the file's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { initModels, type Models } from '../../models';
import { openDatabase } from '../../models/db';
import { migrate } from '../../migrations/migrator';
import { enqueue, type Outgoing } from '../../models/notification';
import { smtpTransport } from '../../providers/mail';
import { startNotificationDispatcher, type Dispatcher } from '../../server/notification-dispatch';
import { startHosts, type Hosts } from '../support/hosts';
import { ownDatabase } from '../support/own-database';
import { killGroups, pause, waitFor } from '../support/service-process';
import { headerOf } from '../support/smtp';

/** A mail server that accepts each message, or with `hold` set keeps the next one's DATA phase open, never answering. */
interface Mailbox { url: string; ids: string[]; held: string[]; hold: boolean; close: () => Promise<void> }

async function mailbox(): Promise<Mailbox> {
  const box = { ids: [] as string[], held: [] as string[], hold: false };
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], disableReverseLookup: true, logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const id = headerOf(Buffer.concat(chunks).toString('utf8'), 'Message-ID') ?? '';
        if (!box.hold) {
          box.ids.push(id);
          callback();
          return;
        }
        box.hold = false;
        box.held.push(id);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return Object.assign(box, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

const messages = (tenantUid: string, n: number, tag: string): Outgoing[] => Array.from({ length: n }, (_, i) => ({
  tenantUid, event: 'access.requested', channel: 'email', recipient: `${tag}-${i}@example.com`,
  payload: JSON.stringify({ to: { name: `Reader ${i}`, email: `${tag}-${i}@example.com` }, subject: `${tag} ${i}`, text: 'Open it in the portal', html: '<p>Open it</p>' }),
}));
const write = (models: Models, outgoing: Outgoing[]) => models.sequelize.transaction((transaction) => enqueue(models.Notification, outgoing, transaction));
/** The Message-ID of each row of these recipients, as the dispatcher makes it. */
const idsOf = async (models: Models, tag: string, domain: string) =>
  (await models.Notification.findAll({ attributes: ['uid', 'recipient'] })).filter((r) => r.recipient.startsWith(`${tag}-`)).map((r) => `<${r.uid}@${domain}>`);
const pendingOf = (models: Models) => models.Notification.count({ where: { status: 'pending' } });
/**
 * Messages per scenario, few: a dispatcher sends one mail per connection, and smtp-server greets each connection
 * only after 100 ms (its wait for clients that talk too soon).
 */
const N = 60;

/** How often each id was received. */
const tally = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());

describe('the database restarted while a dispatcher delivers', () => {
  it('delivers every message once the database is back; a second delivery only of what it could not mark, with its Message-ID', async () => {
    const db = await ownDatabase();
    const models = initModels(openDatabase(db.url));
    const box = await mailbox();
    let dispatcher: Dispatcher | undefined;
    try {
      await migrate(models.sequelize);
      dispatcher = startNotificationDispatcher(models, { email: smtpTransport(box.url, 'Platform <platform@example.com>') }, {
        intervalMs: 20, leaseMs: 1500, messageDomain: 'restart.example.com',
      });
      const tenant = await models.Tenant.create({ name: 'Restart Corp', shortName: 'restart' });
      await write(models, messages(tenant.uid as string, N, 'restart'));
      await waitFor('the first deliveries', () => box.ids.length >= 10, 30);
      await db.stopServer();
      const atStop = box.ids.length;
      // Away long enough that the batch under way fails as a whole, as a real restart does.
      await pause(1_000);
      await db.startServer();
      await waitFor('every message marked sent', async () => (await pendingOf(models).catch(() => 1)) === 0, 60);

      const expected = await idsOf(models, 'restart', 'restart.example.com');
      const received = tally(box.ids);
      expect(atStop).toBeLessThan(N);
      expect(expected).toHaveLength(N);
      expect([...received.keys()].sort()).toEqual([...expected].sort());
      // Sent again: only messages of the batch under way when the database went, at most a batch of them.
      expect([...received.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(20);
      expect(Math.max(...received.values())).toBeLessThanOrEqual(2);
    } finally {
      await dispatcher?.stop();
      await box.close();
      await models.sequelize.close();
      await db.close();
    }
  }, 120_000);
});

describe('hosts killed mid-send, and hosts side by side', () => {
  let hosts: Hosts;
  let models: Models;
  let tenantUid: string;
  const boxes: Mailbox[] = [];

  beforeAll(async () => {
    boxes.push(await mailbox(), await mailbox(), await mailbox());
    // The first host looks for due messages every 50 ms and holds a claim only 1.5 s; the others keep the default lease.
    hosts = await startHosts(1, { SMTP_URL: boxes[0].url, NOTIFY_INTERVAL_MS: '50', NOTIFY_LEASE_MS: '1500' });
    models = hosts.hosts[0].app.models;
    tenantUid = (await models.Tenant.findOne({ where: { shortName: hosts.admin.tenant } }))!.uid as string;
  }, 240_000);
  afterAll(async () => {
    await hosts?.stop();
    for (const box of boxes) await box.close();
  });

  it('a host killed with SIGKILL during a send: another host delivers everything, the cut-off mail again with its Message-ID', async () => {
    boxes[0].hold = true;
    await write(models, messages(tenantUid, 10, 'killed'));
    await waitFor('the first host in the middle of a send', () => boxes[0].held.length === 1, 30, hosts.hosts[0].output);
    await killGroups([hosts.hosts[0].npm.pid]);
    expect(boxes[0].ids).toEqual([]);

    await hosts.add({ SMTP_URL: boxes[1].url, NOTIFY_INTERVAL_MS: '50', NOTIFY_LEASE_MS: '60000' });
    await waitFor('every message delivered by the second host', async () => (await pendingOf(models)) === 0, 60, hosts.hosts[1].output);
    const expected = await idsOf(models, 'killed', 'pms-hosts.test');
    expect(boxes[1].ids.sort()).toEqual(expected.sort());
    expect(expected).toContain(boxes[0].held[0]);
  }, 120_000);

  it(`two hosts on one database deliver each of ${N} messages exactly once, both delivering`, async () => {
    boxes[1].ids.length = 0;
    await hosts.add({ SMTP_URL: boxes[2].url, NOTIFY_INTERVAL_MS: '50', NOTIFY_LEASE_MS: '60000' });
    await write(models, messages(tenantUid, N, 'twice'));
    await waitFor('every message delivered', async () => (await pendingOf(models)) === 0, 60);
    const expected = await idsOf(models, 'twice', 'pms-hosts.test');
    const both = [...boxes[1].ids, ...boxes[2].ids];
    expect(both).toHaveLength(N);
    expect(both.sort()).toEqual(expected.sort());
    expect(boxes[1].ids.length).toBeGreaterThan(0);
    expect(boxes[2].ids.length).toBeGreaterThan(0);
  }, 120_000);
});
