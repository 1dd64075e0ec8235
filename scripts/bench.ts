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
async function run(name: string, request: () => Promise<Response>, concurrency = CONCURRENCY): Promise<void> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
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


// The AsyncAPI document of one deployed stream, asked for again and again (the cached path), alone and under load.
const post = async (p: string, body: unknown) => {
  const res = await fetch(`${api}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
};
const me = (await (await fetch(`${api}/user`, { headers })).json()) as any;
const group = await post('/groups', { name: 'Bench Owners', members: [me.uid] });
const instance = await post('/instances', { name: 'Bench Instance', shortName: 'bench', clusters: all.slice(0, 2).map((c) => c._links.self.href) });
const environment = await post('/environments', { name: 'bench-dev', shortName: 'dev', instance: instance.uid, owners: group.uid });
const fields = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, type: i % 2 ? 'string' : { type: 'long', logicalType: 'timestamp-millis' } }));
const version = await post('/schemas/upload', { schema: JSON.stringify({ type: 'record', name: 'BenchEvent', namespace: 'io.bench', fields }), version: '1' });
const stream = await post('/streams', { name: 'bench-events', keyType: 'String', valueType: 'AVRO', valueSchema: version.schemaUid, owners: group.uid });
const streamConfig = await post('/stream_configs', { stream: stream.uid, environment: environment.uid, valueSchemaVersion: version.id });
const asyncapi = `${api}/stream_configs/${streamConfig.uid}/asyncapi`;
// One at a time, beside what any authenticated read costs (the floor the document is built on).
await run('GET /info c=1', () => fetch(`${api}/info`), 1);
await run('GET /user c=1', () => fetch(`${api}/user`, { headers }), 1);
await run('GET asyncapi (json) c=1', () => fetch(asyncapi, { headers }), 1);
await run('GET asyncapi (yaml) c=1', () => fetch(asyncapi, { headers: { ...headers, Accept: 'application/yaml' } }), 1);
await run('GET asyncapi (json)', () => fetch(asyncapi, { headers }));

await server.close();
await sequelize.close();
if (embedded) await embedded.stop();
rmSync(dataDir, { recursive: true, force: true });
