import { describe, expect, it } from 'vitest';
import { isExactNumber, jsonProblems, MAX_DEPTH, numberProblems, stringProblem, valueProblems } from '../../core/input-hygiene';
import { checkPathSegments, parseQuery } from '../../server/request-target';
import { statusOfParserError } from '../../server/client-error';
import { mergeMap } from '../../handlers/_lib/input';
import { HttpError } from '../../core/errors';

describe('stringProblem', () => {
  it.each([
    ['a\u0000b', /NUL/], ['\u0000', /NUL/], ['a\ud800b', /surrogate/], ['\udfff', /surrogate/], ['x\ud83d', /surrogate/],
  ])('refuses %j', (s, reason) => {
    expect(stringProblem(s)).toMatch(reason);
  });
  it.each(['', 'plain', '🚀 paired', '\u202eRTL\u202c', 'é', '\u0001\u001f control', 'tab\tnew\nline', "' OR 1=1 --", '%_\\'])('keeps %j', (s) => {
    expect(stringProblem(s)).toBeNull();
  });
});

describe('isExactNumber', () => {
  it.each(['0', '-0', '1', '-1.5', '0.1', '1e2', '1.2e6', '3.0', '9007199254740991', '-9007199254740991', '5e-324', '1.5e-7'])('accepts %s', (n) => {
    expect(isExactNumber(n)).toBe(true);
  });
  it.each(['1e309', '-1e309', '1E400', '1e-400', '9007199254740992', '9007199254740993', '-9007199254740993', '1e20',
    '123456789012345678', '3.141592653589793238', '1.7976931348623157e308'])('refuses %s', (n) => {
    expect(isExactNumber(n)).toBe(false);
  });
});

describe('valueProblems', () => {
  it('names every bad string by its path, keys included', () => {
    const problems = valueProblems({ a: 'ok', b: ['x', 'y\u0000'], c: { 'k\ud800': 'v', d: { e: '\udc00' } } });
    expect(problems.map((p) => p.field)).toEqual(['b[1]', 'c.k\ud800', 'c.d.e']);
    expect(problems[1].message).toMatch(/^field name /);
  });
  it('a bare string is named by the root given', () => {
    expect(valueProblems('a\u0000', 'name')).toEqual([{ field: 'name', message: expect.stringMatching(/NUL/) }]);
    expect(valueProblems('a\u0000')[0].field).toBe('body');
  });
  it('keys named like prototype properties are ordinary keys', () => {
    const body = JSON.parse('{"__proto__":{"x":"a\\u0000"},"constructor":"ok"}');
    expect(valueProblems(body).map((p) => p.field)).toEqual(['__proto__.x']);
  });
  it(`refuses nesting deeper than ${MAX_DEPTH} levels without recursing`, () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const problems = valueProblems({ s: deep });
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/deeper than 64/);
    let ok: unknown = 'leaf';
    for (let i = 0; i < MAX_DEPTH - 1; i++) ok = [ok];
    expect(valueProblems(ok)).toEqual([]);
  });
  it('accepts numbers, booleans and null', () => {
    expect(valueProblems({ a: 1, b: true, c: null, d: [1.5, false] })).toEqual([]);
  });
});

describe('numberProblems', () => {
  it('is empty for exact numbers and ignores digits inside strings', () => {
    expect(numberProblems('{"a":1,"b":[2.5,-3e2],"s":"1e309 and 9007199254740993","t":"\\"1e999"}')).toEqual([]);
  });
  it('names each inexact literal by its path, with the literal as written', () => {
    const problems = numberProblems('{"x":{"rank":1e309},"list":[1,9007199254740993],"ok":2}');
    expect(problems).toEqual([
      { field: 'list[1]', message: expect.stringMatching(/double/), rejectedValue: '9007199254740993' },
      { field: 'x.rank', message: expect.stringMatching(/double/), rejectedValue: '1e309' },
    ]);
  });
  it('a bare number is the body', () => {
    expect(numberProblems('1e999')[0].field).toBe('body');
  });
});

