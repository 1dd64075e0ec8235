/**
 * The notification outbox under a backlog (issue 44), in a database of its own beside the bench's (made again on
 * every run): BENCH_NOTIFY_QUEUED (10,000) mails written through `enqueue` and delivered by one dispatcher
 * (server/notification-dispatch at its default batch and lease, in this process) to smtp-server on loopback (a child
 * process). Recorded:
 * - the write path: a change's transaction writing one message, with the outbox empty and with the backlog pending;
 * - a claim of a batch (models/notification `claim`, its lease then given back): with the outbox empty, with the
 *   backlog pending, and once the backlog is sent (the sent rows stay in the table);
 * - deliveries per second as providers/mail sends them (its pooled connections) at the dispatcher's own pace, the
 *   whole backlog: over its first and its last thousand.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Sequelize } from 'sequelize';
import { initModels, type Models } from '../models';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { claim, countByState, enqueue, type Outgoing } from '../models/notification';
import { smtpTransport, type MailTransport } from '../providers/mail';
import { startNotificationDispatcher } from '../server/notification-dispatch';
import { freshDatabase } from './bench-import';
import { median } from './bench-pairs';
import { ROOT } from './bench-procs';
import type { Row } from './bench-run';
import { siblingUrl } from './bench-sizes';
import { goalList, scenarioTable, sizeLabel, type Goal } from './bench-table';

const QUEUED = Number(process.env.BENCH_NOTIFY_QUEUED || 10_000);
/** Single-message writes and claims timed at each backlog, after a few untimed ones. */
const PROBES = 200;
const WARM = 20;
const BATCH = 20;
/** The backlog's first and last deliveries compared. */
const EDGE = 1000;
const FROM = 'Streaming platform <platform@bench.test>';

export interface NotifyOutcome {
  rows: Row[];
  notes: string[];
  /** p50 ms of a one-message transaction, and of a claim, by the outbox's state. */
  enqueue: { empty: number; full: number };
  claim: { empty: number; full: number; sent: number };
  /** Mails per second over the backlog's first and last thousand. */
  pace: { first: number; last: number };
}

/** smtp-server accepting every mail, in a process of its own so that it takes no time from the dispatcher's. */
const SINK = `
import { SMTPServer } from 'smtp-server';
const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], disableReverseLookup: true, logger: false,
  onData(stream, _session, done) { stream.on('data', () => {}); stream.on('end', () => done()); } });
server.listen(0, '127.0.0.1', () => console.log(server.server.address().port));`;

