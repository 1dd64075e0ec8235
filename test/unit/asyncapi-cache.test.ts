/**
 * DocumentCache (docs/contract.md §9: a cache is fine if every change invalidates it): a hit needs the same stamp, so any
 * change of the rows a document is made of is a miss; least recently used texts go first once the character
 * budget is exceeded.
 */
import { describe, expect, it } from 'vitest';
import { DocumentCache } from '../../asyncapi/cache';

const text = (n: number, c = 'x') => c.repeat(n);

describe('DocumentCache: stamps', () => {
  it('an empty cache misses', () => {
    expect(new DocumentCache(100).get('a', 's1')).toBeUndefined();
  });

  it('hits with the same key and stamp', () => {
    const cache = new DocumentCache(100);
    cache.set('a', 's1', 'doc a');
    expect(cache.get('a', 's1')).toBe('doc a');
    expect(cache.get('a', 's1')).toBe('doc a');
  });

  it('a changed stamp misses, and so does another key', () => {
    const cache = new DocumentCache(100);
    cache.set('a', 'uid:1:2026-01-01', 'doc a');
    expect(cache.get('a', 'uid:2:2026-01-01')).toBeUndefined();
    expect(cache.get('a', '')).toBeUndefined();
    expect(cache.get('b', 'uid:1:2026-01-01')).toBeUndefined();
  });

  it('after a miss on a new stamp, the new document replaces the old one', () => {
    const cache = new DocumentCache(100);
    cache.set('a', 's1', 'old');
    expect(cache.get('a', 's2')).toBeUndefined();
    cache.set('a', 's2', 'new');
    expect(cache.get('a', 's2')).toBe('new');
    expect(cache.get('a', 's1')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('an empty text is a hit, not a miss', () => {
    const cache = new DocumentCache(10);
    cache.set('a', 's', '');
    expect(cache.get('a', 's')).toBe('');
  });
});

describe('DocumentCache: character budget', () => {
  it('keeps entries while their texts fit the budget exactly', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10));
    cache.set('b', 's', text(10));
    cache.set('c', 's', text(10));
    expect(cache.size).toBe(3);
    for (const k of ['a', 'b', 'c']) expect(cache.get(k, 's')).toBe(text(10));
  });

  it('evicts the least recently set entry first when over budget', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10, 'a'));
    cache.set('b', 's', text(10, 'b'));
    cache.set('c', 's', text(10, 'c'));
    cache.set('d', 's', text(10, 'd'));
    expect(cache.get('a', 's')).toBeUndefined();
    expect(cache.get('b', 's')).toBe(text(10, 'b'));
    expect(cache.get('c', 's')).toBe(text(10, 'c'));
    expect(cache.get('d', 's')).toBe(text(10, 'd'));
    expect(cache.size).toBe(3);
  });

  it('a recently read entry survives; the least recently used goes', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10, 'a'));
    cache.set('b', 's', text(10, 'b'));
    cache.set('c', 's', text(10, 'c'));
    expect(cache.get('a', 's')).toBe(text(10, 'a'));
    cache.set('d', 's', text(10, 'd'));
    expect(cache.get('a', 's')).toBe(text(10, 'a'));
    expect(cache.get('b', 's')).toBeUndefined();
    expect(cache.get('c', 's')).toBe(text(10, 'c'));
    expect(cache.get('d', 's')).toBe(text(10, 'd'));
  });

  it('a read with a stale stamp does not count as a use', () => {
    const cache = new DocumentCache(20);
    cache.set('a', 's1', text(10, 'a'));
    cache.set('b', 's1', text(10, 'b'));
    expect(cache.get('a', 'stale')).toBeUndefined();
    cache.set('c', 's1', text(10, 'c'));
    expect(cache.get('a', 's1')).toBeUndefined();
    expect(cache.get('b', 's1')).toBe(text(10, 'b'));
  });

  it('evicts as many old entries as a large new text needs', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10));
    cache.set('b', 's', text(10));
    cache.set('c', 's', text(10));
    cache.set('big', 's', text(25));
    expect(cache.size).toBe(1);
    expect(cache.get('big', 's')).toBe(text(25));
    for (const k of ['a', 'b', 'c']) expect(cache.get(k, 's')).toBeUndefined();
  });

  it('a text larger than the whole budget is not kept, and evicts nothing', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10));
    cache.set('huge', 's', text(31));
    expect(cache.get('huge', 's')).toBeUndefined();
    expect(cache.get('a', 's')).toBe(text(10));
    expect(cache.size).toBe(1);
  });

  it('a too large replacement drops the old entry of that key (never serves the stale text)', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's1', text(10));
    cache.set('a', 's2', text(31));
    expect(cache.get('a', 's1')).toBeUndefined();
    expect(cache.get('a', 's2')).toBeUndefined();
    expect(cache.size).toBe(0);
    // Its characters were released: three 10-character texts fit again.
    cache.set('b', 's', text(10));
    cache.set('c', 's', text(10));
    cache.set('d', 's', text(10));
    expect(cache.size).toBe(3);
  });

  it('replacing an entry adjusts the size: a shrunk entry frees room', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(20));
    cache.set('a', 's2', text(5));
    cache.set('b', 's', text(25));
    expect(cache.get('a', 's2')).toBe(text(5));
    expect(cache.get('b', 's')).toBe(text(25));
    expect(cache.size).toBe(2);
  });

  it('replacing an entry adjusts the size: a grown entry pushes out the oldest other', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10, 'a'));
    cache.set('b', 's', text(10, 'b'));
    cache.set('b', 's2', text(20, 'b'));
    expect(cache.size).toBe(2);
    cache.set('b', 's3', text(25, 'b'));
    expect(cache.get('a', 's')).toBeUndefined();
    expect(cache.get('b', 's3')).toBe(text(25, 'b'));
    expect(cache.size).toBe(1);
  });

  it('replacing the same key many times never leaks budget', () => {
    const cache = new DocumentCache(100);
    for (let i = 0; i < 1000; i += 1) cache.set('a', `s${i}`, text(50));
    cache.set('b', 's', text(50));
    expect(cache.size).toBe(2);
    expect(cache.get('a', 's999')).toBe(text(50));
    expect(cache.get('b', 's')).toBe(text(50));
  });

  it('replacing an entry makes it the most recently used', () => {
    const cache = new DocumentCache(30);
    cache.set('a', 's', text(10, 'a'));
    cache.set('b', 's', text(10, 'b'));
    cache.set('c', 's', text(10, 'c'));
    cache.set('a', 's2', text(10, 'A'));
    cache.set('d', 's', text(10, 'd'));
    expect(cache.get('a', 's2')).toBe(text(10, 'A'));
    expect(cache.get('b', 's')).toBeUndefined();
  });
});
