/**
 * `npm run bench -- features`: what each observability and hardening feature costs a request, measured on the
 * service as `npm start` runs it (one worker, so one process holds every request's work). The API serves
 * BENCH_FEATURE_REQUESTS (40,000) GET /api/clusters/{uid} at 32 connections under a V8 CPU profile after a warm-up;
 * /proc gives the process's CPU time per request, and the profile says which part of it each feature's own code
 * took. A sample belongs to the innermost frame of the service or of a library on its stack; Node's internals and
 * native frames count for whoever called them (a log line's write counts for the log line).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Api } from './bench-api';
import { cpuTicks, ROOT, settle } from './bench-procs';
import { loadProcess } from './bench-run';
import { startApi } from './bench-service';
import { createFixtures } from './bench-fixtures';
import type { Models } from '../models';

const { SourceMapConsumer } = createRequire(import.meta.url)('source-map-js') as typeof import('source-map-js');

/** A feature and where its code is: source files of the service, or packages it runs. */
interface Feature { name: string; files?: string[]; functions?: string[]; packages?: string[] }

/** Each measured feature; what a GET never runs (body checks, Prefer, tracing off by default) shows as 0. */
export const FEATURES: Feature[] = [
  { name: 'request log line (pino, its write to standard output)', packages: ['pino', 'sonic-boom', '@pinojs/redact', 'fast-redact', 'quick-format-unescaped', 'on-exit-leak-free'] },
  { name: 'request metrics (duration histogram, in-flight gauge)', files: ['server/telemetry/metrics.ts', 'server/telemetry/fast-histogram.ts'], packages: ['prom-client'] },
  { name: 'request bookkeeping (start time, name, the end listener)', files: ['server/telemetry/requests.ts'] },
  { name: 'statement timing (query hooks, statement histogram)', files: ['models/statement-timing.ts', 'core/observe.ts'] },
  { name: 'request id (X-Request-Id)', functions: ['requestIdOf'] },
  { name: 'clean stop (connections and responses tracked)', files: ['server/lifecycle.ts'] },
  { name: 'connection limits (requests per connection)', files: ['server/connection-limits.ts'] },
  { name: 'tracing (off unless OTEL_* is set)', files: ['server/telemetry/tracing.ts'], packages: ['@opentelemetry/api', '@opentelemetry/sdk-node', '@opentelemetry/sdk-trace-base', '@opentelemetry/core'] },
  { name: 'strict path and query decoding', files: ['server/request-target.ts'] },
  { name: 'unknown fields, Prefer, body hygiene (bodies only)', files: ['server/unknown-fields.ts', 'server/body-fields.ts', 'server/prefer.ts', 'core/input-hygiene.ts'] },
  { name: 'access expiry (the grant rule; the sweep runs off the request path)', files: ['server/access-expiry.ts', 'core/rules/grant-state.ts'] },
];

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** What a frame is: a feature (by index), other code of the service or a library (-1), or transparent (undefined). */
type Owner = number | -1 | undefined;

function packageOf(url: string): string | undefined {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return m?.[1];
}

function ownerOf(frame: ProfileNode['callFrame'], bundle: string, map: InstanceType<typeof SourceMapConsumer>): Owner {
  const { url, functionName } = frame;
  if (url === '' || url.startsWith('node:')) return undefined;
  let source = url;
  if (url.endsWith(bundle)) {
    const position = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    source = position.source ?? url;
  }
  const pkg = packageOf(source);
  const relative = pkg ? undefined : path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, 'node_modules/.cache/platform-management-service/x')), source.replace(/^file:\/\//, '')));
  const found = FEATURES.findIndex((f) => (pkg !== undefined && f.packages?.includes(pkg))
    || (relative !== undefined && (f.files?.includes(relative) || f.functions?.includes(functionName))));
  return found >= 0 ? found : -1;
}

/** Frames of the start (the validators compiled, the migrations, the first-start tenant): not a request's work. */
const STARTUP = new Set(['createApp', 'startServer', 'servePrimary', 'runPrimary', 'migrate']);

