/**
 * How `npm run bench` judges the sizes (scripts/bench-goals.ts): each size is measured in several alternating
 * rounds and the best round of each size is compared; how it judges a write against its bare twin (the median of
 * the alternating pairs); and where the smaller sizes' databases live (scripts/bench-sizes.ts siblingUrl).
 */
import { describe, expect, it } from 'vitest';
import { goalsOf, setGrowthRatios, writeGoals } from '../../scripts/bench-goals';
import { median, pairNote, type Pair } from '../../scripts/bench-pairs';
import type { Row } from '../../scripts/bench-run';
import { siblingUrl } from '../../scripts/bench-sizes';

const row = (scenario: string, size: string, p50: number, rps = 100): Row => ({ scenario, size, rps, p50, p99: p50 * 2, errors: 0, rss: { tree: 150, largest: 150 }, statuses: {} });
const LIST = 'GET /api/streams?page=0&size=20&sort=name,asc';

/** Three rounds over 1k, 100k, 1M, in the order the bench runs them. */
function rounds(p50s: Record<string, number[]>): Row[] {
  const rows: Row[] = [];
  for (let r = 0; r < 3; r++) for (const [size, values] of Object.entries(p50s)) rows.push(row(LIST, size, values[r]));
  return rows;
}

function judge(rows: Row[], limit = 1.3) {
  const outcome = {
    rows, item: { bare: 1000, ours: 700 }, growing: [{ scenarios: [LIST], limit }], asyncapiAlone: row('asyncapi', '1M', 2),
    cold: { info: 2000, token: 2100, user: 2200, tokenAtOnce: true, earlyAnswers: [] }, starts: [], rss: 180,
  };
  setGrowthRatios(rows, [LIST]);
  return goalsOf(outcome).find((g) => g.name.startsWith(LIST))!;
}

describe('growth of a size-dependent scenario', () => {
  it('compares the best round of the largest size with the best of the smallest, not the first or last rows', () => {
    // One slow round at 1k (the machine busy) must not make 1M look flat; nor one slow round at 1M make it grow.
    const rows = rounds({ '1k': [150, 90, 100], '100k': [95, 92, 99], '1M': [200, 110, 108] });
    const goal = judge(rows);
    expect(goal.value).toBe('108.0 ÷ 90.0 ms = 1.20');
    expect(goal.met).toBe(true);
    expect(goal.name).toContain('1M÷1k');
  });

  it('is not met when even the best round of the largest size grows past the limit', () => {
    const goal = judge(rounds({ '1k': [100, 100, 100], '100k': [110, 110, 110], '1M': [140, 131, 135] }));
    expect(goal.value).toBe('131.0 ÷ 100.0 ms = 1.31');
    expect(goal.met).toBe(false);
  });

  it('gives every row its ratio to the best p50 of the smallest size', () => {
    const rows = rounds({ '1k': [120, 80, 100], '100k': [80, 80, 80], '1M': [100, 100, 160] });
    judge(rows);
    expect(rows.map((r) => r.ratio)).toEqual([1.5, 1, 1.25, 1, 1, 1.25, 1.25, 1, 2]);
  });

  it('a scenario measured at one size only has no growth goal', () => {
    const rows = [row(LIST, '1M', 100), row(LIST, '1M', 90)];
    setGrowthRatios(rows, [LIST]);
    const outcome = {
      rows, item: { bare: 1000, ours: 700 }, growing: [{ scenarios: [LIST], limit: 1.3 }], asyncapiAlone: row('asyncapi', '1M', 2),
      cold: { info: 2000, token: 2100, user: 2200, tokenAtOnce: true, earlyAnswers: [] }, starts: [], rss: 180,
    };
    expect(goalsOf(outcome).some((g) => g.name.startsWith(LIST))).toBe(false);
  });
});

