import { describe, expect, it } from 'vitest';
import {
  changedFields, flagOf, FormRefusal, lines, listOf, offsetOf, only, optionalText, positionOf, textOf, wholeNumber,
} from '../../ui/src/forms/values';

describe('reading form values', () => {
  const values = { name: 'payments', empty: '  ', on: true, groups: ['a', 'b'] };

  it('reads text, lists and flags, and nothing of another kind', () => {
    expect(textOf(values, 'name')).toBe('payments');
    expect(textOf(values, 'on')).toBe('');
    expect(textOf(values, 'missing')).toBe('');
    expect(listOf(values, 'groups')).toEqual(['a', 'b']);
    expect(listOf(values, 'name')).toEqual([]);
    expect(flagOf(values, 'on')).toBe(true);
    expect(flagOf(values, 'name')).toBe(false);
  });

  it('sends an emptied optional field as null and keeps typed text exactly', () => {
    expect(optionalText(values, 'empty')).toBeNull();
    expect(optionalText(values, 'missing')).toBeNull();
    expect(optionalText({ d: ' two  spaces ' }, 'd')).toBe(' two  spaces ');
  });

  it('splits lines, trimmed, without empty ones', () => {
    expect(lines({ servers: ' a:9092\n\n b:9092 \r\n' }, 'servers')).toEqual(['a:9092', 'b:9092']);
    expect(lines({}, 'servers')).toEqual([]);
  });
});

describe('wholeNumber', () => {
  it.each([['12', 12], [' 7 ', 7], ['-1', -1], ['0', 0]])('reads %j as %d', (typed, expected) => {
    expect(wholeNumber({ n: typed }, 'n', 'Partitions')).toBe(expected);
  });

  it('leaves an empty field out', () => {
    expect(wholeNumber({ n: '' }, 'n', 'Partitions')).toBeUndefined();
    expect(wholeNumber({}, 'n', 'Partitions')).toBeUndefined();
  });

  it.each(['12a', '1.5', '1e3', '0x10', '99999999999999999999'])('refuses %j, naming the field, instead of altering it', (typed) => {
    let refusal: unknown;
    try {
      wholeNumber({ partitions: typed }, 'partitions', 'Partitions');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(FormRefusal);
    expect((refusal as FormRefusal).subErrors).toEqual([{ field: 'partitions', message: `Partitions must be a whole number; "${typed}" is not one` }]);
  });
});

describe('changedFields and only', () => {
  it('names exactly the fields whose value changed, lists by content', () => {
    const loaded = { name: 'a', viewers: ['x'], on: false, gone: 'g' };
    const now = { name: 'a', viewers: ['x', 'y'], on: true, added: 'n' };
    expect([...changedFields(loaded, now)].sort()).toEqual(['added', 'gone', 'on', 'viewers']);
    expect(changedFields(loaded, { ...loaded, viewers: ['x'] }).size).toBe(0);
  });

  it('keeps only the named keys, null values included', () => {
    expect(only({ a: 1, b: null, c: 'x' }, new Set(['b', 'c']))).toEqual({ b: null, c: 'x' });
    expect(only({ a: 1 }, new Set())).toEqual({});
  });
});

describe('where a parser says the text breaks', () => {
  it.each([
    ['line 3, column 12: invalid JSON: Unexpected token', { line: 3, column: 12 }],
    ['schema: line 2, column 1: unexpected', { line: 2, column: 1 }],
    ['line 4: illegal token', { line: 4, column: 1 }],
  ])('reads the position of %j', (message, at) => {
    expect(positionOf(message)).toEqual(at);
  });

  it.each(['/properties/id/type: must be string', 'no position here', 'the line 3, column 2: not at the start'])('finds none in %j', (message) => {
    expect(positionOf(message)).toBeUndefined();
  });

  it('turns a line and column into the offset an editor selects, clamped to the line and the text', () => {
    const text = 'ab\ncdef\ng';
    expect(offsetOf(text, { line: 1, column: 1 })).toBe(0);
    expect(offsetOf(text, { line: 2, column: 3 })).toBe(5);
    expect(text[offsetOf(text, { line: 2, column: 3 })]).toBe('e');
    expect(offsetOf(text, { line: 2, column: 99 })).toBe(7);
    expect(offsetOf(text, { line: 3, column: 1 })).toBe(8);
    expect(offsetOf(text, { line: 9, column: 1 })).toBe(text.length);
  });
});
