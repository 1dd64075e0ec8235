/**
 * One measured scenario: bench-load.ts started as its own process with the scenario on stdin, the target's process
 * tree sampled for RSS meanwhile, the outcome as a table row.
 */
import { sampleRss, settle, spawnScript, stopChild, tailOf } from './bench-procs';

export interface LoadSpec {
  /** The origin, e.g. http://127.0.0.1:8080. */
  url: string;
  method?: string;
  /** Used round-robin, one per request; `{n}` becomes the request's number. */
  paths: string[];
  headers?: Record<string, string>;
  /** `{n}` becomes the request's number. */
  body?: string;
  connections: number;
  /** Seconds measured; ignored with `amount`. */
  duration?: number;
  /** Exactly this many requests, no warm-up. */
  amount?: number;
  /** Seconds of load before the measured part, not counted. */
  warmup?: number;
  /** The first `{n}`. */
  start?: number;
  /** Also answer every response's time (ms), as `times`: a soak's window merges its slices' quantiles. */
  keepTimes?: boolean;
}

export interface Row {
  scenario: string;
  size: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Filled in once the rows it compares with are known. */
  ratio?: number;
  rss: { tree: number; largest: number } | null;
  /** Responses by status, for a row with errors. */
  statuses: Record<string, number>;
}

/** bench-load.ts with `spec`: autocannon's result. */
export async function loadProcess(name: string, spec: LoadSpec): Promise<Record<string, any>> {
  const child = spawnScript('scripts/bench-load.ts', {}, 'pipe');
  const tail = tailOf(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
  child.stdin!.end(JSON.stringify(spec));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  await stopChild(child);
  if (code !== 0) throw new Error(`bench-load for ${name} exited with ${code}:\n${tail()}`);
  return JSON.parse(out) as Record<string, any>;
}

/**
 * Load nobody measures, after a start: V8 compiles the hot paths and the pools fill, so the first scenario's
 * numbers (the baseline of the size ratios) are not a cold process's.
 */
export async function warmUp(name: string, spec: LoadSpec, pid: number): Promise<void> {
  await settle(pid);
  process.stderr.write(`  warming up ${name} for ${spec.duration} s\n`);
  await loadProcess(`warming up ${name}`, { ...spec, warmup: 0 });
}

/** Runs `spec` against a server whose process is `pid` (its tree's RSS is the row's). */
export async function runScenario(scenario: string, size: string, spec: LoadSpec, pid: number | undefined): Promise<Row> {
  process.stderr.write(`  ${scenario} (${size})…`);
  const stopSampling = sampleRss(pid);
  const r = await loadProcess(scenario, spec).catch((err: unknown) => {
    stopSampling();
    throw err;
  });
  const rss = stopSampling();
  const statuses: Record<string, number> = Object.fromEntries(Object.entries((r.statusCodeStats ?? {}) as Record<string, { count: number }>).map(([s, v]) => [s, Number(v.count)]));
  if (r.errors) statuses.socket = r.errors;
  const row: Row = {
    scenario, size, rps: r.requests.total / (r.precise.seconds ?? r.duration), p50: r.precise.p50 ?? NaN, p99: r.precise.p99 ?? NaN, errors: r.non2xx + r.errors, rss, statuses,
  };
  process.stderr.write(` ${Math.round(row.rps)} req/s, p50 ${row.p50.toFixed(1)} ms${row.errors ? `, ${row.errors} errors ${JSON.stringify(statuses)}` : ''}\n`);
  return row;
}