async function startSink(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SINK], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve([line.trim()]));
  });
  child.removeAllListeners('exit');
  return { url: `smtp://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/** The database `name` on `sequelize`'s server, dropped first if a previous run left it. */

const mail = (tenantUid: string, tag: string): Outgoing => ({
  tenantUid, event: 'access.requested', channel: 'email', recipient: `${tag}@bench.test`,
  payload: JSON.stringify({
    to: { name: 'Bench Reader', email: `${tag}@bench.test` }, subject: `billing asks to consume from payments (${tag})`,
    text: 'billing asks to consume from payments in prod.\n\nDecide in the portal: https://portal.bench.test/streams/s1?tab=environments',
    html: '<p>billing asks to consume from payments in prod.</p><p><a href="https://portal.bench.test/streams/s1?tab=environments">Decide in the portal</a></p>',
  }),
});

/** Milliseconds of each of PROBES transactions writing one message, one after another; the messages then removed. */
async function enqueueTimes(models: Models, tenantUid: string, tag: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM + PROBES; i++) {
    const started = performance.now();
    await models.sequelize.transaction((transaction) => enqueue(models.Notification, [mail(tenantUid, `${tag}-${i}`)], transaction));
    if (i >= WARM) times.push(performance.now() - started);
  }
  await models.Notification.destroy({ where: { recipient: Array.from({ length: WARM + PROBES }, (_, i) => `${tag}-${i}@bench.test`) } });
  return times;
}

/** Milliseconds of each of PROBES claims of a batch, each batch given back untouched; with BATCH messages of its own when asked. */
async function claimTimes(models: Models, tenantUid: string, own?: string): Promise<number[]> {
  if (own) await models.sequelize.transaction((transaction) => enqueue(models.Notification, Array.from({ length: BATCH }, (_, i) => mail(tenantUid, `${own}-${i}`)), transaction));
  const times: number[] = [];
  for (let i = 0; i < WARM + PROBES; i++) {
    const started = performance.now();
    const rows = await claim(models.Notification, BATCH, 60_000);
    if (i >= WARM) times.push(performance.now() - started);
    if (rows.length !== BATCH) throw new Error(`a claim of ${BATCH} got ${rows.length}`);
    await models.Notification.update({ leaseToken: null, leaseUntil: null }, { where: { uid: rows.map((r) => r.uid) } });
  }
  if (own) await models.Notification.destroy({ where: { recipient: Array.from({ length: BATCH }, (_, i) => `${own}-${i}@bench.test`) } });
  return times;
}

interface Batch { at: number; end: number; size: number; claimMs: number }

/** One dispatcher's batches, one after another as its loop runs them, until `seconds` have passed or none is due. */
async function deliver(models: Models, transport: MailTransport, seconds: number): Promise<{ batches: Batch[]; seconds: number }> {
  let first: number | undefined;
  const timed: MailTransport = { send: (m) => { first ??= performance.now(); return transport.send(m); }, close: () => transport.close() };
  const dispatcher = startNotificationDispatcher(models, { email: timed }, { intervalMs: 0, messageDomain: 'bench.test' });
  const batches: Batch[] = [];
  const started = performance.now();
  try {
    while (performance.now() - started < seconds * 1000) {
      first = undefined;
      const at = performance.now();
      const size = await dispatcher.runOnce();
      if (size === 0) break;
      batches.push({ at: at - started, end: performance.now() - started, size, claimMs: (first ?? at) - at });
    }
  } finally {
    await dispatcher.stop();
  }
  return { batches, seconds: (performance.now() - started) / 1000 };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const row = (scenario: string, size: string, rps: number, times: number[], errors = 0): Row => ({
  scenario, size, rps, p50: quantile(times, 0.5), p99: quantile(times, 0.99), errors, rss: null, statuses: {},
});

/** The batches that delivered the first (or last) `n` messages: their mails per second and their claims. */
function edge(batches: Batch[], n: number, from: 'first' | 'last') {
  const ordered = from === 'first' ? batches : [...batches].reverse();
  const picked: Batch[] = [];
  for (let mails = 0; mails < n && picked.length < ordered.length; mails += ordered[picked.length].size) picked.push(ordered[picked.length]);
  const mails = picked.reduce((sum, b) => sum + b.size, 0);
  const seconds = (Math.max(...picked.map((b) => b.end)) - Math.min(...picked.map((b) => b.at))) / 1000;
  return { mails, rate: mails / seconds, claims: picked.map((b) => b.claimMs) };
}

export async function notificationBench(main: { url: string; sequelize: Sequelize }, log: (text: string) => void): Promise<NotifyOutcome> {
  if (!Number.isInteger(QUEUED) || QUEUED < 2 * EDGE) throw new Error(`BENCH_NOTIFY_QUEUED must be a whole number ≥ ${2 * EDGE}`);
  log(`\nthe notification outbox: ${QUEUED} mails queued, one dispatcher, smtp-server on loopback…`);
  const url = siblingUrl(main.url, 'notify');
  await freshDatabase(main.sequelize, new URL(url).pathname.slice(1));
  const models = initModels(openDatabase(url));
  const sink = await startSink();
  try {
    await migrate(models.sequelize);
    const tenantUid = (await models.Tenant.create({ name: 'Bench Outbox', shortName: 'bench-outbox' })).uid as string;
    const writes = { empty: await enqueueTimes(models, tenantUid, 'empty'), full: [] as number[] };
    const claims = { empty: await claimTimes(models, tenantUid, 'claim-empty'), full: [] as number[], sent: [] as number[] };
    const filling = performance.now();
    for (let from = 0; from < QUEUED; from += 500) {
      const messages = Array.from({ length: Math.min(500, QUEUED - from) }, (_, i) => mail(tenantUid, `m${from + i}`));
      await models.sequelize.transaction((transaction) => enqueue(models.Notification, messages, transaction));
    }
    const fillSeconds = (performance.now() - filling) / 1000;
    writes.full = await enqueueTimes(models, tenantUid, 'full');
    claims.full = await claimTimes(models, tenantUid);
    log(`  enqueue p50 ${median(writes.empty).toFixed(2)} ms with the outbox empty, ${median(writes.full).toFixed(2)} ms with ${QUEUED} pending; `
      + `claim p50 ${median(claims.empty).toFixed(2)} ms, ${median(claims.full).toFixed(2)} ms`);

    const pooled = await deliver(models, smtpTransport(sink.url, FROM), 3600);
    const pooledMails = pooled.batches.reduce((sum, b) => sum + b.size, 0);
    const [first, last] = [edge(pooled.batches, EDGE, 'first'), edge(pooled.batches, EDGE, 'last')];
    log(`  delivered: ${pooledMails} in ${pooled.seconds.toFixed(1)} s = ${Math.round(pooledMails / pooled.seconds)} mails/s; first ${EDGE} ${Math.round(first.rate)}/s, last ${Math.round(last.rate)}/s`);
    const counts = await countByState(models.Notification);
    const undelivered = counts.pending + counts.failed + counts.dead;
    claims.sent = await claimTimes(models, tenantUid, 'claim-sent');
    log(`  claim p50 with ${counts.sent} sent rows in the table: ${median(claims.sent).toFixed(2)} ms`);

    const [queued, written] = [`${sizeLabel(QUEUED)} queued`, '(req/s column: one at a time)'];
    const rows = [
      row(`outbox: a transaction writing one message ${written}`, 'empty', 1000 / median(writes.empty), writes.empty),
      row(`outbox: a transaction writing one message ${written}`, `${sizeLabel(QUEUED)} pending`, 1000 / median(writes.full), writes.full),
      row(`outbox: a claim of ${BATCH} ${written}`, 'empty', 1000 / median(claims.empty), claims.empty),
      row(`outbox: a claim of ${BATCH} ${written}`, `${sizeLabel(QUEUED)} pending`, 1000 / median(claims.full), claims.full),
      row(`outbox: a claim of ${BATCH} ${written}`, `${sizeLabel(counts.sent)} sent`, 1000 / median(claims.sent), claims.sent),
      row(`outbox delivery, the first ${sizeLabel(EDGE)} (req/s column: mails/s; p50/p99: the claim)`, queued, first.rate, first.claims),
      row(`outbox delivery, the last ${sizeLabel(EDGE)} (req/s column: mails/s; p50/p99: the claim)`, `${sizeLabel(EDGE)} queued`, last.rate, last.claims, undelivered),
    ];
    const notes = [
      `outbox: ${QUEUED} mails written through enqueue in transactions of 500 in ${fillSeconds.toFixed(1)} s (${Math.round(QUEUED / fillSeconds)} rows/s); `
      + `delivered: ${pooledMails} in ${pooled.seconds.toFixed(1)} s (${Math.round(pooledMails / pooled.seconds)} mails/s, batches of ${BATCH}, `
      + `providers/mail's pooled connections); not delivered at the end: ${undelivered}`,
    ];
    return {
      rows, notes, enqueue: { empty: median(writes.empty), full: median(writes.full) },
      claim: { empty: median(claims.empty), full: median(claims.full), sent: median(claims.sent) }, pace: { first: first.rate, last: last.rate },
    };
  } finally {
    sink.stop();
    await models.sequelize.close().catch(() => undefined);
  }
}

