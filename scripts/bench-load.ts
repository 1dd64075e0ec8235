/**
 * One load scenario of `npm run bench`, run by bench-run.ts as its own process so that generating the load never
 * shares an event loop with what is measured. Reads a LoadSpec (JSON) on stdin, writes autocannon's result as JSON on
 * stdout, plus `precise`: p50/p99 from every response's own time (autocannon's histogram keeps whole milliseconds,
 * too coarse for a 5 ms goal).
 */
import { createRequire } from 'node:module';
import type { LoadSpec } from './bench-run';

interface Instance extends Promise<Record<string, any>> {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Instance;

/**
 * When the server closes a connection (the service does after MAX_REQUESTS_PER_CONNECTION answers, saying
 * `Connection: close`), autocannon 8 connects again but keeps the request it had already written to the closed
 * connection in its queue of unanswered ones; every later response on that client is then timed from an older
 * request's start, and the times grow with each close (at one connection, 4.9 ms reported where 0.9 ms passed).
 * Its own reconnect (`_resetConnection`) clears that queue first; so does this, on every new connection.
 */
const Client = require('autocannon/lib/httpClient.js') as { prototype: { _connect: () => void; pipelinedRequests?: { clear: () => void } } };
const connect = Client.prototype._connect;
Client.prototype._connect = function reconnect(this: typeof Client.prototype) {
  this.pipelinedRequests?.clear();
  connect.call(this);
};

let input = '';
for await (const chunk of process.stdin) input += chunk;
const spec = JSON.parse(input) as LoadSpec;

// One counter for the warm-up and the measured part: `{n}` never repeats within a scenario.
let n = spec.start ?? 0;
const dynamic = spec.paths.length > 1 || spec.paths[0].includes('{n}') || (spec.body ?? '').includes('{n}');
const request = dynamic
  ? {
    setupRequest: (req: Record<string, unknown>) => {
      const i = n++;
      const fill = (text: string) => text.replaceAll('{n}', String(i));
      return { ...req, path: fill(spec.paths[i % spec.paths.length]), ...(spec.body !== undefined ? { body: fill(spec.body) } : {}) };
    },
  }
  : { path: spec.paths[0], ...(spec.body !== undefined ? { body: spec.body } : {}) };

const run = (opts: Record<string, unknown>, times?: number[]) => {
  const instance = autocannon({
    url: spec.url, method: spec.method ?? 'GET', headers: spec.headers ?? {}, connections: spec.connections,
    timeout: 30, requests: [request], ...opts,
  });
  if (times) instance.on('response', (_c, _s, _b, ms) => times.push(ms));
  return instance;
};

// An `amount` run consumes its paths once each (approving grants): there is nothing to spare for a warm-up.
if (!spec.amount && (spec.warmup ?? 0) > 0) {
  const warm = await run({ duration: spec.warmup });
  // The server still works off what the warm-up left in flight (seconds, for the token endpoint): not the measured part's.
  await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, Number(warm.latency.max) || 0)));
}
const times: number[] = [];
// autocannon ends a run on its once-a-second tick, and counts the wait as run time: an `amount` run's time is taken
// here instead, from the start to its last response.
const started = performance.now();
let last = started;
const instance = run(spec.amount ? { amount: spec.amount } : { duration: spec.duration }, times);
instance.on('response', () => { last = performance.now(); });
const result = await instance;
times.sort((a, b) => a - b);
const at = (q: number) => (times.length ? times[Math.min(times.length - 1, Math.floor(times.length * q))] : NaN);
process.stdout.write(JSON.stringify({
  ...result, precise: { p50: at(0.5), p99: at(0.99), count: times.length, ...(spec.amount ? { seconds: (last - started) / 1000 } : {}) }, ...(spec.keepTimes ? { times: times.map((t) => Math.round(t * 10) / 10) } : {}),
}));
