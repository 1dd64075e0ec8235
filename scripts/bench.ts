/**
 * `npm run bench`: latency, throughput and memory of the main read/write paths against the real stack
 * (embedded PostgreSQL unless DATABASE_URL is set). Loopback only; bounded request counts. Prints a table.
 */
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../models/db';
import { migrate } from '../models/migrator';
import { bootstrap } from '../models/bootstrap';
import { startServer } from '../server/server';
import { startEmbeddedPostgres } from './embedded-postgres';
import { measure, report } from './bench-run';
import { benchAudit } from './bench-audit';

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
const api = `${server.url}/api`;
// Access tokens live 5 minutes, less than the audit part takes: it logs in again for each query.
async function login(username = 'bench@bench.local', password = seeded!.password): Promise<Record<string, string>> {
  const tokenRes = await fetch(`${server.authUrl}/realms/bench/protocol/openid-connect/token`, {
    method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username, password }),
  });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  return { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
}
const headers = await login();
// A user without roles: the audit history shows it only what it may see, through the visibility subqueries.
const member = { email: 'member@bench.local', password: 'member-bench-password' };
const memberRes = await fetch(`${api}/users`, { method: 'POST', headers, body: JSON.stringify({ firstName: 'Bench', lastName: 'Member', emailAddress: member.email, password: member.password, roles: [] }) });
if (memberRes.status !== 201) throw new Error(`creating the bench member: ${memberRes.status} ${await memberRes.text()}`);

let counter = 0;
const run = async (name: string, request: () => Promise<Response>, concurrency = CONCURRENCY): Promise<void> =>
  report(name, await measure(request, REQUESTS, concurrency));

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

if (process.env.BENCH_AUDIT !== '0') await benchAudit({ models: server.models, api, login: (asMember = false) => (asMember ? login(member.email, member.password) : login()), requests: REQUESTS });

await server.close();
await sequelize.close();
if (embedded) await embedded.stop();
rmSync(dataDir, { recursive: true, force: true });