describe('a write against its bare twin', () => {
  const POST = 'POST /api/clusters';
  /** A pair: bare then ours, req/s and p99 of each. */
  const pair = (bare: [number, number], ours: [number, number]): Pair => ({
    bare: { ...row('POST /clusters bare', '1k', 10, bare[0]), p99: bare[1] }, ours: { ...row(POST, '1k', 10, ours[0]), p99: ours[1] },
  });
  const goals = (pairs: Pair[]) => writeGoals({ scenario: POST, connections: 32, pairs });

  it('judges the median of the pairs, so one disturbed pair neither meets nor fails the goal', () => {
    // The middle pair ran while the machine was busy for bare only: its ratio is the outlier.
    const [rps, p99] = goals([pair([500, 100], [300, 150]), pair([200, 400], [300, 150]), pair([500, 100], [350, 210])]);
    expect(rps).toEqual({ name: `${POST} req/s ours÷bare ≥ 0.66 (median of 3 pairs, c=32)`, value: '0.70 (pairs 0.60, 1.50, 0.70)', met: true });
    expect(p99).toEqual({ name: `${POST} p99 ours ≤ 2 × bare's (median of 3 pairs, c=32)`, value: '1.50 × (pairs 1.50, 0.38, 2.10)', met: true });
  });

  it('is not met below two thirds of bare\'s req/s, nor past twice its p99', () => {
    const [rps, p99] = goals([pair([500, 100], [170, 350]), pair([510, 110], [180, 330]), pair([490, 100], [175, 404])]);
    expect(rps.met).toBe(false);
    expect(rps.value).toMatch(/^0\.35 /);
    expect(p99.met).toBe(false);
    expect(p99.value).toMatch(/^3\.50 ×/);
  });

  it('meets each goal exactly at its limit', () => {
    const [rps, p99] = goals([pair([300, 100], [198, 200])]);
    expect([rps.met, p99.met]).toEqual([true, true]);
    expect(rps.name).toContain('median of 1 pair,');
  });

  it('says there was no baseline where no bare twin ran (not PostgreSQL)', () => {
    expect(goals([]).map((g) => [g.value, g.met])).toEqual([['no bare baseline on this database', null], ['no bare baseline on this database', null]]);
  });

  it('lists every write scenario\'s two goals after the others', () => {
    const outcome = {
      rows: [], item: { bare: 1000, ours: 700 }, growing: [], asyncapiAlone: row('asyncapi', '1M', 2),
      cold: { info: 2000, token: 2100, user: 2200, tokenAtOnce: true, earlyAnswers: [] }, starts: [], rss: 180,
      writes: [{ scenario: POST, connections: 32, pairs: [pair([500, 100], [400, 150])] }, { scenario: 'PATCH /api/streams/{uid}', connections: 32, pairs: [] }],
    };
    const names = goalsOf(outcome).map((g) => g.name);
    expect(names.slice(-4).map((n) => n.split(' ').slice(0, 3).join(' '))).toEqual([
      `${POST} req/s`, `${POST} p99`, 'PATCH /api/streams/{uid} req/s', 'PATCH /api/streams/{uid} p99',
    ]);
  });

  it('leads with the item reads at npm start\'s defaults: the median pair, a cluster against 0.94, a stream against 0.66, none without a baseline', () => {
    const base = {
      rows: [], item: { bare: 1000, ours: 700 }, growing: [], asyncapiAlone: row('asyncapi', '1M', 2),
      cold: { info: 2000, token: 2100, user: 2200, tokenAtOnce: true, earlyAnswers: [] }, starts: [], rss: 180,
    };
    const [clusters, streams] = goalsOf({ ...base, defaults: { clusters: { pairs: [0.9, 1.02, 0.97] }, streams: { pairs: [0.65, 0.67] } } });
    expect(clusters.name).toMatch(/^GET \/clusters\/\{uid\} at npm start's defaults: req\/s ours÷bare ≥ 0\.94 \(median of 3 pairs\)/);
    expect([clusters.value, clusters.met]).toEqual(['0.97 (pairs 0.90, 1.02, 0.97)', true]);
    expect(streams.name).toMatch(/^GET \/streams\/\{uid\} at npm start's defaults: req\/s ours÷bare ≥ 0\.66 \(median of 2 pairs\)/);
    expect([streams.value, streams.met]).toEqual(['0.66 (pairs 0.65, 0.67)', true]);
    const [under] = goalsOf({ ...base, defaults: { clusters: { pairs: [0.93, 0.92, 0.99] }, streams: { pairs: [] } } });
    expect(under.met).toBe(false);
    expect(goalsOf({ ...base, defaults: { clusters: { pairs: [] }, streams: { pairs: [] } } })[1].met).toBeNull();
    expect(goalsOf(base)[0].name).toMatch(/^GET item req\/s ours÷bare ≥ 0\.66/);
  });

  it('notes each pair\'s ratios in the order run, with their medians', () => {
    expect(pairNote(POST, [pair([500, 100], [300, 150]), pair([400, 100], [400, 100])]))
      .toBe(`${POST} ours÷bare per pair: req/s 0.60, 1.00 (median 0.80); p99 1.50, 1.00 (median 1.25)`);
    expect([median([3, 1, 2]), median([4, 1, 3, 2]), median([])]).toEqual([2, 2.5, NaN]);
  });
});

describe('siblingUrl: a database beside the bench\'s on the same server', () => {
  it('appends the suffix to the database name and keeps credentials, host, port and options', () => {
    expect(siblingUrl('postgres://platform:s3cret@127.0.0.1:5432/bench?sslmode=disable', 'streams_1000'))
      .toBe('postgres://platform:s3cret@127.0.0.1:5432/bench_streams_1000?sslmode=disable');
    expect(siblingUrl('mariadb://root@localhost:3306/pms', 'audit_10000')).toBe('mariadb://root@localhost:3306/pms_audit_10000');
  });

  it('refuses a URL that names no database', () => {
    expect(() => siblingUrl('postgres://u:p@localhost:5432/', 'streams_1000')).toThrow(/names no database/);
  });
});
