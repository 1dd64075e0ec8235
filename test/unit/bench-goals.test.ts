/**
 * How `npm run bench` judges the sizes (scripts/bench-goals.ts): each size is measured in several alternating
 * rounds and the best round of each size is compared; and where the smaller sizes' databases live
 * (scripts/bench-sizes.ts siblingUrl).
 */
import { describe, expect, it } from 'vitest';
import { goalsOf, setGrowthRatios } from '../../scripts/bench-goals';
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
