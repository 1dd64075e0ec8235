/**
 * The topic wizard at scale (issue 34): BENCH_IMPORT_TOPICS (1000) topics of the loopback Aiven stand-in — a good
 * share with an Avro value schema in its registry, each with a consumer and a producer ACL that become grants — are
 * imported through the API as a client imports them, into an empty tenant of a database of their own (dropped and
 * made again on every run, so the first run always starts empty). Then the same import again, which finds
 * everything and creates nothing. Both are timed from the request to the report, provider reads included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { QueryTypes, type Sequelize } from 'sequelize';
import { openDatabase } from '../models/db';
import { migrate } from '../migrations/migrator';
import { startFakeAiven, type FakeAivenService } from '../test/support/fake-aiven';
import type { Api } from './bench-api';
import { ROOT, sampleRss, settle } from './bench-procs';
import type { Row } from './bench-run';
import { startApi } from './bench-service';
import { siblingUrl } from './bench-sizes';
import { importGoal } from './bench-goals';
import { goalList, scenarioTable, sizeLabel } from './bench-table';

const TOKEN = 'bench-import-aiven-token';
const SERVICE = 'kafka-bench';

export interface ImportOutcome {
  rows: Row[];
  notes: string[];
  /** Topics per second of the first run (into the empty tenant) and of the second (which changes nothing). */
  first: number;
  second: number;
}

/** The most topic names one request may carry: WizardImportRequest's `topics.maxItems` in the OpenAPI document. */
function batchSize(): number {
  const spec = JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi.json'), 'utf8'));
  return Number(spec.components.schemas.WizardImportRequest.properties.topics.maxItems);
}

export const importTopicName = (i: number) => `imp-${String(i).padStart(6, '0')}`;

/** `count` topics: 3 in 5 with an Avro value schema, 1 in 5 compacted, a consumer (of 20) and a producer (of 50) each. */
export function importService(count: number): FakeAivenService {
  const names = Array.from({ length: count }, (_, i) => importTopicName(i));
  const record = (i: number) => JSON.stringify({
    type: 'record', name: `Event${i}`, namespace: 'io.bench.imported',
    fields: [{ name: 'id', type: 'string' }, { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } }, { name: 'amount', type: ['null', 'double'], default: null }],
  });
  return {
    name: SERVICE, type: 'kafka', schemaRegistry: true,
    components: [{ component: 'kafka', host: 'kafka-bench.test', port: 12345 }, { component: 'schema_registry', host: 'kafka-bench.test', port: 12347 }],
    topics: names.map((name, i) => ({ name, partitions: 3, replication: 3, config: { retention_ms: 604_800_000, cleanup_policy: i % 5 === 4 ? 'compact' : 'delete' } })),
    acl: names.flatMap((name, i) => [
      { username: `consumer-${i % 20}`, topic: name, permission: 'read' as const },
      { username: `producer-${i % 50}`, topic: name, permission: 'write' as const },
    ]),
    subjects: names.flatMap((name, i) => (i % 5 < 3 ? [{ name: `${name}-value`, versions: [{ version: 1, schema: record(i) }] }] : [])),
  };
}

/** The database `name` on `sequelize`'s server, dropped first if a previous run left it. */
export async function freshDatabase(sequelize: Sequelize, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`not a plain database name: ${name}`);
  const quoted = sequelize.getDialect() === 'postgres' ? `"${name}"` : `\`${name}\``;
  if (sequelize.getDialect() === 'postgres') {
    await sequelize.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?', { replacements: [name], type: QueryTypes.SELECT });
  }
  await sequelize.query(`DROP DATABASE IF EXISTS ${quoted}`);
  await sequelize.query(`CREATE DATABASE ${quoted}`);
}

interface Report { failures: unknown[]; [kind: string]: unknown }

/** One import of every topic, in requests of the most topics the API allows: seconds, and the reports. */
async function importAll(api: Api, body: Record<string, unknown>, names: string[], batch: number): Promise<{ seconds: number; requests: number[]; reports: Report[] }> {
  const requests: number[] = [];
  const reports: Report[] = [];
  const t0 = performance.now();
  for (let from = 0; from < names.length; from += batch) {
    const started = performance.now();
    reports.push(await api.call('POST', '/wizard/topics/import', { ...body, topics: names.slice(from, from + batch) }, 200));
    requests.push(performance.now() - started);
  }
  return { seconds: (performance.now() - t0) / 1000, requests, reports };
}

/** The sum of each kind's created and existing counts over the reports, and their failures. */
function totals(reports: Report[]): { counts: Record<string, { created: number; existing: number }>; failures: unknown[] } {
  const counts: Record<string, { created: number; existing: number }> = {};
  for (const r of reports) {
    for (const [kind, v] of Object.entries(r)) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      const c = (counts[kind] ??= { created: 0, existing: 0 });
      c.created += (v as { created: number }).created;
      c.existing += (v as { existing: number }).existing;
    }
  }
  return { counts, failures: reports.flatMap((r) => r.failures) };
}

