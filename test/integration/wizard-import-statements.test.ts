/**
 * Issue 34: the topic wizard's statements. What the requested topics already have is read once per run, one
 * statement per kind, so a topic costs only its own transaction: importing more topics adds the same statements per
 * topic (its writes and what creating each entity through its POST's code reads), and a second run that finds
 * everything adds none at all — its only write is the run's SYNCHRONIZED entry.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { call, created } from '../support/http';
import { dialectOf } from '../../models/db';
import { startFakeAiven, type FakeAiven, type FakeAivenService } from '../support/fake-aiven';

const TOKEN = 'wizard-statements-token-abcdef';
/**
 * A topic with a new value schema, its stream and config, and two grants to existing applications, in its own
 * transaction, per dialect family: exactly today's count (creates go through each resource's POST code, whose reads
 * are its own; PostgreSQL's creates meet a unique clash at the index instead of looking for it first).
 */
const PER_TOPIC = dialectOf(inject('databaseUrl')) === 'postgres' ? 30 : 31;

const schemaOf = (i: number) => JSON.stringify({ type: 'record', name: `Event${i}`, namespace: 'io.statements', fields: [{ name: 'id', type: 'string' }] });
const names = Array.from({ length: 11 }, (_, i) => `topic-${String(i).padStart(3, '0')}`);
// Alike topics: each with a value schema of its own, a consumer and a producer (applications the first import makes).
const service: FakeAivenService = {
  name: 'kafka-statements', type: 'kafka', schemaRegistry: true,
  components: [{ component: 'kafka', host: 'kafka-statements.test', port: 12345 }],
  topics: names.map((name) => ({ name, partitions: 3, replication: 3, config: { retention_ms: 604_800_000, cleanup_policy: 'delete' } })),
  acl: names.flatMap((name) => [{ username: 'reader', topic: name, permission: 'read' as const }, { username: 'writer', topic: name, permission: 'write' as const }]),
  subjects: names.map((name, i) => ({ name: `${name}-value`, versions: [{ version: 1, schema: schemaOf(i) }] })),
};
const fields = { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': TOKEN, 'Svc-Service-Name-A': 'kafka-statements' };

let app: TestApp;
let fake: FakeAiven;
let t: TestTenant;
let environment: string;
let owners: string;
let statements: string[] | null = null;

beforeAll(async () => {
  fake = await startFakeAiven({ token: TOKEN, projects: { acme: [service] } });
  app = await startTestApp({ aivenApiUrl: fake.url });
  t = await createTenant(app, 'wizard-stmts');
  const post = async (path: string, body: unknown): Promise<string> => (await created(app, path, body, t.admin.token)).uid;
  owners = await post('/groups', { name: 'Statements Team' });
  const cluster = await post('/clusters', { name: 'statements-cluster', bootstrapServers: ['k:9092'] });
  const instance = await post('/instances', { name: 'statements', shortName: 'stmts', clusters: [cluster] });
  environment = await post('/environments', { name: 'statements-env', shortName: 'stmts', instance, owners });
  app.models.sequelize.addHook('afterQuery', (_options, query) => {
    statements?.push(String((query as { sql?: unknown }).sql ?? ''));
  });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** The statements of one import of `topics`, and its report. */
async function importing(topics: string[], dryRun = false): Promise<{ sql: string[]; body: any }> {
  statements = [];
  const res = await call(app, 'POST', '/wizard/topics/import', { token: t.admin.token, body: { providerConfigs: fields, environment, owners, topics, dryRun } });
  const sql = statements;
  statements = null;
  expect(res.status, res.text).toBe(200);
  expect(res.body.failures).toEqual([]);
  return { sql, body: res.body };
}

const writes = (sql: string[]) => sql.filter((s) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(s));
const auditInserts = (sql: string[]) => sql.filter((s) => /^\s*INSERT INTO [`"]?audit_events\b/i.test(s));
const transactions = (sql: string[]) => sql.filter((s) => /^\s*(START TRANSACTION|BEGIN)\b/i.test(s));

describe('the wizard import: statements per topic', () => {
  it('a first import adds the same statements per topic, one transaction and one multi-row audit INSERT each', async () => {
    // The applications first, so the topics measured below are alike.
    await importing(names.slice(0, 1));
    const three = await importing(names.slice(1, 4));
    const seven = await importing(names.slice(4, 11));
    expect(seven.body.streams).toEqual({ created: 7, existing: 0 });
    expect(seven.body.grants).toEqual({ created: 14, existing: 0 });
    const perTopic = (seven.sql.length - three.sql.length) / 4;
    expect(Number.isInteger(perTopic), `${three.sql.length} statements for 3 topics, ${seven.sql.length} for 7`).toBe(true);
    expect(perTopic, `${perTopic} statements per topic`).toBe(PER_TOPIC);
    // What is not per topic: the run's reads and its summary, the same for 3 topics as for 7.
    expect(three.sql.length - 3 * perTopic).toBe(seven.sql.length - 7 * perTopic);
    // Each topic its own transaction (plus the summary's), its entries written by one INSERT (plus the summary's).
    expect(transactions(seven.sql)).toHaveLength(7 + 1);
    expect(auditInserts(seven.sql)).toHaveLength(7 + 1);
  });

  it('a second run that finds everything reads once per kind and writes only its summary, however many topics', async () => {
    const few = await importing(names.slice(0, 2));
    const all = await importing(names);
    expect(all.body.streams).toEqual({ created: 0, existing: 11 });
    expect(all.body.grants).toEqual({ created: 0, existing: 22 });
    expect(all.sql.length).toBe(few.sql.length);
    expect(writes(all.sql)).toEqual(auditInserts(all.sql));
    expect(auditInserts(all.sql)).toHaveLength(1);
    expect(transactions(all.sql)).toHaveLength(1);
  });

  it('its dry run reads the same and writes nothing', async () => {
    const dry = await importing(names, true);
    expect(dry.body).toMatchObject({ dryRun: true, streams: { created: 0, existing: 11 }, grants: { created: 0, existing: 22 } });
    expect(writes(dry.sql)).toEqual([]);
  });
});
