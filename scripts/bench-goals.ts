/** The ratios of the size-dependent rows and the goals of issues 15 and 34, judged from a finished run. */
import { median, pairRatios, type WriteOutcome } from './bench-pairs';
import type { Row } from './bench-run';
import type { ColdStart } from './bench-service';
import type { Goal } from './bench-table';

/**
 * The best (lowest) p50 of a scenario at each of its sizes, smallest size first. Each size is measured in several
 * rounds, the sizes alternating; the best round of each is compared, as for the item reads.
 */
function bestBySize(rows: Row[], scenario: string): Row[] {
  const best = new Map<string, Row>();
  for (const r of rows) if (r.scenario === scenario && (!best.has(r.size) || r.p50 < best.get(r.size)!.p50)) best.set(r.size, r);
  return [...best.values()];
}

/** Each row of these scenarios: p50 ÷ the best p50 of the scenario's first (smallest) size. */
export function setGrowthRatios(rows: Row[], scenarios: string[]): void {
  for (const scenario of scenarios) {
    const [smallest] = bestBySize(rows, scenario);
    for (const r of rows) if (r.scenario === scenario) r.ratio = r.p50 / smallest.p50;
  }
}

function growth(rows: Row[], scenario: string, limit: number): Goal {
  const of = bestBySize(rows, scenario);
  const [a, b] = [of[0], of[of.length - 1]];
  return { name: `${scenario} p50 ${b.size}÷${a.size} ≤ ${limit} (best round of each)`, value: `${b.p50.toFixed(1)} ÷ ${a.p50.toFixed(1)} ms = ${(b.p50 / a.p50).toFixed(2)}`, met: b.p50 / a.p50 <= limit };
}

export interface Outcome {
  rows: Row[];
  /** Best req/s of bare and of ours GET item with WORKERS=1; bare 0 when there was no baseline. */
  item: { bare: number; ours: number };
  /** GET item of a stream and of a cluster with the service at npm start's defaults: each pair's ours÷bare. */
  defaults?: { streams: { pairs: number[] }; clusters: { pairs: number[] } };
  /** Scenarios measured at more than one size, by the growth they may show. */
  growing: { scenarios: string[]; limit: number }[];
  asyncapiAlone: Row;
  /** The measured (second) start, and all of them. */
  cold: ColdStart;
  starts: ColdStart[];
  /** The largest API process-tree RSS with WORKERS=1, MiB; null without /proc. */
  rss: number | null;
  /** The write scenarios' pairs with their bare twin; none on a database without one. */
  writes?: WriteOutcome[];
}

/** A write keeps up with its bare twin: req/s ours÷bare ≥ 0.66 and p99 ours÷bare ≤ 2, each the median of the pairs. */
export function writeGoals(w: WriteOutcome): Goal[] {
  const of = `median of ${w.pairs.length} pair${w.pairs.length === 1 ? '' : 's'}, c=${w.connections}`;
  if (w.pairs.length === 0) {
    const none = { value: 'no bare baseline on this database', met: null };
    return [{ name: `${w.scenario} req/s ours÷bare ≥ 0.66`, ...none }, { name: `${w.scenario} p99 ours ≤ 2 × bare's`, ...none }];
  }
  const r = pairRatios(w.pairs);
  const [rps, p99] = [median(r.rps), median(r.p99)];
  const pairs = (xs: number[]) => `pairs ${xs.map((x) => x.toFixed(2)).join(', ')}`;
  return [
    { name: `${w.scenario} req/s ours÷bare ≥ 0.66 (${of})`, value: `${rps.toFixed(2)} (${pairs(r.rps)})`, met: rps >= 0.66 },
    { name: `${w.scenario} p99 ours ≤ 2 × bare's (${of})`, value: `${p99.toFixed(2)} × (${pairs(r.p99)})`, met: p99 <= 2 },
  ];
}

export function goalsOf(o: Outcome): Goal[] {
  const ratio = o.item.ours / o.item.bare;
  const mb = o.rss === null ? null : o.rss * 1.048576;
  return [
    ...(o.defaults ? defaultsGoals(o.defaults) : []),
    {
      name: 'GET item req/s ours÷bare ≥ 0.66 (best run of each, WORKERS=1)',
      value: o.item.bare ? `${Math.round(o.item.ours)} ÷ ${Math.round(o.item.bare)} = ${ratio.toFixed(2)}` : 'no bare baseline on this database', met: o.item.bare ? ratio >= 0.66 : null,
    },
    ...o.growing.flatMap((g) => g.scenarios.filter((s) => bestBySize(o.rows, s).length > 1).map((s) => growth(o.rows, s, g.limit))),
    { name: 'AsyncAPI c=1 p50 ≤ 5 ms', value: `${o.asyncapiAlone.p50.toFixed(2)} ms`, met: o.asyncapiAlone.p50 <= 5 },
    { name: 'cold start ≤ 10 s (second start, spawn to first authenticated 200)', value: `${(o.cold.user / 1000).toFixed(2)} s`, met: o.cold.user <= 10_000 },
    { name: 'a token at the first 200 of /api/info', value: o.starts.every((c) => c.tokenAtOnce) ? 'on every start' : 'not on every start', met: o.starts.every((c) => c.tokenAtOnce) },
    { name: 'RSS ≤ 200 MB (max over the API process tree, WORKERS=1)', value: mb === null ? 'no /proc' : `${mb.toFixed(0)} MB (${o.rss!.toFixed(0)} MiB)`, met: mb === null ? null : mb <= 200 },
    ...(o.writes ?? []).flatMap(writeGoals),
  ];
}

/**
 * Issue 41's headline: the item read of a resource without associations (the issue's own measure, a cluster) with
 * the service at npm start's defaults keeps up with the bare twin: ≥ 0.94 of its req/s (the level before metrics,
 * traces and the request line came), the median of the pairs. A stream's item (its owners embedded, its links
 * decided) is listed beside it, with the WORKERS=1 bound of issue 15.
 */
export function defaultsGoals(d: NonNullable<Outcome['defaults']>): Goal[] {
  return ([['clusters', 0.94], ['streams', 0.66]] as const).map(([kind, bound]) => {
    const pairs = d[kind].pairs;
    const name = `GET /${kind}/{uid} at npm start's defaults: req/s ours÷bare ≥ ${bound} (median of ${pairs.length} pairs)`;
    if (pairs.length === 0) return { name, value: 'no bare baseline on this database', met: null };
    const m = median(pairs);
    return { name, value: `${m.toFixed(2)} (pairs ${pairs.map((x) => x.toFixed(2)).join(', ')})`, met: m >= bound };
  });
}

/** Issue 34's import goal: topics per second of the second run (which finds everything) ÷ the first's. */
export function importGoal(o: { first: number; second: number }): Goal {
  const ratio = o.second / o.first;
  return { name: 'import: idempotent second run ≥ 5× faster than the first (topics/s)', value: `${Math.round(o.second)} ÷ ${Math.round(o.first)} = ${ratio.toFixed(2)}`, met: ratio >= 5 };
}
