/** The bench's one way to time requests, shared by bench.ts and bench-audit.ts so their numbers compare. */
import { performance } from 'node:perf_hooks';

export interface Timing { latencies: number[]; seconds: number; failures: number }

/** `requests` calls of `request`, `concurrency` at a time, after `warmup` untimed ones; latencies sorted, in ms. */
export async function measure(request: () => Promise<Response>, requests: number, concurrency: number, warmup = 0): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await (await request()).arrayBuffer();
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < requests) {
      next += 1;
      const t0 = performance.now();
      const res = await request();
      await res.arrayBuffer();
      if (res.status >= 400) failures += 1;
      latencies.push(performance.now() - t0);
    }
  }));
  latencies.sort((a, b) => a - b);
  return { latencies, seconds: (performance.now() - started) / 1000, failures };
}

export const percentile = (t: Timing, p: number): number => t.latencies[Math.min(t.latencies.length - 1, Math.floor(t.latencies.length * p))];

/** One table line: throughput, p50/p95/p99, failures and the process's memory. */
export function report(name: string, t: Timing): void {
  const pct = (p: number) => percentile(t, p).toFixed(1).padStart(6);
  console.log(`${name.padEnd(28)} ${String(Math.round(t.latencies.length / t.seconds)).padStart(6)} req/s  p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  p99 ${pct(0.99)} ms  failures ${t.failures}  rss ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
}
