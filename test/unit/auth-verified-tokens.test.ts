import { describe, expect, it } from 'vitest';
import { createVerifiedTokenCache } from '../../auth/verified-tokens';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}

describe('verified-token cache', () => {
  it('answers a remembered token until it expires', () => {
    const c = clock();
    const cache = createVerifiedTokenCache<string>({ now: c.now, maxAgeMs: 60_000 });
    cache.set('a', 'claims-a', c.now() + 10_000);
    expect(cache.get('a')).toBe('claims-a');
    c.advance(9_999);
    expect(cache.get('a')).toBe('claims-a');
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets a long-lived token after maxAgeMs, so it is verified again', () => {
    const c = clock();
    const cache = createVerifiedTokenCache<string>({ now: c.now, maxAgeMs: 30_000 });
    cache.set('a', 'claims-a', c.now() + 3_600_000);
    c.advance(29_999);
    expect(cache.get('a')).toBe('claims-a');
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not remember a token that has already expired', () => {
    const c = clock();
    const cache = createVerifiedTokenCache<string>({ now: c.now });
    cache.set('a', 'claims-a', c.now());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never holds more than maxEntries, dropping the oldest first', () => {
    const c = clock();
    const cache = createVerifiedTokenCache<number>({ now: c.now, maxEntries: 3 });
    for (let i = 0; i < 5; i++) cache.set(`t${i}`, i, c.now() + 10_000);
    expect(cache.size).toBe(3);
    expect(cache.get('t0')).toBeUndefined();
    expect(cache.get('t1')).toBeUndefined();
    expect([cache.get('t2'), cache.get('t3'), cache.get('t4')]).toEqual([2, 3, 4]);
  });

  it('setting a token again renews its place and its value', () => {
    const c = clock();
    const cache = createVerifiedTokenCache<number>({ now: c.now, maxEntries: 2 });
    cache.set('a', 1, c.now() + 10_000);
    cache.set('b', 2, c.now() + 10_000);
    cache.set('a', 3, c.now() + 10_000);
    cache.set('c', 4, c.now() + 10_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(3);
    expect(cache.get('c')).toBe(4);
  });
});