describe('jsonProblems', () => {
  it('a deep body with inexact numbers is refused for its depth, without re-reading it (no stack overflow)', () => {
    const text = `{"name":${'['.repeat(20_000)}1e309${']'.repeat(20_000)}}`;
    const problems = jsonProblems(JSON.parse(text), text);
    expect(problems).toEqual([{ field: expect.stringMatching(/^name(\[0\])+$/), message: expect.stringMatching(/deeper/) }]);
  });
  it('strings and numbers together', () => {
    const text = '{"a":"x\\u0000","b":1e309}';
    expect(jsonProblems(JSON.parse(text), text).map((p) => p.field)).toEqual(['a', 'b']);
  });
});

describe('parseQuery', () => {
  it('repeats become arrays, + is a space, names are plain data', () => {
    const q = parseQuery('sort=a&sort=b,desc&name=x+y%2Bz&__proto__=1&constructor=2&flag');
    expect(Object.entries(q)).toEqual([['sort', ['a', 'b,desc']], ['name', 'x y+z'], ['__proto__', '1'], ['constructor', '2'], ['flag', '']]);
    expect(Object.getPrototypeOf(q)).toBeNull();
  });
  it.each([[null], [undefined], ['']])('no query string (%j) → empty', (s) => {
    expect(Object.keys(parseQuery(s))).toEqual([]);
  });
  it.each([
    ['name=%zz', 'name'], ['name=abc%', 'name'], ['name=%ff%fe', 'name'], ['name=%c0%af', 'name'], ['name=%ed%a0%80', 'name'],
    ['name=a%00', 'name'], ['%zz=1', 'query'], ['a%00=1', 'query'],
  ])('refuses %s naming %s', (s, field) => {
    try {
      parseQuery(s);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toBe(400);
      expect((e as HttpError).subErrors?.[0].field).toBe(field);
    }
  });
});

describe('checkPathSegments', () => {
  it('passes well-formed segments, encoded ones included', () => {
    expect(() => checkPathSegments('/groups/abc%20def/members', '/groups/{id}/{rel}')).not.toThrow();
  });
  it.each([
    ['/groups/%zz', 'id'], ['/groups/0123/%ff', 'rel'], ['/groups/0123/members/%c0%af', 'propertyId'], ['/groups/%00', 'id'],
  ])('refuses %s naming %s', (path, field) => {
    const template = '/groups/{id}/{rel}/{propertyId}'.split('/').slice(0, path.split('/').length).join('/');
    expect(() => checkPathSegments(path, template)).toThrow(expect.objectContaining({ status: 400, errors: [expect.stringMatching(new RegExp(`^${field}: `))] }));
  });
});

describe('statusOfParserError', () => {
  const packet = (s: string) => Buffer.from(s);
  it.each([
    [{ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 408],
    [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet('GET /?aaaa'), bytesParsed: 10 }, 414],
    [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet('GET /?aaaaaaaa HTTP/1.1\r\n'), bytesParsed: 10 }, 414],
    [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: packet('GET / HTTP/1.1\r\nX: bbbbbbbb'), bytesParsed: 25 }, 431],
    [{ code: 'HPE_INVALID_METHOD' }, 400],
    [{ code: 'HPE_UNEXPECTED_CONTENT_LENGTH' }, 400],
  ])('%j → %i', (err, status) => {
    expect(statusOfParserError(err as never)).toBe(status);
  });
});

describe('mergeMap (PATCH of a map)', () => {
  it('merges key by key; null removes; {} clears; null clears to null', () => {
    expect(mergeMap({ a: '1', b: '2' }, { b: null, c: '3' })).toEqual({ a: '1', c: '3' });
    expect(mergeMap({ a: '1' }, {})).toEqual({});
    expect(mergeMap({ a: '1' }, null)).toBeNull();
    expect(mergeMap(null, { a: '1' })).toEqual({ a: '1' });
  });
  it('stores __proto__ as a key and never touches a prototype', () => {
    const merged = mergeMap({ a: '1' }, JSON.parse('{"__proto__":"x","constructor":"y"}'))!;
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(JSON.parse('{"a":"1","__proto__":"x","constructor":"y"}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    const removed = mergeMap(merged, JSON.parse('{"__proto__":null}'))!;
    expect(Object.hasOwn(removed, '__proto__')).toBe(false);
  });
});
