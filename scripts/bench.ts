/**
 * `npm run bench`: the project's performance record (issue 15). The API runs as `npm start` runs it, a child process
 * on the bench's database (embedded PostgreSQL in a temporary directory, or DATABASE_URL: an empty database, or one
 * a previous bench filled); load comes from autocannon in another process (bench-load.ts); a bare Express + pg
 * server (bench-bare.ts) reads the same table in the same run as the baseline, and does each measured write by hand
 * (bench-writes.ts: bare and ours alternate, in pairs, on fresh rows). The bench tenant has the largest of
 * BENCH_SIZES streams (each with a stream config) in the bench's database, and each smaller size in a database of its
 * own beside it with an API of its own (bench-sizes.ts); the size-dependent reads are timed at every size in
 * BENCH_SIZE_ROUNDS alternating rounds, and so are the audit queries at each of BENCH_AUDIT_SIZES. The other scenarios run
 * at the largest size. Prints a markdown table with the goals; BENCH_OUT also gets it.
 *
 * BENCH_SIZES (1000,100000,1000000), BENCH_AUDIT_SIZES (10000,1000000; BENCH_AUDIT=0 skips), BENCH_DURATION seconds
 * per scenario (10), BENCH_WARMUP seconds before each, not counted (1), BENCH_CONNECTIONS (32), BENCH_GRANTS pending
 * grants approved (3000, over all runs; no more than two per seeded stream), BENCH_CONFIGS stream configs deleted (6000,
 * over all runs), BENCH_ROUNDS of bare/ours GET item and of each write (3), BENCH_SIZE_ROUNDS of the sizes (3), BENCH_START_WARMUP seconds of untimed load on a
 * server just started (5), BENCH_LOG_LEVEL of the API (unset: npm start's default, info, a line per request; warn: failures only),
 * BENCH_IMPORT_TOPICS imported by the topic wizard twice (1000; BENCH_IMPORT=0 skips; scripts/bench-import.ts).
 * A quick try: BENCH_SIZES=1000,5000 BENCH_AUDIT_SIZES=1000,5000 BENCH_DURATION=2 npm run bench
 * `npm run bench -- soak` runs the soak instead (scripts/bench-soak.ts), `npm run bench -- import` only the import,
 * `npm run bench -- features` what each observability and hardening feature costs a request (scripts/bench-features.ts),
 * `npm run bench -- portal` only the portal in chromium (scripts/bench-portal.ts; the full run ends with it, BENCH_PORTAL=0 skips),
 * `npm run bench -- notifications` only the notification outbox under a backlog (scripts/bench-notifications.ts; BENCH_NOTIFY=0 skips it).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Op, QueryTypes, type Sequelize } from 'sequelize';
import { initModels, type Models } from '../models';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { Api } from './bench-api';
import { auditHistory } from './bench-audit';
import { createFixtures } from './bench-fixtures';
import { median, pairNote } from './bench-pairs';
import { killAllNow, processCount, stopAll } from './bench-procs';
import { runScenario, warmUp, type LoadSpec, type Row } from './bench-run';
import { seededName, seedStreams } from './bench-seed';
import { startApi, startBare, type ColdStart, type Server } from './bench-service';
import { soak } from './bench-soak';
import { siblingTarget, stopTargets, type SizeTarget } from './bench-sizes';
import { goalsOf, importGoal, setGrowthRatios } from './bench-goals';
import { importBench, importReport } from './bench-import';
import { featureCosts } from './bench-features';
import { portalBench, portalTable } from './bench-portal';
import { notificationBench, notificationGoals, notificationReport } from './bench-notifications';
import { coldStartTable, goalList, scenarioTable, sizeLabel } from './bench-table';
import { writeRounds } from './bench-writes';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres';

function sizes(name: string, fallback: string): number[] {
  const list = (process.env[name] || fallback).split(',').map(Number);
  if (!list.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`${name} must be positive whole numbers, comma-separated`);
  return [...new Set(list)].sort((a, b) => a - b);
}
const SIZES = sizes('BENCH_SIZES', '1000,100000,1000000');
const AUDIT_SIZES = process.env.BENCH_AUDIT === '0' ? [] : sizes('BENCH_AUDIT_SIZES', '10000,1000000');
const DURATION = Number(process.env.BENCH_DURATION || 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const GRANTS = Number(process.env.BENCH_GRANTS || 3000);
const CONFIGS = Number(process.env.BENCH_CONFIGS || 6000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
// The sizes' rounds: a size runs with no bare run beside it to show the drift, so its best round of several counts.
const SIZE_ROUNDS = Number(process.env.BENCH_SIZE_ROUNDS || 3);
const START_WARMUP = Number(process.env.BENCH_START_WARMUP ?? 5);
const TENANT = 'bench';
const EMAIL = 'admin@bench.local';
const PASSWORD = 'bench-Admin-passw0rd';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pms-bench-'));
// PostgreSQL runs as another user when we are root: it must reach its cluster below this directory.
chmodSync(dataDir, 0o755);
let embedded: EmbeddedDb | undefined;
let models: Models | undefined;
let cleaning: Promise<void> | undefined;
let interrupted = false;
const cleanup = () => (cleaning ??= (async () => {
  await stopAll();
  await models?.sequelize.close().catch(() => undefined);
  await embedded?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
})());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the servers and the database…\n`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.once('exit', () => {
  killAllNow();
  rmSync(dataDir, { recursive: true, force: true });
});

const log = (text: string) => process.stderr.write(`${text}\n`);
const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();

async function databaseName(sequelize: Sequelize): Promise<string> {
  const [{ v }] = await sequelize.query<{ v: string }>('SELECT VERSION() AS v', { type: QueryTypes.SELECT });
  const short = sequelize.getDialect() === 'postgres' ? `PostgreSQL ${/PostgreSQL ([\d.]+)/.exec(v)?.[1] ?? v}` : `${sequelize.getDialect()} ${v}`;
  return embedded ? `${short} (embedded)` : short;
}

async function main(): Promise<string> {
  const databaseUrl = process.env.DATABASE_URL || (embedded = await startEmbeddedPostgres(dataDir, 'bench')).url;
  const sequelize = openDatabase(databaseUrl);
  models = initModels(sequelize);
  await migrate(sequelize);
  const cpus = os.cpus();
  const dirty = git('status', '--porcelain').length > 0 ? ' (with uncommitted changes)' : '';
  const header = `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB · date: ${new Date().toISOString()} · commit: ${git('rev-parse', '--short', 'HEAD')}${dirty} · database: ${await databaseName(sequelize)}`;
  log(header);

  const start = (workers?: number) => startApi({ databaseUrl, dataDir, workers }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD));
  if (process.argv.slice(2).includes('soak')) return soak({ models, start, header, log });
  if (process.argv.slice(2).includes('features')) return [`# npm run bench -- features`, '', header, '', await featureCosts({ url: databaseUrl, dataDir, models }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD), log), ''].join('\n');
  if (process.argv.slice(2).includes('portal')) return [`# npm run bench -- portal`, '', header, '', portalTable(await portalBench({ url: databaseUrl, sequelize, dataDir }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD), log)), ''].join('\n');
  if (process.argv.slice(2).includes('import')) return importReport(header, await importBench({ url: databaseUrl, sequelize, dataDir }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD), log));
  if (process.argv.slice(2).includes('notifications')) return notificationReport(header, await notificationBench({ url: databaseUrl, sequelize }, log));
  log('first start of the API (creates the bench tenant)…');
  const first = await start(1);
  await first.server.stop();
  log('second start, timed…');
  let { server: service, cold, api } = await start(1);
  const starts: [string, ColdStart][] = [['first (on a fresh database: creates the tenant), WORKERS=1', first.cold], ['second (measured), WORKERS=1', cold]];
  const bare = sequelize.getDialect() === 'postgres' ? await startBare(databaseUrl) : undefined;
  const fixtures = await createFixtures(api, models);
  const notes: string[] = [];

  const rows: Row[] = [];
  const load = async (scenario: string, size: string, spec: Omit<LoadSpec, 'url' | 'connections'> & { connections?: number }, target: Server = service) => {
    const row = await runScenario(scenario, size, { url: target.origin, connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, ...spec }, target.pid);
    rows.push(row);
    return row;
  };
  const read = async (scenario: string, size: string, paths: string[], connections?: number) => load(scenario, size, { paths, headers: await api.headers(), ...(connections ? { connections } : {}) });
  const readOn = async (target: SizeTarget, scenario: string, size: string, paths: string[]) => load(scenario, size, { paths, headers: await target.api.headers() }, target.server);

  const warm = async (name: string, target: Server, paths: string[], headers?: Record<string, string>) => {
    if (START_WARMUP > 0) await warmUp(name, { url: target.origin, connections: CONNECTIONS, duration: START_WARMUP, paths, headers }, target.pid);
  };
  const seeded = { tenantUid: fixtures.tenantUid, nameKey: { [Op.like]: 'bench-%' } };
  const uids = async (limit: number, direction: 'ASC' | 'DESC') =>
    (await models!.Stream.findAll({ attributes: ['uid'], where: seeded, order: [['uid', direction]], limit })).map((r) => r.uid as string);

  const LISTS = ['GET /api/streams?page=0&size=20&sort=name,asc', 'GET /api/stream_configs?page=0&size=20&sort=created_at,desc'];
  const FIND = 'GET /api/streams/search/findByName?name=… (50 names)';
  const GRAPH = 'GET /api/environments/{uid}/graph?page=0&size=20';
  const graphPath = (target: SizeTarget) => `/api/environments/${environmentOf.get(target)}/graph?page=0&size=20`;
  const benchTarget: SizeTarget = { size: SIZES[SIZES.length - 1], models, server: service, api, tenantUid: fixtures.tenantUid };
  const sibling = (kind: string, size: number) => siblingTarget({ url: databaseUrl, sequelize, dataDir }, kind, size, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD));
  // Every size at once, each in a database of its own (the largest is the bench's), measured in alternating rounds.
  const streamTargets: SizeTarget[] = [];
  for (const size of SIZES.slice(0, -1)) streamTargets.push(await sibling('streams', size));
  streamTargets.push(benchTarget);
  // Each size's environment, whose graph is read a page at a time.
  const environmentOf = new Map<SizeTarget, string>();
  for (const target of streamTargets) {
    const made = target === benchTarget ? fixtures : await createFixtures(target.api, target.models);
    environmentOf.set(target, made.environmentUid);
    const seeding = await seedStreams(target.models, made.seed, target.size);
    if (seeding.rows) notes.push(`seeding ${seeding.rows} streams + ${seeding.rows} stream configs up to ${sizeLabel(target.size)}: ${seeding.seconds.toFixed(1)} s (${Math.round((2 * seeding.rows) / seeding.seconds)} rows/s)`);
  }
  const listPaths = (size: number) => {
    const names = Array.from({ length: 50 }, (_, k) => seededName(Math.floor(((k + 0.5) * size) / 50)));
    return { lists: LISTS.map((l) => l.slice(4)), finds: names.map((n) => `/api/streams/search/findByName?name=${encodeURIComponent(n)}`) };
  };
  for (const target of streamTargets) {
    const { lists, finds } = listPaths(target.size);
    const items = target === benchTarget ? (await uids(100, 'ASC')).map((u) => `/api/streams/${u}`) : [];
    await warm(`the API at ${sizeLabel(target.size)} streams`, target.server, [...lists, ...finds, ...items, graphPath(target)], await target.api.headers());
  }
  for (let round = 1; round <= SIZE_ROUNDS; round++) {
    for (const target of streamTargets) {
      log(`\n${sizeLabel(target.size)} streams, round ${round}:`);
      const { lists, finds } = listPaths(target.size);
      for (const [i, list] of LISTS.entries()) await readOn(target, list, sizeLabel(target.size), [lists[i]]);
      await readOn(target, FIND, sizeLabel(target.size), finds);
      await readOn(target, GRAPH, sizeLabel(target.size), [graphPath(target)]);
    }
  }
  await stopTargets(streamTargets.filter((t) => t !== benchTarget));

  const largest = sizeLabel(SIZES[SIZES.length - 1]);
  log(`\nat ${largest} streams:`);
  const items = await uids(1000, 'ASC');
  if (bare) await warm('bench-bare.ts', bare, items.map((u) => `/streams/${u}`));
  // Bare and ours alternate, so a drift of the machine (heat, another tenant) shows in both.
  // Besides the best of each, each pair's ratio (bare just before ours): the two best runs may come from different
  // moments of the machine, a pair's two runs from one.
  const itemRounds = async (tag: string, collection = 'streams', ids = items): Promise<{ bare: number; ours: number; pairs: number[] }> => {
    const best = { bare: 0, ours: 0, pairs: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      const b = bare && (await load(`GET /${collection}/{uid} bare${tag} #${round}`, largest, { paths: ids.map((u) => `/${collection}/${u}`) }, bare));
      const o = await read(`GET /api/${collection}/{uid}${tag} #${round}`, largest, ids.map((u) => `/api/${collection}/${u}`));
      if (b) best.pairs.push((o.ratio = o.rps / b.rps));
      best.bare = Math.max(best.bare, b ? b.rps : 0);
      best.ours = Math.max(best.ours, o.rps);
    }
    if (best.pairs.length) notes.push(`GET /${collection}/{uid}${tag} ours÷bare per pair: ${best.pairs.map((r) => r.toFixed(2)).join(', ')} (median ${median(best.pairs).toFixed(2)})`);
    return best;
  };
  const item = await itemRounds('');
  // The issue's own measure: a resource without associations, where the item is one row and its links.
  const clusterItem = await itemRounds('', 'clusters', fixtures.clusterUids);
  notes.push(`GET /clusters/{uid} req/s ours÷bare (best run of each, WORKERS=1): ${Math.round(clusterItem.ours)} ÷ ${Math.round(clusterItem.bare)} = ${(clusterItem.ours / Math.max(clusterItem.bare, 1)).toFixed(2)}`);

  const asyncapi = `/api/stream_configs/${fixtures.asyncapiConfig}/asyncapi`;
  const asyncapiAlone = await read('GET /api/stream_configs/{uid}/asyncapi c=1', largest, [asyncapi], 1);
  await read(`GET /api/stream_configs/{uid}/asyncapi c=${CONNECTIONS}`, largest, [asyncapi]);
  await read('GET /api/auth?action=STREAM_EDIT&resourceType=STREAM&resourceUid=…', largest, items.map((u) => `/api/auth?action=STREAM_EDIT&resourceType=STREAM&resourceUid=${u}`));
  await load('POST token (password grant; hashes by design)', largest, {
    method: 'POST', paths: [new URL(api.tokenUrl).pathname], body: api.tokenForm, headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  const writes = await writeRounds({
    api, models, fixtures, bare, rounds: ROUNDS, connections: CONNECTIONS, grants: GRANTS, configs: CONFIGS,
    streams: (limit) => uids(limit, 'DESC'), load: (scenario, spec, target) => load(scenario, largest, spec, target),
  });
  for (const w of writes) if (w.pairs.length) notes.push(pairNote(w.scenario, w.pairs));

  const AUDIT: string[] = [];
  if (AUDIT_SIZES.length) {
    const largestAudit = AUDIT_SIZES[AUDIT_SIZES.length - 1];
    const auditTargets: SizeTarget[] = [];
    for (const size of AUDIT_SIZES.slice(0, -1)) auditTargets.push(await sibling('audit', size));
    auditTargets.push({ ...benchTarget, size: largestAudit });
    // The same made-up history in each database (the same seed): a query means the same thing at each size.
    const histories = auditTargets.map((t) => auditHistory(t.models, t.tenantUid, largestAudit));
    for (const [i, target] of auditTargets.entries()) {
      const seeding = await histories[i].seedTo(target.size);
      if (seeding.rows) notes.push(`seeding ${seeding.rows} audit entries up to ${sizeLabel(target.size)} (plus 1 of another tenant per 50): ${seeding.seconds.toFixed(1)} s`);
    }
    // The actor asked for: a middling one of the smallest history.
    const queries = histories[0].queries();
    for (const target of auditTargets.slice(0, -1)) await warm(`the API at ${sizeLabel(target.size)} audit entries`, target.server, queries.map((q) => `/api/audit-history?${q.query}`), await target.api.headers());
    for (let round = 1; round <= SIZE_ROUNDS; round++) {
      for (const target of auditTargets) {
        log(`\n${sizeLabel(target.size)} audit entries, round ${round}:`);
        for (const q of queries) {
          const scenario = `GET /api/audit-history?${q.name}`;
          if (!AUDIT.includes(scenario)) AUDIT.push(scenario);
          await readOn(target, scenario, sizeLabel(target.size), [`/api/audit-history?${q.query}`]);
        }
      }
    }
    await stopTargets(auditTargets.slice(0, -1));
  }
  // Before the restart with more workers: the goal is one process's (or WORKERS=1's tree's) memory.
  const sampled = rows.filter((r) => r.rss && !r.scenario.includes('bare')).map((r) => r.rss!.tree);
  const rss = sampled.length ? Math.max(...sampled) : null;

  // The headline: the service as `npm start` runs it, every setting at its default (WORKERS = the core count, the
  // request log line at info), against the bare twin.
  const workers = os.availableParallelism();
  log(`\nat npm start's defaults (WORKERS=${workers}):`);
  await service.stop();
  ({ server: service, cold, api } = await start());
  starts.push([`npm start's defaults (WORKERS=${workers})`, cold]);
  const processes = processCount(service.pid);
  notes.push(`at npm start's defaults the API ran as ${processes} process${processes === 1 ? '' : 'es'} (WORKERS=${workers}: a primary and its workers)`);
  await warm('the API at its defaults', service, [...items.map((u) => `/api/streams/${u}`), ...fixtures.clusterUids.map((u) => `/api/clusters/${u}`)], await api.headers());
  const defaults = { streams: await itemRounds(' defaults'), clusters: await itemRounds(' defaults', 'clusters', fixtures.clusterUids) };

  const imported = process.env.BENCH_IMPORT === '0' ? null : await importBench({ url: databaseUrl, sequelize, dataDir }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD), log);
  const notified = process.env.BENCH_NOTIFY === '0' ? null : await notificationBench({ url: databaseUrl, sequelize }, log);
  for (const part of [imported, notified]) {
    rows.push(...(part?.rows ?? []));
    notes.push(...(part?.notes ?? []));
  }

  const portal = process.env.BENCH_PORTAL === '0' ? null : await portalBench({ url: databaseUrl, sequelize, dataDir }, (origin) => new Api(origin, TENANT, EMAIL, PASSWORD), log);

  const growing = [{ scenarios: [...LISTS, FIND, GRAPH], limit: 1.3 }, { scenarios: AUDIT, limit: 1.5 }];
  setGrowthRatios(rows, growing.flatMap((g) => g.scenarios));
  const goals = goalsOf({ rows, item, defaults, growing, asyncapiAlone, cold: starts[1][1], starts: starts.map(([, c]) => c), rss, writes });
  if (imported) goals.push(importGoal(imported));
  if (notified) goals.push(...notificationGoals(notified));

  return [
    `# npm run bench`, '', header, '',
    `${CONNECTIONS} connections unless the scenario says c=1, ${DURATION} s per scenario after ${WARMUP} s of warm-up (approving grants and deleting stream configs: each row once, no warm-up, timed from the first request to the last answer). `
    + 'Errors are non-2xx answers plus socket errors and timeouts. Ratio: on ours GET item and write rows, req/s ÷ the bare run just before; '
    + `on the size-dependent rows, p50 ÷ the best p50 at the smallest size; each size has a database (and an API) of its own, and the sizes alternate in ${SIZE_ROUNDS} rounds, in the order shown. RSS: the API process and its children (or bench-bare.ts on bare rows), sampled every 250 ms.`,
    '', '## Cold start', '', coldStartTable(starts), '', '## Scenarios', '', scenarioTable(rows), '',
    ...notes.map((n) => `- ${n}`), '', ...(portal ? ['## The portal in a browser', '', portalTable(portal), ''] : []), '## Goals', '', goalList(goals), '',
  ].join('\n');
}

let exitCode = 0;
try {
  const markdown = await main();
  process.stdout.write(markdown);
  if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, markdown);
} catch (err) {
  // Stopping the servers on Ctrl-C fails the scenario under way: no news.
  if (!interrupted) process.stderr.write(`\nbench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(interrupted ? 130 : exitCode);
