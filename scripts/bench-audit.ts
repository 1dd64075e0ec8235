/**
 * The audit history at two sizes, run at the end of `npm run bench`: the bench tenant's history is seeded straight
 * into the database up to BENCH_AUDIT_SMALL entries (default 10000), a fixed set of GET /audit-history queries is
 * timed one at a time, then the history grows to BENCH_AUDIT_LARGE entries (default 1000000) and the same queries are
 * timed again, each one at a time with BENCH_REQUESTS requests (at most 300). The goal is p50(large) ≤ 1.5 ×
 * p50(small); a miss is printed, never fatal. BENCH_AUDIT=0 skips it. The data comes from a seeded PRNG, so two runs
 * with the same settings seed the same history and query the same resource, actor and name.
 */
import { performance } from 'node:perf_hooks';
import type { Models } from '../models';
import { measure, percentile, report, type Timing } from './bench-run';

const SMALL = Number(process.env.BENCH_AUDIT_SMALL ?? 10_000);
const LARGE = Number(process.env.BENCH_AUDIT_LARGE ?? 1_000_000);
// Big enough to amortise a round trip, small enough for MariaDB's default max_allowed_packet (~0.4 KB a row).
const BATCH = 5_000;
const WARMUP = 20;
const GOAL = 1.5;
const YEAR_MS = 365 * 86_400_000;

/** mulberry32: tiny, fast and good enough to make a history look random, the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const hex32 = (rnd: () => number) => Array.from({ length: 4 }, () => Math.floor(rnd() * 2 ** 32).toString(16).padStart(8, '0')).join('');
const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
/** Low indexes far likelier than high ones: a few busy actors and resources, a long quiet tail, as in real tenants. */
const skewed = (rnd: () => number, n: number) => Math.floor(n * rnd() ** 2);

// Per kind: its share of resources, its names, and its actions (repeats weigh: edits outnumber creations).
const KINDS: { type: string; weight: number; name: (i: number, domain: string) => string; actions: string[] }[] = [
  { type: 'Topic', weight: 35, name: (i, d) => `${d}.events.v${i}`, actions: ['UPDATED', 'UPDATED', 'UPDATED', 'TOPIC_CONFIGURED', 'TOPIC_CONFIGURED', 'CREATED', 'DELETED', 'BROWSE_PERMISSION_GRANTED', 'TOPIC_BROWSED'] },
  { type: 'Schema', weight: 20, name: (i, d) => `io.bench.${d}.Event${i}`, actions: ['SCHEMA_VERSION_UPLOADED', 'SCHEMA_VERSION_UPLOADED', 'UPDATED', 'CREATED', 'DELETED', 'SCHEMA_OWNERSHIP_TRANSFERRED'] },
  { type: 'Application', weight: 20, name: (i, d) => `${d[0].toUpperCase()}${d.slice(1)}Service${i}`, actions: ['APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_APPROVED', 'UPDATED', 'CREATED', 'APPLICATION_CONFIGURED', 'APPLICATION_STARTED', 'APPLICATION_ACCESS_DENIED', 'DELETED'] },
  { type: 'User', weight: 10, name: (i, d) => `user${i}@${d}.bench.local`, actions: ['CREATED', 'UPDATED', 'UPDATED', 'DELETED'] },
  { type: 'Group', weight: 6, name: (i, d) => `${d} team ${i}`, actions: ['CREATED', 'UPDATED', 'UPDATED', 'DELETED'] },
  { type: 'Environment', weight: 4, name: (i, d) => `${d}-env-${i}`, actions: ['CREATED', 'UPDATED', 'DELETED', 'SCHEMA_REGISTRY_CONFIGURED'] },
  { type: 'Instance', weight: 2, name: (i, d) => `${d}-instance-${i}`, actions: ['CREATED', 'UPDATED', 'KSML_PROVISIONER_CONFIGURED'] },
  { type: 'Cluster', weight: 2, name: (i, d) => `${d}-kafka-${i}`, actions: ['CREATED', 'UPDATED', 'CLUSTER_ADDED', 'DELETED'] },
  { type: 'Tenant', weight: 1, name: (i) => `Bench ${i}`, actions: ['UPDATED'] },
];
const DOMAINS = ['orders', 'payments', 'customers', 'inventory', 'shipping', 'billing', 'fraud', 'clicks'];
const FIRST = ['Anna', 'Bram', 'Chloe', 'Daan', 'Eva', 'Finn'];
const LAST = ['Jansen', 'de Vries', 'Bakker', 'Visser', 'Smit'];

interface Resource { id: string; type: string; name: string; actions: string[] }
interface Actor { email: string; name: string }

