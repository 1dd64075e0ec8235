/**
 * `npm run bench`: latency, throughput and memory of the main read/write paths against the real stack
 * (embedded PostgreSQL unless DATABASE_URL is set). Loopback only; bounded request counts. Prints a table.
 */
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config';
import { openDatabase } from '../models/db';
import { migrate } from '../models/migrator';
import { bootstrap } from '../models/bootstrap';
import { startServer } from '../server/server';
import { startEmbeddedPostgres } from './embedded-postgres';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const dataDir = mkdtempSync(path.join(tmpdir(), 'pms-bench-'));
chmodSync(dataDir, 0o755);
const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, 'bench');
const sequelize = openDatabase(process.env.DATABASE_URL ?? embedded!.url);
await migrate(sequelize);
const config = { ...loadConfig({}), port: 0, dataDir };
const server = await startServer({ config, sequelize, host: '127.0.0.1' });
const seeded = await bootstrap(server.models, { tenant: 'bench', email: 'bench@bench.local' });
const tokenRes = await fetch(`${server.authUrl}/realms/bench/protocol/openid-connect/token`, {
  method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username: 'bench@bench.local', password: seeded!.password }),
});
const token = ((await tokenRes.json()) as { access_token: string }).access_token;
const api = `${server.url}/api`;
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

let counter = 0;
async function run(name: string, request: () => Promise<Response>): Promise<void> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      next += 1;
      const t0 = performance.now();
      const res = await request();
      await res.arrayBuffer();
      if (res.status >= 400) failures += 1;
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  console.log(`${name.padEnd(28)} ${String(Math.round(latencies.length / seconds)).padStart(6)} req/s  p50 ${pct(0.5).padStart(6)} ms  p95 ${pct(0.95).padStart(6)} ms  p99 ${pct(0.99).padStart(6)} ms  failures ${failures}  rss ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
}

console.log(`requests per case ${REQUESTS}, concurrency ${CONCURRENCY}, database ${sequelize.getDialect()}`);
await run('POST /clusters', () => fetch(`${api}/clusters`, { method: 'POST', headers, body: JSON.stringify({ name: `c-${counter++}`, bootstrapServers: ['b:9092'] }) }));
const first = ((await (await fetch(`${api}/clusters?size=1`, { headers })).json()) as any)._embedded.clusters[0];
await run('GET /clusters/{id}', () => fetch(first._links.self.href, { headers }));
await run('GET /clusters?size=20', () => fetch(`${api}/clusters?size=20&page=${counter++ % 50}`, { headers }));
await run('GET /clusters?size=200&sort', () => fetch(`${api}/clusters?size=200&sort=name,desc`, { headers }));
// Distinct rows: concurrent PATCHes of one row are meant to lose with 409 (optimistic locking).
const all = ((await (await fetch(`${api}/clusters?size=${REQUESTS}`, { headers })).json()) as any)._embedded.clusters as Array<{ _links: { self: { href: string } } }>;
let row = 0;
await run('PATCH /clusters/{id}', () => fetch(all[row++ % all.length]._links.self.href, { method: 'PATCH', headers, body: JSON.stringify({ description: `d${counter++}` }) }));

await server.close();
await sequelize.close();
if (embedded) await embedded.stop();
rmSync(dataDir, { recursive: true, force: true });
