/**
 * The audit history of `npm run bench`: the bench tenant's history seeded straight into the database, topped up to
 * each size in turn, and the filtered history queries the bench times at each size (goal p50 at the largest ≤ 1.5 ×
 * at the smallest). The data comes from a seeded PRNG, so two runs with the same sizes seed the same history and
 * query the same actor.
 */
import { performance } from 'node:perf_hooks';
import type { Models } from '../models';
import { progress, settle, type Seeding } from './bench-seed';

// Big enough to amortise a round trip, small enough for MariaDB's default max_allowed_packet (~0.4 KB a row).
const BATCH = 5_000;
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

/** The actors and resources of all sizes: made from the largest alone, so a query means the same thing at each size. */
function makeWorld(largest: number) {
  const rnd = prng(20260101);
  const actors: Actor[] = FIRST.flatMap((f) => LAST.map((l) => ({ email: `${f}.${l.replace(' ', '')}@Bench.local`, name: `${f} ${l}` })));
  const total = KINDS.reduce((s, k) => s + k.weight, 0);
  const resources: Resource[] = Array.from({ length: Math.max(50, Math.round(largest / 500)) }, (_, i) => {
    let w = rnd() * total;
    const kind = KINDS.find((k) => (w -= k.weight) < 0) ?? KINDS[0];
    return { id: hex32(rnd), type: kind.type, name: kind.name(i, pick(rnd, DOMAINS)), actions: kind.actions };
  });
  return { actors, resources, actorHits: new Array<number>(actors.length).fill(0), resourceHits: new Array<number>(resources.length).fill(0) };
}
type World = ReturnType<typeof makeWorld>;

/** One audit_events row, by column name, with what writeAudit fills (the lowercase twins too; seq is the database's). */
function entry(rnd: () => number, world: World, tenantUid: string, tenant: string, at: number, tally: boolean) {
  const a = skewed(rnd, world.actors.length);
  const r = skewed(rnd, world.resources.length);
  if (tally) { world.actorHits[a] += 1; world.resourceHits[r] += 1; }
  const actor = world.actors[a];
  const resource = world.resources[r];
  return {
    uid: hex32(rnd), tenant_uid: tenantUid, tenant, timestamp: new Date(at),
    action: pick(rnd, resource.actions), actor: actor.email, actor_key: actor.email.toLowerCase(), actor_name: actor.name,
    resource_type: resource.type, resource_id: resource.id, resource_name: resource.name, resource_name_key: resource.name.toLowerCase(),
    details: JSON.stringify({ name: resource.name, revision: Math.floor(rnd() * 50), source: 'bench' }),
  };
}

/**
 * Brings the tenant to `target` entries over the last year, with one entry of the other tenant for every 50, in
 * time order as a live history is written (entries with random times in random order would spread a month's entries
 * over the whole table, a layout no running service makes: an index-only count then switched between the visibility
 * map's pages ~400 times for 1,041 entries at 1M). In multi-row INSERTs through the query interface (no model
 * instances: about 1.5 times bulkCreate's speed). Two INSERTs in flight keep both cores busy while the next batch
 * is built: about 1.5 times one at a time on PostgreSQL.
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
    // Entry k of todo at a random moment of its own 1/todo of the year: increasing, and before now.
    const at = (k: number) => now - YEAR_MS + Math.floor(((k + rnd()) * YEAR_MS) / todo);
    const rows = [];
    for (let i = 0; i < n; i++) {
      rows.push(entry(rnd, world, tenantUid, 'bench', at(done + i), tally));
      if (i % 50 === 0) rows.push(entry(rnd, world, otherUid, 'other', at(done + i), false));
    }
    if (writing.length === 2) await writing.shift();
    writing.push(qi.bulkInsert('audit_events', rows).then(() => bar((written += n))));
  }
  await Promise.all(writing);
  return { rows: todo, seconds: (performance.now() - started) / 1000 };
}

/** The index of the middle (q = 0.5) or the q-th busiest of the entries seeded with tallies. */
const busiest = (hits: number[], q: number): number => {
  const used = hits.map((h, i) => [h, i]).filter(([h]) => h > 0).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return used.length ? used[Math.min(used.length - 1, Math.floor(used.length * q))][1] : 0;
};

export interface AuditHistory {
  /** Tops the tenant's history up to `target` entries (plus one of another tenant per 50) and settles the table (see settle). */
  seedTo(target: number): Promise<Seeding>;
  /** The timed queries (after the first seedTo: the actor is a middling one of what it seeded), as `?query` strings. */
  queries(): { name: string; query: string }[];
}

export function auditHistory(models: Models, tenantUid: string, largest: number): AuditHistory {
  // A second tenant's entries share actors and resource ids, so a query that lost the tenant filter counts them.
  const otherUid = hex32(prng(7));
  const world = makeWorld(largest);
  let seedings = 0;
  return {
    async seedTo(target) {
      seedings += 1;
      const seeding = await seed(models, world, tenantUid, otherUid, target, seedings, seedings === 1);
      await settle(models, ['audit_events']);
      return seeding;
    },
    queries() {
      const actor = world.actors[busiest(world.actorHits, 0.5)];
      return [
        { name: 'action=UPDATED&resourceType=Topic&size=20', query: 'action=UPDATED&resourceType=Topic&size=20' },
        { name: 'actor=…&fromTimestamp=now-30d&size=20', query: `actor=${encodeURIComponent(actor.email)}&fromTimestamp=now-30d&size=20` },
      ];
    },
  };
}