/** The actors and resources of both sizes: made from LARGE alone, so a query means the same thing at each size. */
function makeWorld() {
  const rnd = prng(20260101);
  const actors: Actor[] = FIRST.flatMap((f) => LAST.map((l) => ({ email: `${f}.${l.replace(' ', '')}@Bench.local`, name: `${f} ${l}` })));
  const total = KINDS.reduce((s, k) => s + k.weight, 0);
  const resources: Resource[] = Array.from({ length: Math.max(50, Math.round(LARGE / 500)) }, (_, i) => {
    let w = rnd() * total;
    const kind = KINDS.find((k) => (w -= k.weight) < 0) ?? KINDS[0];
    return { id: hex32(rnd), type: kind.type, name: kind.name(i, pick(rnd, DOMAINS)), actions: kind.actions };
  });
  return { actors, resources, actorHits: new Array<number>(actors.length).fill(0), resourceHits: new Array<number>(resources.length).fill(0) };
}
type World = ReturnType<typeof makeWorld>;

/** One audit_events row, by column name, with what writeAudit fills (the lowercase twins too; seq is the database's). */
function entry(rnd: () => number, world: World, tenantUid: string, tenant: string, now: number, tally: boolean) {
  const a = skewed(rnd, world.actors.length);
  const r = skewed(rnd, world.resources.length);
  if (tally) { world.actorHits[a] += 1; world.resourceHits[r] += 1; }
  const actor = world.actors[a];
  const resource = world.resources[r];
  return {
    uid: hex32(rnd), tenant_uid: tenantUid, tenant, timestamp: new Date(now - 1 - Math.floor(rnd() * YEAR_MS)),
    action: pick(rnd, resource.actions), actor: actor.email, actor_key: actor.email.toLowerCase(), actor_name: actor.name,
    resource_type: resource.type, resource_id: resource.id, resource_name: resource.name, resource_name_key: resource.name.toLowerCase(),
    details: JSON.stringify({ name: resource.name, revision: Math.floor(rnd() * 50), source: 'bench' }),
  };
}

