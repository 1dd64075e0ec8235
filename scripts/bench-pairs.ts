/**
 * Runs that alternate, bare then ours: each pair's two runs come from one moment of the machine, so a pair's ratio
 * is steadier than the ratio of two best runs that may come from different moments.
 */
import type { Row } from './bench-run';

export interface Pair { bare: Row; ours: Row }

/** A write scenario's pairs at `connections` (none where there is no bare twin). */
export interface WriteOutcome { scenario: string; connections: number; pairs: Pair[] }

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface PairRatios {
  /** ours req/s ÷ bare req/s, per pair in the order run. */
  rps: number[];
  /** ours p99 ÷ bare p99, per pair in the order run. */
  p99: number[];
}

export function pairRatios(pairs: Pair[]): PairRatios {
  return { rps: pairs.map((p) => p.ours.rps / p.bare.rps), p99: pairs.map((p) => p.ours.p99 / p.bare.p99) };
}

/** One line of the notes: the per-pair ratios and their medians. */
export function pairNote(scenario: string, pairs: Pair[]): string {
  const r = pairRatios(pairs);
  const list = (xs: number[]) => `${xs.map((x) => x.toFixed(2)).join(', ')} (median ${median(xs).toFixed(2)})`;
  return `${scenario} ours÷bare per pair: req/s ${list(r.rps)}; p99 ${list(r.p99)}`;
}