/** Issue 44's "flat under backlog": the write path and the claim with the backlog (pending, then sent) within 1.5× of an empty outbox's. */
export function notificationGoals(o: NotifyOutcome): Goal[] {
  const n = sizeLabel(QUEUED);
  const flat = (name: string, loaded: number, empty: number): Goal => ({
    name: `outbox: ${name} ≤ 1.5 × with the outbox empty (p50)`, value: `${loaded.toFixed(2)} ÷ ${empty.toFixed(2)} ms = ${(loaded / empty).toFixed(2)}`, met: loaded <= 1.5 * empty,
  });
  return [
    flat(`a transaction writing one message with ${n} pending`, o.enqueue.full, o.enqueue.empty),
    flat(`a claim with ${n} pending`, o.claim.full, o.claim.empty),
    flat(`a claim with ${n} sent`, o.claim.sent, o.claim.empty),
    {
      name: `outbox: deliveries/s over the first ${sizeLabel(EDGE)} of ${n} ≥ 0.66 × over the last`,
      value: `${Math.round(o.pace.first)} ÷ ${Math.round(o.pace.last)} = ${(o.pace.first / o.pace.last).toFixed(2)}`, met: o.pace.first >= 0.66 * o.pace.last,
    },
  ];
}

/** `npm run bench -- notifications`: the outbox alone, as markdown. */
export function notificationReport(header: string, o: NotifyOutcome): string {
  return ['# npm run bench -- notifications', '', header, '', scenarioTable(o.rows), '', ...o.notes.map((n) => `- ${n}`), '', '## Goals', '', goalList(notificationGoals(o)), ''].join('\n');
}
