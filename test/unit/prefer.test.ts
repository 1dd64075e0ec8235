import { describe, expect, it } from 'vitest';
import { handlingOf, parsePrefer } from '../../server/prefer';

describe('the Prefer header (RFC 7240)', () => {
  it('reads several preferences, their values and parameters', () => {
    const prefs = parsePrefer('respond-async, wait=10, return=minimal; foo="a;b,c"; bar');
    expect([...prefs.keys()]).toEqual(['respond-async', 'wait', 'return']);
    expect(prefs.get('respond-async')).toEqual({ value: undefined, params: new Map() });
    expect(prefs.get('wait')?.value).toBe('10');
    expect(prefs.get('return')).toEqual({ value: 'minimal', params: new Map([['foo', 'a;b,c'], ['bar', undefined]]) });
  });

  it('matches names ignoring case, keeps the first occurrence, allows spaces around "="', () => {
    const prefs = parsePrefer('Handling = strict, HANDLING=lenient');
    expect(prefs.get('handling')?.value).toBe('strict');
  });

  it('reads quoted values with escapes, commas and semicolons inside', () => {
    expect(parsePrefer('x="a\\"b, c; d"').get('x')?.value).toBe('a"b, c; d');
    expect(parsePrefer('x="a\\\\", handling=strict').get('handling')?.value).toBe('strict');
  });

  it('treats an empty value as no value', () => {
    expect(parsePrefer('handling=').get('handling')?.value).toBeUndefined();
    expect(parsePrefer('handling=""').get('handling')?.value).toBeUndefined();
  });

  it('skips what does not parse and keeps the rest', () => {
    const prefs = parsePrefer(' , bad value, =x, "q"=1, y="unterminated, handling=strict');
    expect(prefs.has('bad value')).toBe(false);
    // The unterminated quote swallows the rest of the header: nothing after it is a preference.
    expect(prefs.has('handling')).toBe(false);
    expect(parsePrefer(',,handling=strict,,').get('handling')?.value).toBe('strict');
    expect(parsePrefer('handling=a b').has('handling')).toBe(false);
  });

  it('reads every header line when the header is repeated', () => {
    expect(parsePrefer(['return=minimal', 'handling=strict']).get('handling')?.value).toBe('strict');
    expect(parsePrefer(undefined).size).toBe(0);
  });
});

describe('the handling preference', () => {
  it.each([
    ['handling=strict', 'strict'],
    ['handling=lenient', 'lenient'],
    ['handling="strict"', 'strict'],
    ['HANDLING=STRICT', 'strict'],
    ['return=minimal, handling=strict', 'strict'],
    ['respond-async; handling=strict', undefined],
    ['handling=strict; foo=bar', 'strict'],
    ['handling=lenient, handling=strict', 'lenient'],
    ['handling=strictly', undefined],
    ['handling', undefined],
    ['strict', undefined],
    ['', undefined],
  ])('%j → %s', (header, expected) => {
    expect(handlingOf(header)).toBe(expected);
  });

  it('no header, no preference', () => {
    expect(handlingOf(undefined)).toBeUndefined();
  });
});
