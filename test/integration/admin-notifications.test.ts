/**
 * `npm run admin -- notifications` (issue 44), as the real script run by a shell on a database of its own: the
 * outbox listed newest first in the metric's statuses (filtered, limited, as text and JSON), one message shown with
 * every column but its payload (a mail's subject, a CloudEvent's type; never its text or HTML), a dead message
 * made due again with a new day of retries, a sent one or one a host is sending refused, and every dead one retried
 * at once.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initModels, type Models } from '../../models';
import { openDatabase } from '../../models/db';
import { migrate } from '../../migrations/migrator';
import { claim, enqueue, type NotificationRow, type Outgoing } from '../../models/notification';
import { runAdmin } from '../support/admin-cli';
import { createRunDatabase } from '../support/run-database';

let database: { url: string; drop: () => Promise<void> };
let models: Models;
const rows: Record<'pending' | 'failed' | 'sent' | 'dead' | 'hook', NotificationRow> = {} as never;
const HTML = '<p>Open <a href="https://portal.example.com/streams/s1">the stream</a></p>';
const TEXT = 'Open it in the portal: https://portal.example.com/streams/s1';

const admin = (...args: string[]) => runAdmin(['notifications', ...args], { DATABASE_URL: database.url });
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const reload = async (row: NotificationRow) => (await models.Notification.findByPk(row.uid))!;

beforeAll(async () => {
  database = await createRunDatabase(inject('databaseUrl'));
  models = initModels(openDatabase(database.url));
  await migrate(models.sequelize);
  const tenant = await models.Tenant.create({ name: 'Outbox Corp', shortName: 'outbox' });
  const mail = (to: string, subject: string): Outgoing => ({
    tenantUid: tenant.uid as string, event: 'access.requested', channel: 'email', recipient: to,
    payload: JSON.stringify({ to: { name: 'Sam Stream', email: to }, subject, text: TEXT, html: HTML }),
  });
  const hook: Outgoing = {
    tenantUid: tenant.uid as string, event: 'access.approved', channel: 'webhook', recipient: 'f'.repeat(32),
    payload: JSON.stringify({ specversion: '1.0', type: 'platform.access.approved', id: 'evt-1', source: '/pms', subject: 'g1', data: { grant: 'g1', link: 'https://portal.example.com/x' } }),
  };
  // Oldest first: dead, sent, failed, pending, the webhook's.
  const written: [keyof typeof rows, Outgoing][] = [
    ['dead', mail('gone@example.com', 'billing asks to consume from payments')], ['sent', mail('sam@example.com', 'Access approved')],
    ['failed', mail('later@example.com', 'Access denied')], ['pending', mail('pat@example.com', 'billing asks to produce')], ['hook', hook],
  ];
  for (const [i, [name, message]] of written.entries()) {
    await models.sequelize.transaction((transaction) => enqueue(models.Notification, [message], transaction, minutesAgo(50 - i)));
    rows[name] = (await models.Notification.findOne({ where: { recipient: message.recipient } }))!;
  }
  await rows.dead.update({ status: 'dead', attempts: 31, firstAttemptAt: minutesAgo(25 * 60), lastAttemptAt: minutesAgo(30), lastError: '550 no such mailbox' });
  await rows.sent.update({ status: 'sent', attempts: 1, firstAttemptAt: minutesAgo(40), lastAttemptAt: minutesAgo(40), sentAt: minutesAgo(40) });
  await rows.failed.update({ attempts: 2, firstAttemptAt: minutesAgo(20), lastAttemptAt: minutesAgo(1), dueAt: new Date(Date.now() + 60_000), lastError: 'connect ECONNREFUSED 127.0.0.1:25' });
});

afterAll(async () => {
  await models?.sequelize.close();
  await database?.drop();
});

describe('npm run admin -- notifications', () => {
  it.concurrent.each([
    [['bogus'], /^notifications: unknown subcommand 'bogus' \(list, show <uid>, retry <uid>, retry --dead\)$/],
    [['--status', 'late'], /^--status must be one of pending, failed, sent, dead: 'late'$/],
    [['retry'], /^notifications retry takes <uid> or --dead$/],
  ])('refuses %j with one line and the usage (exit code 2)', async (args, line) => {
    const run = await admin(...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(line);
    expect(run.stderr).toContain('Usage: npm run admin -- <command> [arguments]');
    expect(run.stdout).toBe('');
  });

  it('lists the newest first with each status, what it waits for, and the totals; never a payload', async () => {
    const run = await admin();
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID +CREATED +STATUS +ATTEMPTS +EVENT +CHANNEL +TENANT +RECIPIENT +WHEN$/);
    const listed = lines.slice(1, -1).map((l) => l.split(/ {2,}/));
    expect(listed.map((c) => [c[0], c[2], c[3], c[6], c[7]])).toEqual([
      [rows.hook.uid, 'pending', '0', 'outbox', 'f'.repeat(32)],
      [rows.pending.uid, 'pending', '0', 'outbox', 'pat@example.com'],
      [rows.failed.uid, 'failed', '2', 'outbox', 'later@example.com'],
      [rows.sent.uid, 'sent', '1', 'outbox', 'sam@example.com'],
      [rows.dead.uid, 'dead', '31', 'outbox', 'gone@example.com'],
    ]);
    expect(listed[2][8]).toBe(`due ${(await reload(rows.failed)).dueAt.toISOString()}`);
    expect(listed[3][8]).toMatch(/^sent \d{4}-/);
    expect(listed[4][8]).toMatch(/^dead since \d{4}-/);
    expect(lines.at(-1)).toBe('5 shown, newest first; in the outbox: 2 pending, 1 failed, 1 sent, 1 dead');
    expect(run.stdout).not.toContain('portal.example.com');
  });

  it('filters by status, limits, and answers JSON with every column but the payload, which it summarises', async () => {
    const dead = await admin('--status', 'dead');
    expect(dead.stdout.split('\n').slice(1, -2).map((l) => l.split(/ +/)[0])).toEqual([rows.dead.uid]);
    expect(dead.stdout).toContain('1 shown (dead), newest first;');
    const json = JSON.parse((await admin('list', '--limit', '2', '--json')).stdout);
    expect(json.map((r: { uid: string }) => r.uid)).toEqual([rows.hook.uid, rows.pending.uid]);
    expect(json[1]).toEqual({
      uid: rows.pending.uid, status: 'pending', event: 'access.requested', channel: 'email', recipient: 'pat@example.com', tenant: 'outbox',
      tenantUid: rows.pending.tenantUid, payload: 'subject: billing asks to produce', attempts: 0, createdAt: rows.pending.createdAt.toISOString(),
      dueAt: rows.pending.dueAt.toISOString(), firstAttemptAt: null, lastAttemptAt: null, lastStatus: null, lastError: null, sentAt: null, leaseUntil: null,
    });
    expect(json[0].payload).toBe('CloudEvent platform.access.approved, id evt-1');
  });

  it('shows one message: every column, the payload as its subject; an unknown uid in one line (exit code 1)', async () => {
    const run = await admin('show', rows.dead.uid);
    expect(run.code, run.stderr).toBe(0);
    const fields = Object.fromEntries(run.stdout.trimEnd().split('\n').map((l) => [l.split(/ +/)[0], l.replace(/^\S+ +/, '')]));
    expect(fields).toMatchObject({
      uid: rows.dead.uid, status: 'dead', recipient: 'gone@example.com', tenant: 'outbox', payload: 'subject: billing asks to consume from payments',
      attempts: '31', lastError: '550 no such mailbox', sentAt: '-', leaseUntil: '-',
    });
    expect(run.stdout).not.toContain('portal.example.com');
    expect(JSON.parse((await admin('show', rows.hook.uid, '--json')).stdout)).toMatchObject({ channel: 'webhook', payload: 'CloudEvent platform.access.approved, id evt-1' });
    const missing = '0'.repeat(32);
    expect(await admin('show', missing)).toMatchObject({ code: 1, stdout: '', stderr: `no notification ${missing} (npm run admin -- notifications lists them)\n` });
  });

  it('retries a dead message: due now with a new day of retries, its last error kept; a sent or a held one is refused', async () => {
    const before = Date.now();
    const run = await admin('retry', rows.dead.uid);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Notification ${rows.dead.uid} (access.requested to gone@example.com) is due again now, with a new day of retries\n`);
    const retried = await reload(rows.dead);
    expect([retried.status, retried.attempts, retried.firstAttemptAt, retried.lastError]).toEqual(['pending', 0, null, '550 no such mailbox']);
    expect(retried.dueAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(retried.dueAt.getTime()).toBeLessThanOrEqual(Date.now());

    expect(await admin('retry', rows.sent.uid)).toMatchObject({
      code: 1, stdout: '', stderr: `notification ${rows.sent.uid} was sent at ${rows.sent.sentAt!.toISOString()}: a sent notification is not sent again\n`,
    });
    // A host's claim on the message: it is being sent now.
    const held = await claim(models.Notification, 10, 60_000);
    expect(held.map((r) => r.uid)).toContain(rows.pending.uid);
    const refused = await admin('retry', rows.pending.uid);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(new RegExp(`^notification ${rows.pending.uid} is being delivered by a host now \\(its claim holds until \\d{4}-[^)]+\\): look again after that\\n$`));
  });

  it('retry --dead makes every dead message due again', async () => {
    await models.Notification.update({ status: 'dead', attempts: 5 }, { where: { uid: [rows.dead.uid, rows.failed.uid] } });
    const run = await admin('retry', '--dead');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('2 dead notifications due again now, each with a new day of retries\n');
    for (const row of [rows.dead, rows.failed]) expect([(await reload(row)).status, (await reload(row)).attempts]).toEqual(['pending', 0]);
    expect((await admin('retry', '--dead')).stdout).toBe('0 dead notifications due again now, each with a new day of retries\n');
  });
});