/** µs of the profile's busy samples per feature (index), and in all; idle and the start left out. */
export function attribute(profile: Profile, bundle: string, mapText: string): { perFeature: number[]; busy: number } {
  const map = new SourceMapConsumer(JSON.parse(mapText));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owners = new Map<number, Owner>();
  const ownerOfNode = (id: number): Owner => {
    if (!owners.has(id)) owners.set(id, ownerOf(nodes.get(id)!.callFrame, bundle, map));
    return owners.get(id);
  };
  const perFeature = FEATURES.map(() => 0);
  let busy = 0;
  const startup = new Map<number, boolean>();
  const isStartup = (id: number): boolean => {
    let known = startup.get(id);
    if (known === undefined) {
      const { url, functionName } = nodes.get(id)!.callFrame;
      known = url.startsWith('node:internal/modules/') || STARTUP.has(functionName) || (parent.has(id) && isStartup(parent.get(id)!));
      startup.set(id, known);
    }
    return known;
  };
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const name = nodes.get(id)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || isStartup(id)) return;
    busy += us;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const owner = ownerOfNode(at);
      if (owner === undefined) continue;
      if (owner >= 0) perFeature[owner] += us;
      return;
    }
  });
  return { perFeature, busy };
}

export async function featureCosts(target: { url: string; dataDir: string; models: Models }, api: (origin: string) => Api, log: (text: string) => void): Promise<string> {
  const requests = Number(process.env.BENCH_FEATURE_REQUESTS || 40_000);
  // BENCH_PROFILE_DIR keeps the profile (and the bundle's map beside it) for a closer look; otherwise it is removed.
  const kept = process.env.BENCH_PROFILE_DIR;
  const profiles = kept ?? mkdtempSync(path.join(os.tmpdir(), 'pms-bench-profile-'));
  try {
    log('the API as npm start runs it, one worker, under a CPU profile…');
    const { server, api: client } = await startApi({ databaseUrl: target.url, dataDir: target.dataDir, workers: 1, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] }, api);
    const fixtures = await createFixtures(client, target.models);
    // BENCH_FEATURE_WRITE=1 profiles POST /api/streams (a new stream per request) instead of the item read.
    const write = process.env.BENCH_FEATURE_WRITE === '1';
    const headers = await client.headers(write);
    // Each phase names its new streams apart: the request numbers ({n}) start again in each.
    const load = (phase: string) => (write
      ? { url: server.origin, connections: 32, method: 'POST', paths: ['/api/streams'], headers,
        body: JSON.stringify({ name: `feature-${phase}-${Date.now().toString(36)}-{n}`, keyType: 'String', valueType: 'JSON', owners: fixtures.seed.ownersUid }) }
      : { url: server.origin, connections: 32, paths: fixtures.clusterUids.map((u) => `/api/clusters/${u}`), headers });
    log('  warming up for 5 s');
    await loadProcess('warm-up', { ...load('warm'), duration: 5 });
    await settle(server.pid);
    const before = cpuTicks(server.pid);
    log(`  ${requests} requests`);
    const result = await loadProcess('measured', { ...load('measured'), amount: requests });
    const cpuUs = ((cpuTicks(server.pid) - before) * 10_000) / requests;
    await server.stop();
    const file = readdirSync(profiles).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the API wrote no CPU profile');
    const bundle = 'node_modules/.cache/platform-management-service/start.mjs';
    const profile = JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as Profile;
    const { perFeature, busy } = attribute(profile, bundle, readFileSync(path.join(ROOT, `${bundle}.map`), 'utf8'));
    // The profile spans the start and the warm-up too: each feature's share of the busy time, applied to the
    // measured CPU time per request.
    const rows = FEATURES.map((f, i) => {
      const share = perFeature[i] / busy;
      return `| ${f.name} | ${(share * cpuUs).toFixed(1)} | ${(share * 100).toFixed(1)} % |`;
    });
    const errors = Number(result.non2xx) + Number(result.errors);
    return [
      '| feature | µs of CPU per request | share of the request |', '|---|--:|--:|', ...rows,
      '', `${write ? 'POST /api/streams' : 'GET /api/clusters/{uid}'}: ${cpuUs.toFixed(0)} µs of the API's CPU per request over ${requests} requests (${errors} errors), WORKERS=1, everything else at npm start's defaults.`,
    ].join('\n');
  } finally {
    if (!kept) rmSync(profiles, { recursive: true, force: true });
  }
}