/** A bar on a terminal; elsewhere (a pipe, CI's log) one line a tenth, so a log stays short. */
function progress(label: string, total: number): (done: number) => void {
  const started = performance.now();
  let tenths = -1;
  return (done) => {
    const rate = `${Math.round(done / ((performance.now() - started) / 1000))} rows/s`;
    if (process.stderr.isTTY) {
      const filled = Math.round((done / total) * 30);
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${done}/${total} ${rate}\x1b[K${done >= total ? '\n' : ''}`);
    } else if (Math.floor((done / total) * 10) > tenths) {
      tenths = Math.floor((done / total) * 10);
      process.stderr.write(`${label} ${tenths * 10}% ${done}/${total} ${rate}\n`);
    }
  };
}

interface Seeding { rows: number; seconds: number }

/**
 * Brings the tenant to `target` entries, with one entry of the other tenant for every 50, in multi-row INSERTs
 * through the query interface (no model instances: about 1.5 times bulkCreate's speed). Two INSERTs in flight keep
 * both cores busy while the next batch is built: about 1.5 times one at a time on PostgreSQL.
 */
async function seed(models: Models, world: World, tenantUid: string, otherUid: string, target: number, seedValue: number, tally: boolean): Promise<Seeding> {
  const todo = target - (await models.AuditEvent.count({ where: { tenantUid } }));
  if (todo <= 0) return { rows: 0, seconds: 0 };
  const qi = models.sequelize.getQueryInterface();
  const rnd = prng(seedValue);
  const now = Date.now();
  const bar = progress(`seeding audit_events to ${target}`, todo);
  const started = performance.now();
  const writing: Promise<unknown>[] = [];
  let written = 0;
  for (let done = 0; done < todo; done += BATCH) {
    const n = Math.min(BATCH, todo - done);
    const rows = Array.from({ length: n }, () => entry(rnd, world, tenantUid, 'bench', now, tally));
    for (let i = 0; i < n; i += 50) rows.push(entry(rnd, world, otherUid, 'other', now, false));
    if (writing.length === 2) await writing.shift();
    writing.push(qi.bulkInsert('audit_events', rows).then(() => bar((written += n))));
  }
  await Promise.all(writing);
  return { rows: todo, seconds: (performance.now() - started) / 1000 };
}

async function analyze(models: Models): Promise<void> {
  await models.sequelize.query(models.sequelize.getDialect() === 'postgres' ? 'ANALYZE audit_events' : 'ANALYZE TABLE audit_events');
}

/** The index of the middle (q = 0.5) or the q-th busiest of the entries the small phase seeded. */
const busiest = (hits: number[], q: number): number => {
  const used = hits.map((h, i) => [h, i]).filter(([h]) => h > 0).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return used.length ? used[Math.min(used.length - 1, Math.floor(used.length * q))][1] : 0;
};

interface Result { timing: Timing; total: number }

/** `login` gives fresh request headers: a token outlives neither the seeding nor a slow phase. */
export async function benchAudit(opts: { models: Models; api: string; login: (asMember?: boolean) => Promise<Record<string, string>>; requests: number }): Promise<void> {
  const { models, api, login } = opts;
  const requests = Math.min(opts.requests, 300);
  const tenant = await models.Tenant.findOne({ where: { shortName: 'bench' } });
  if (!tenant) throw new Error('bench-audit: no tenant "bench"');
  const tenantUid = (tenant as unknown as { uid: string }).uid;
  // A second tenant's entries share actors and resource ids, so a query that lost the tenant filter counts them.
  const otherUid = hex32(prng(7));
  const world = makeWorld();
  const label = (n: number) => (n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
  console.log(`\naudit history: ${label(SMALL)} then ${label(LARGE)} entries, ${world.actors.length} actors, ${world.resources.length} resources, c=1, ${WARMUP} warm-up + ${requests} requests per query`);

  const small = await seed(models, world, tenantUid, otherUid, SMALL, 1, true);
  const resource = world.resources[busiest(world.resourceHits, 0.5)];
  const named = world.resources[busiest(world.resourceHits, 0.9)];
  const actor = world.actors[busiest(world.actorHits, 0.5)];
  const queries: [string, string, boolean?][] = [
    ['a unfiltered first page', 'size=20'],
    ['b one resource', `resourceId=${resource.id}&size=20`],
    ['c actor, last 30 days', `actor=${encodeURIComponent(actor.email)}&fromTimestamp=now-30d&size=20`],
    ['d UPDATED Topic', 'action=UPDATED&resourceType=Topic&size=20'],
    ['e resource name', `resourceName=${encodeURIComponent(named.name)}&size=20`],
    ['f page 50', 'size=20&page=50'],
    ['g member, unfiltered', 'size=20', true],
    ['h member, UPDATED Topic', 'action=UPDATED&resourceType=Topic&size=20', true],
  ];
  const phase = async (size: string): Promise<Result[]> => {
    await analyze(models);
    const results: Result[] = [];
    for (const [name, query, asMember] of queries) {
      const url = `${api}/audit-history?${query}`;
      const headers = await login(asMember);
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      const total = ((await res.json()) as { page: { totalElements: number } }).page.totalElements;
      const timing = await measure(() => fetch(url, { headers }), requests, 1, WARMUP);
      report(`${size} ${name}`, timing);
      results.push({ timing, total });
    }
    return results;
  };

  const before = await phase(label(SMALL));
  const large = await seed(models, world, tenantUid, otherUid, LARGE, 2, false);
  const after = await phase(label(LARGE));

  const rate = (s: Seeding) => (s.rows ? `${s.rows} rows in ${s.seconds.toFixed(1)} s (${Math.round(s.rows / s.seconds)} rows/s)` : 'nothing to add');
  console.log(`seeding (plus 1 row of another tenant per 50): to ${label(SMALL)} ${rate(small)}; to ${label(LARGE)} ${rate(large)}`);
  console.log(`fixed: resourceId ${resource.id} (${resource.type} ${resource.name}), actor ${actor.email}, resourceName ${named.name}`);
  const [s, l] = [label(SMALL), label(LARGE)];
  const col = (text: string, width = 10) => text.padStart(width);
  console.log(`${'query'.padEnd(24)}${col(`p50 ${s}`)}${col(`p95 ${s}`)}${col(`p50 ${l}`)}${col(`p95 ${l}`)}${col('ratio', 7)}${col(`total ${s}`, 12)}${col(`total ${l}`, 12)}  goal ≤ ${GOAL}`);
  queries.forEach(([name], i) => {
    const [b, a] = [before[i], after[i]];
    const ratio = percentile(a.timing, 0.5) / percentile(b.timing, 0.5);
    const ms = (t: Timing, p: number) => col(`${percentile(t, p).toFixed(1)} ms`);
    console.log(`${name.padEnd(24)}${ms(b.timing, 0.5)}${ms(b.timing, 0.95)}${ms(a.timing, 0.5)}${ms(a.timing, 0.95)}${col(ratio.toFixed(2), 7)}${col(String(b.total), 12)}${col(String(a.total), 12)}  ${ratio <= GOAL ? 'ok' : 'over'}`);
  });
}
