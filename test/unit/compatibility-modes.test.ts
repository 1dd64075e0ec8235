import { describe, expect, it } from 'vitest';
import { COMPATIBILITY_MODES, isCompatibilityMode, modeProblems, type Incompatibility } from '../../schema-formats/compatibility-modes';

/** A toy format: a schema is a set of field names; a reader needs every field it names to be written. */
const readProblems = (reader: string[], writer: string[]): Incompatibility[] =>
  reader.filter((f) => !writer.includes(f)).map((f) => ({ path: f, rule: 'FIELD_MISSING', message: `${f} is not written` }));
const versions = [{ label: '1', schema: ['a'] }, { label: '2', schema: ['a', 'b'] }];
const judge = (mode: (typeof COMPATIBILITY_MODES)[number], candidate: string[]) =>
  modeProblems(mode, candidate, versions, readProblems).map((p) => `${p.direction} ${p.against}: ${p.path}`);

describe('modeProblems', () => {
  it.each([
    // candidate [a, b, c]: reads nothing that has c; is read by every earlier version (they need a subset).
    ['BACKWARD', ['a', 'b', 'c'], ['reads 2: c']],
    ['BACKWARD_TRANSITIVE', ['a', 'b', 'c'], ['reads 2: c', 'reads 1: b', 'reads 1: c']],
    ['FORWARD', ['a', 'b', 'c'], []],
    ['FORWARD_TRANSITIVE', ['a', 'b', 'c'], []],
    ['FULL', ['a', 'b', 'c'], ['reads 2: c']],
    ['FULL_TRANSITIVE', ['a', 'b', 'c'], ['reads 2: c', 'reads 1: b', 'reads 1: c']],
    ['NONE', ['a', 'b', 'c'], []],
    // candidate [] (fields removed): reads everything; version 2 cannot read it, version 1 cannot either.
    ['BACKWARD', [], []],
    ['FORWARD', [], ['read by 2: a', 'read by 2: b']],
    ['FORWARD_TRANSITIVE', [], ['read by 2: a', 'read by 2: b', 'read by 1: a']],
    ['FULL', [], ['read by 2: a', 'read by 2: b']],
  ] as const)('%s with %j → %j', (mode, candidate, expected) => {
    expect(judge(mode, [...candidate])).toEqual(expected);
  });

  it('judges nothing without an earlier version', () => {
    expect(modeProblems('FULL_TRANSITIVE', ['x'], [], readProblems)).toEqual([]);
  });

  it('knows exactly the seven modes of Confluent Schema Registry', () => {
    expect(COMPATIBILITY_MODES).toHaveLength(7);
    expect(isCompatibilityMode('FULL_TRANSITIVE')).toBe(true);
    expect(isCompatibilityMode('full')).toBe(false);
    expect(isCompatibilityMode(undefined)).toBe(false);
  });
});
