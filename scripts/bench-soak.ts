/**
 * `npm run bench -- soak`: BENCH_SOAK_MINUTES (20) of mixed reads and writes at BENCH_CONNECTIONS (32) through the
 * API started as `npm start` runs it with one worker per core, measured in windows of BENCH_SOAK_WINDOW minutes (5)
 * after BENCH_SOAK_WARMUP seconds (60) of the same load. Records the errors (the goal: none), each worker's RSS at
 * the start and at the end (the goal: under 10 % growth) and p50/p99 per window and per kind of request.
 * The load runs in one-minute slices, each with a fresh token, every request's time kept for the window's quantiles.
 */
import os from 'node:os';
import type { Models } from '../models';
import type { Api } from './bench-api';
import { createFixtures } from './bench-fixtures';
import { rssKiB, settle, tree } from './bench-procs';
import { loadProcess, type LoadSpec } from './bench-run';
import { seedStreams } from './bench-seed';
import type { Server } from './bench-service';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES || 20);
const WINDOW_MINUTES = Number(process.env.BENCH_SOAK_WINDOW || 5);
const WARMUP_SECONDS = Number(process.env.BENCH_SOAK_WARMUP ?? 60);
const SLICE_SECONDS = Math.min(60, WINDOW_MINUTES * 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const STREAMS = 1000;

export interface SoakContext {
  models: Models;
  start: (workers: number) => Promise<{ server: Server; api: Api }>;
  header: string;
  log: (text: string) => void;
}

interface Kind { name: string; share: number; spec: (api: Api, slice: number) => Promise<Omit<LoadSpec, 'url' | 'connections'>> }
interface Tally { times: number[]; requests: number; errors: number; statuses: Record<string, number> }

const rssMiB = (pid: number): number => rssKiB(pid) / 1024;
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] : NaN);

