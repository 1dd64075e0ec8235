import { describe, expect, it } from 'vitest';
import { countText } from '../../ui/src/format';

const links = (...rels: string[]) => Object.fromEntries(rels.map((r) => [r, { href: r }]));

describe('countText: a total as the API counted it', () => {
  it('shows an exact total as it is', () => {
    expect(countText({ totalElements: 0 }, links('self'))).toBe('0');
    expect(countText({ totalElements: 7 }, links('self'))).toBe('7');
    expect(countText({ totalElements: 1234 }, links('self', 'next', 'first', 'last'))).toBe('1,234');
    expect(countText({ totalElements: 5 }, undefined)).toBe('5');
  });

  it('shows a bounded count (a next page but no last) as a lower bound, rounded down, never as the total', () => {
    expect(countText({ totalElements: 1021 }, links('self', 'next', 'first'))).toBe('1,000+');
    expect(countText({ totalElements: 1002 }, links('self', 'next'))).toBe('1,000+');
    expect(countText({ totalElements: 2540 }, links('self', 'next'))).toBe('2,500+');
    expect(countText({ totalElements: 45 }, links('self', 'next'))).toBe('45+');
  });
});
