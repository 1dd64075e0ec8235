import { describe, expect, it } from 'vitest';
import { containsPattern } from '../../core/rules/name-search';

describe('containsPattern', () => {
  it('lower-cases and wraps the text', () => {
    expect(containsPattern('Payments')).toBe('%payments%');
  });

  it.each([
    ['a_b', '%a\\_b%'],
    ['50%', '%50\\%%'],
    ['back\\slash', '%back\\\\slash%'],
    ['%_\\', '%\\%\\_\\\\%'],
  ])('escapes what LIKE would read as a wildcard or an escape: %s', (text, pattern) => {
    expect(containsPattern(text)).toBe(pattern);
  });

  it('keeps every other character as it is', () => {
    expect(containsPattern('orders.v2-eu')).toBe('%orders.v2-eu%');
  });
});