export async function soak(ctx: SoakContext): Promise<string> {
  const workers = os.availableParallelism();
  const { server, api } = await ctx.start(workers);
  const fixtures = await createFixtures(api, ctx.models);
  await seedStreams(ctx.models, fixtures.seed, STREAMS);
  const streams = (await ctx.models.Stream.findAll({ attributes: ['uid'], where: { tenantUid: fixtures.tenantUid }, limit: STREAMS, order: [['uid', 'ASC']] }))
    .map((r) => r.uid as string);
  const run = Date.now().toString(36);
  // 32 connections: three quarters read (an item and a page), a quarter write (creates and updates).
  const kinds: Kind[] = [
    { name: 'GET /api/streams/{uid}', share: 16, spec: async () => ({ paths: streams.map((u) => `/api/streams/${u}`), headers: await api.headers() }) },
    { name: 'GET /api/streams?page&size=20', share: 8, spec: async () => ({ paths: streams.slice(0, 50).map((_, i) => `/api/streams?page=${i}&size=20&sort=name,asc`), headers: await api.headers() }) },
    {
      name: 'POST /api/groups', share: 4,
      spec: async (_a, slice) => ({ method: 'POST', paths: ['/api/groups'], headers: await api.headers(true), body: JSON.stringify({ name: `soak-${run}-{n}` }), start: slice * 10_000_000 }),
    },
    {
      name: 'PATCH /api/streams/{uid}', share: 4,
      spec: async (_a, slice) => ({ method: 'PATCH', paths: streams.map((u) => `/api/streams/${u}`), headers: await api.headers(true), body: JSON.stringify({ description: `soaked {n}` }), start: slice * 10_000_000 }),
    },
  ];
  const scale = CONNECTIONS / kinds.reduce((a, k) => a + k.share, 0);
  let slice = 0;
  const runSlice = async (seconds: number, tallies?: Map<string, Tally>) => {
    slice += 1;
    const results = await Promise.all(kinds.map(async (k) => {
      const spec = await k.spec(api, slice);
      const r = await loadProcess(`${k.name} (soak slice ${slice})`, { url: server.origin, connections: Math.max(1, Math.round(k.share * scale)), duration: seconds, warmup: 0, keepTimes: true, ...spec });
      return [k.name, r] as const;
    }));
    for (const [name, r] of results) {
      if (!tallies) continue;
      const t = tallies.get(name) ?? { times: [], requests: 0, errors: 0, statuses: {} };
      t.times.push(...(r.times as number[]));
      t.requests += r.requests.total;
      t.errors += r.non2xx + r.errors;
      for (const [s, v] of Object.entries((r.statusCodeStats ?? {}) as Record<string, { count: number }>)) t.statuses[s] = (t.statuses[s] ?? 0) + Number(v.count);
      if (r.errors) t.statuses.socket = (t.statuses.socket ?? 0) + r.errors;
      tallies.set(name, t);
    }
  };

  await settle(server.pid);
  ctx.log(`soak: warming up for ${WARMUP_SECONDS} s with ${workers} workers…`);
  if (WARMUP_SECONDS > 0) await runSlice(WARMUP_SECONDS);
  const workerPids = tree(server.pid).slice(1);
  const startRss = new Map(workerPids.map((pid) => [pid, rssMiB(pid)]));
  const windows: { index: number; tallies: Map<string, Tally>; rss: number[] }[] = [];
  for (let w = 1; w * WINDOW_MINUTES <= MINUTES; w++) {
    const tallies = new Map<string, Tally>();
    for (let s = 0; s < (WINDOW_MINUTES * 60) / SLICE_SECONDS; s++) await runSlice(SLICE_SECONDS, tallies);
    windows.push({ index: w, tallies, rss: workerPids.map(rssMiB) });
    const errors = [...tallies.values()].reduce((a, t) => a + t.errors, 0);
    ctx.log(`soak: window ${w} done (${errors} errors, RSS ${workerPids.map(rssMiB).map((m) => Math.round(m)).join(' / ')} MiB)`);
  }
  const endRss = new Map(workerPids.map((pid) => [pid, rssMiB(pid)]));
  await server.stop();

  const lines = [
    '# npm run bench -- soak', '', ctx.header, '',
    `${MINUTES} min at ${CONNECTIONS} connections (${kinds.map((k) => `${k.name} ×${Math.max(1, Math.round(k.share * scale))}`).join(', ')}), WORKERS=${workers}, `
    + `after ${WARMUP_SECONDS} s of the same load; ${STREAMS} seeded streams. Each load in one-minute slices with a fresh token; errors are non-2xx answers plus socket errors and timeouts.`,
    '', '| window | request | requests | req/s | p50 ms | p99 ms | errors |', '|--:|---|--:|--:|--:|--:|--:|',
  ];
  let totalErrors = 0;
  for (const w of windows) {
    for (const k of kinds) {
      const t = w.tallies.get(k.name)!;
      const sorted = t.times.sort((a, b) => a - b);
      totalErrors += t.errors;
      const errors = t.errors ? `${t.errors} (${Object.entries(t.statuses).filter(([s]) => !s.startsWith('2')).map(([s, n]) => `${s}×${n}`).join(' ')})` : '0';
      lines.push(`| ${w.index} | ${k.name} | ${t.requests} | ${Math.round(t.requests / (WINDOW_MINUTES * 60))} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} | ${errors} |`);
    }
  }
  lines.push('', '| worker | RSS at start MiB | RSS at end MiB | growth |', '|--:|--:|--:|--:|');
  const growths: number[] = [];
  for (const pid of workerPids) {
    const [a, b] = [startRss.get(pid)!, endRss.get(pid)!];
    growths.push(b / a - 1);
    lines.push(`| ${pid} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${((b / a - 1) * 100).toFixed(1)} % |`);
  }
  const worst = Math.max(...growths);
  lines.push('', '## Goals', '',
    `- errors during the soak: ${totalErrors} — ${totalErrors === 0 ? 'met' : '**not met**'}`,
    `- RSS growth of each worker start → end < 10 %: largest ${(worst * 100).toFixed(1)} % — ${worst < 0.1 ? 'met' : '**not met**'}`, '');
  return lines.join('\n');
}
