import { describe, expect, it } from 'vitest';
import { plainCheckOf, type DeclaredParameter } from '../../server/plain-parameters';

const id: DeclaredParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } };
const ifNoneMatch: DeclaredParameter = { name: 'If-None-Match', in: 'header', schema: { type: 'string' } };
const page: DeclaredParameter = { name: 'page', in: 'query', schema: { type: 'string', description: 'x' } };

describe('operations the validator could not refuse', () => {
  it('a GET of one item: path id within its lengths, an optional header', () => {
    const check = plainCheckOf([id, ifNoneMatch])!;
    expect(check).toBeTypeOf('function');
    expect(check({ id: '0c9f3e4a5b6c4d7e8f901a2b3c4d5e6f' })).toBe(true);
    expect(check({ id: 'x'.repeat(64) })).toBe(true);
  });

  it('a value that may break a bound goes to the validator', () => {
    const check = plainCheckOf([id])!;
    expect(check({ id: 'x'.repeat(65) })).toBe(false);
    expect(check({ id: '' })).toBe(false);
    expect(check({})).toBe(false);
    expect(check({ id: 7 })).toBe(false);
    // Two UTF-16 units may be one code point (Ajv counts code points): length 2 is not surely ≥ 2.
    const two = plainCheckOf([{ ...id, schema: { type: 'string', minLength: 2 } }])!;
    expect(two({ id: '😀' })).toBe(false);
    expect(two({ id: 'abcd' })).toBe(true);
  });

  it('no check for a constrained or non-string parameter, a required query or header, a cookie', () => {
    expect(plainCheckOf([{ ...id, schema: { type: 'string', pattern: '^[a-f0-9]+$' } }])).toBeUndefined();
    expect(plainCheckOf([{ ...id, schema: { type: 'string', format: 'uuid' } }])).toBeUndefined();
    expect(plainCheckOf([{ ...id, schema: { type: 'integer' } }])).toBeUndefined();
    expect(plainCheckOf([{ ...page, schema: { type: 'string', enum: ['a'] } }])).toBeUndefined();
    expect(plainCheckOf([{ ...page, required: true }])).toBeUndefined();
    expect(plainCheckOf([{ ...ifNoneMatch, required: true }])).toBeUndefined();
    expect(plainCheckOf([{ ...ifNoneMatch, schema: { type: 'string', maxLength: 3 } }])).toBeUndefined();
    expect(plainCheckOf([{ name: 'c', in: 'cookie', schema: { type: 'string' } }])).toBeUndefined();
    expect(plainCheckOf([undefined])).toBeUndefined();
  });

  it('an optional query parameter leaves the check to the request (none given)', () => {
    expect(plainCheckOf([id, page])?.({ id: 'abc' })).toBe(true);
    expect(plainCheckOf([])?.({})).toBe(true);
  });
});