const shown = (counts: Record<string, { created: number; existing: number }>) =>
  Object.entries(counts).map(([k, v]) => `${k} ${v.created}+${v.existing}`).join(', ');

export async function importBench(main: { url: string; sequelize: Sequelize; dataDir: string }, api: (origin: string) => Api, log: (text: string) => void): Promise<ImportOutcome> {
  const count = Number(process.env.BENCH_IMPORT_TOPICS || 1000);
  if (!Number.isInteger(count) || count <= 0) throw new Error('BENCH_IMPORT_TOPICS must be a positive whole number');
  const size = sizeLabel(count);
  log(`\nthe topic wizard: importing ${count} topics from the loopback Aiven stand-in…`);
  const fake = await startFakeAiven({ token: TOKEN, projects: { bench: [importService(count)] } });
  const url = siblingUrl(main.url, 'import');
  await freshDatabase(main.sequelize, new URL(url).pathname.slice(1));
  const sequelize = openDatabase(url);
  let server: { stop: () => Promise<void> } | undefined;
  try {
    await migrate(sequelize);
    const started = await startApi({ databaseUrl: url, dataDir: main.dataDir, workers: 1, extra: { AIVEN_API_URL: fake.url } }, api);
    server = started.server;
    const client = started.api;
    const me = await client.call('GET', '/user');
    const owners = (await client.call('POST', '/groups', { name: 'Imported Owners', members: [me.uid] })).uid;
    const cluster = (await client.call('POST', '/clusters', { name: 'import-cluster', bootstrapServers: ['import-cluster:9092'] })).uid;
    const instance = (await client.call('POST', '/instances', { name: 'Import Instance', shortName: 'importinst', clusters: [cluster] })).uid;
    const environment = (await client.call('POST', '/environments', { name: 'import-prod', shortName: 'prod', instance, owners })).uid;
    const providerConfigs = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'bench', 'Svc-Auth-Token-A': TOKEN, 'Svc-Service-Name-A': SERVICE };
    const body = { providerConfigs, environment, owners };
    const names = Array.from({ length: count }, (_, i) => importTopicName(i));
    const limit = batchSize();
    const batch = Math.min(limit, count);

    const run = async (label: string) => {
      await settle(started.server.pid);
      const stopSampling = sampleRss(started.server.pid);
      const result = await importAll(client, body, names, batch);
      const rss = stopSampling();
      const { counts, failures } = totals(result.reports);
      const rate = count / result.seconds;
      log(`  ${label}: ${result.seconds.toFixed(1)} s, ${Math.round(rate)} topics/s (${shown(counts)}; ${failures.length} failures)`);
      const sorted = [...result.requests].sort((a, b) => a - b);
      const row: Row = {
        scenario: `POST /api/wizard/topics/import, ${label} (req/s column: topics/s; ${result.requests.length} request${result.requests.length === 1 ? '' : 's'}, ≤ ${limit} topics each)`,
        size, rps: rate, p50: sorted[Math.floor((sorted.length - 1) / 2)], p99: sorted[sorted.length - 1], errors: failures.length, rss, statuses: {},
      };
      return { row, counts, failures, seconds: result.seconds, rate };
    };
    const first = await run('first run');
    const second = await run('second run (changes nothing)');
    second.row.ratio = second.rate / first.rate;
    const createdAgain = Object.values(second.counts).reduce((n, c) => n + c.created, 0);
    const notes = [
      `import of ${count} topics (${Math.ceil(count / batch)} request${count > batch ? 's' : ''}, ≤ ${limit} topics each; created+existing): first run ${first.seconds.toFixed(1)} s = ${Math.round(first.rate)} topics/s (${shown(first.counts)}); `
      + `second run ${second.seconds.toFixed(1)} s = ${Math.round(second.rate)} topics/s (${shown(second.counts)}); second ÷ first ${(second.rate / first.rate).toFixed(2)}`,
    ];
    if (first.failures.length || second.failures.length) notes.push(`import failures: first run ${first.failures.length}, second ${second.failures.length}: ${JSON.stringify([...first.failures, ...second.failures].slice(0, 3))}`);
    if (createdAgain) notes.push(`the second import created ${createdAgain} entities: it should have found them all`);
    return { rows: [first.row, second.row], notes, first: first.rate, second: second.rate };
  } finally {
    await server?.stop();
    await sequelize.close().catch(() => undefined);
    await fake.close();
  }
}

/** `npm run bench -- import`: the import alone, as markdown. */
export function importReport(header: string, o: ImportOutcome): string {
  return ['# npm run bench -- import', '', header, '', scenarioTable(o.rows), '', ...o.notes.map((n) => `- ${n}`), '', '## Goals', '', goalList([importGoal(o)]), ''].join('\n');
}
