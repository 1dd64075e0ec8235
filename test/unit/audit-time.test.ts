/** Time bounds of audit queries (core/rules/audit-time.ts, docs/contract.md §8): every accepted form, and what is refused. */
import { describe, expect, it } from 'vitest';
import { parseTimeBound } from '../../core/rules/audit-time';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0, 0); // 2026-11-23T12:00:00.000Z
const at = (iso: string) => Date.parse(iso);

describe('parseTimeBound', () => {
  it.each([
    ['0', 0],
    ['1700000000000', 1700000000000],
    [' 1700000000000 ', 1700000000000],
    ['now', NOW],
    ['NOW', NOW],
    ['now-15m', NOW - 15 * 60_000],
    ['now-24h', NOW - 24 * 3_600_000],
    ['now-7d', NOW - 7 * 86_400_000],
    ['now-2w', NOW - 14 * 86_400_000],
    ['now-30s', NOW - 30_000],
    ['now-0d', NOW],
    ['P7D', NOW - 7 * 86_400_000],
    ['PT1H', NOW - 3_600_000],
    ['PT90M', NOW - 90 * 60_000],
    ['PT1.5S', NOW - 1_500],
    ['PT0,25S', NOW - 250],
    ['P1W', NOW - 7 * 86_400_000],
    ['P1DT2H3M4S', NOW - 86_400_000 - 2 * 3_600_000 - 3 * 60_000 - 4_000],
    ['p1d', NOW - 86_400_000],
    ['P1M', at('2026-10-23T12:00:00Z')],
    ['P1Y', at('2025-11-23T12:00:00Z')],
    ['P1Y2M', at('2025-09-23T12:00:00Z')],
    ['P12M', at('2025-11-23T12:00:00Z')],
    ['2026-11-01T00:00:00Z', at('2026-11-01T00:00:00Z')],
    ['2026-11-01T01:00:00+01:00', at('2026-11-01T00:00:00Z')],
    ['2026-11-01T00:00:00.123Z', at('2026-11-01T00:00:00.123Z')],
    ['2026-11-01T00:00Z', at('2026-11-01T00:00:00Z')],
  ])('%j', (text, expected) => {
    expect(parseTimeBound(text, NOW)).toBe(expected);
  });

  it('a month back from the 31st ends on the last day of the shorter month', () => {
    expect(parseTimeBound('P1M', Date.UTC(2026, 2, 31, 8))).toBe(Date.UTC(2026, 1, 28, 8));
    expect(parseTimeBound('P1M', Date.UTC(2024, 2, 31, 8))).toBe(Date.UTC(2024, 1, 29, 8));
    expect(parseTimeBound('P3M', Date.UTC(2026, 0, 15))).toBe(Date.UTC(2025, 9, 15));
  });

  it.each([
    '', ' ', 'yesterday', 'now+1d', 'now-1', 'now-1y', 'now-d', 'now - 1d', 'now-1.5h', '-1', '1.5', '1e12', '0x10',
    'P', 'PT', 'P1DT', 'P1H', 'PT1D', 'P-1D', 'P1.5D', '7D', 'T1H', 'P1D2H',
    '12345678901234567', '99999999999999999999', '2026-11-01', '2026-11-01T00:00:00', '2026-13-01T00:00:00Z', '2026-11-01 00:00:00Z',
    'P999999Y', 'now-999999999w',
  ])('refuses %j', (text) => {
    expect(parseTimeBound(text, NOW)).toBeNull();
  });
});
