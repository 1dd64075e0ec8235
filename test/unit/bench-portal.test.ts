import { describe, expect, it } from 'vitest';
import { waterfallDepth } from '../../scripts/bench-portal';

describe('waterfallDepth: the longest chain of requests that waited on one another', () => {
  it('is 0 without requests and 1 when every request went out at once', () => {
    expect(waterfallDepth([])).toBe(0);
    expect(waterfallDepth([{ start: 0, end: 30 }, { start: 1, end: 20 }, { start: 2, end: 45 }])).toBe(1);
  });

  it('counts a second wave that started after an answer of the first', () => {
    expect(waterfallDepth([{ start: 0, end: 30 }, { start: 1, end: 10 }, { start: 12, end: 40 }])).toBe(2);
  });

  it('follows the longest chain, whatever order the entries come in', () => {
    const chain = [{ start: 50, end: 60 }, { start: 0, end: 10 }, { start: 20, end: 30 }, { start: 25, end: 70 }, { start: 11, end: 19 }];
    // 0–10 → 11–19 → 20–30 → 50–60: four in sequence; 25–70 overlaps 20–30 and ends a chain of three.
    expect(waterfallDepth(chain)).toBe(4);
  });

  it('takes a request that starts exactly as another ends as waiting on it', () => {
    expect(waterfallDepth([{ start: 0, end: 10 }, { start: 10, end: 20 }])).toBe(2);
  });
});
