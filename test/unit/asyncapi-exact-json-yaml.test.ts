/**
 * Exact numbers and the one YAML form (docs/contract.md §9): schema numbers a double cannot hold keep their digits from the
 * uploaded text to the YAML, and the YAML writer never changes what a reader sees (strings stay strings, no
 * anchors, no folded lines, key order as built).
 */
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ExactNumber, exactInteger, parseExactJson } from '../../asyncapi/exact-json';
import { toYaml } from '../../asyncapi/yaml';

describe('parseExactJson', () => {
  it.each(['0', '1', '-5', '0.1', '1.5', '-2.25', '9007199254740991', '-9007199254740991', '1e2', '86400000'])('%s a double holds: a number', (text) => {
    const value = parseExactJson(text);
    expect(typeof value).toBe('number');
    expect(value).toBe(Number(text));
  });

  it.each([
    '9007199254740993', '-9007199254740993', '9223372036854775807', '123456789012345678901234567890',
    '1e400', '-1e400', '2e-400', '3.141592653589793238', '0.1000000000000000055511151231257827',
  ])('%s a double would change: an ExactNumber with its text', (text) => {
    const value = parseExactJson(text);
    expect(value).toBeInstanceOf(ExactNumber);
    expect((value as ExactNumber).text).toBe(text);
  });

  it('numbers nested in objects and arrays; strings, booleans and null unchanged', () => {
    const value = parseExactJson('{"a":[1,9007199254740993,{"b":1e400}],"s":"9007199254740993","t":true,"n":null,"pi":3.141592653589793238}') as any;
    expect(value.a[0]).toBe(1);
    expect(value.a[1]).toEqual(new ExactNumber('9007199254740993'));
    expect(value.a[2].b).toEqual(new ExactNumber('1e400'));
    expect(value.s).toBe('9007199254740993');
    expect(value.t).toBe(true);
    expect(value.n).toBeNull();
    expect(value.pi).toEqual(new ExactNumber('3.141592653589793238'));
  });

  it('a bare string is a string (an Avro primitive name)', () => {
    expect(parseExactJson('"long"')).toBe('long');
  });

  it('invalid JSON throws', () => {
    expect(() => parseExactJson('{"a":')).toThrow();
    expect(() => parseExactJson('{a:1}')).toThrow();
  });
});

describe('exactInteger', () => {
  it.each([['0', 0], ['42', 42], ['-1', -1], ['9007199254740991', 9007199254740991]])('%s → the number %d', (digits, n) => {
    expect(exactInteger(digits)).toBe(n);
  });

  it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808'])('%s → an ExactNumber with the digits', (digits) => {
    const value = exactInteger(digits);
    expect(value).toBeInstanceOf(ExactNumber);
    expect((value as ExactNumber).text).toBe(digits);
  });
});

describe('toYaml: exact numbers', () => {
  it('prints an ExactNumber verbatim as a plain scalar: no quotes, no tag', () => {
    const text = toYaml({ bytes: new ExactNumber('9223372036854775807'), pi: new ExactNumber('3.141592653589793238'), huge: new ExactNumber('1e400'), list: [new ExactNumber('9007199254740993')] });
    expect(text).toBe('bytes: 9223372036854775807\npi: 3.141592653589793238\nhuge: 1e400\nlist:\n  - 9007199254740993\n');
  });

  it('a YAML reader sees numbers, not strings', () => {
    const loaded = yaml.load(toYaml({ a: new ExactNumber('9223372036854775807'), b: new ExactNumber('3.141592653589793238'), c: new ExactNumber('-9007199254740993') })) as any;
    for (const v of Object.values(loaded)) expect(typeof v).toBe('number');
  });

  it('from schema text to YAML, every number keeps the digits the user wrote', () => {
    const body = '{"type":"record","name":"R","fields":[{"name":"big","type":"long","default":9007199254740993},{"name":"pi","type":"double","default":3.141592653589793238},{"name":"small","type":"int","default":7}]}';
    const text = toYaml(parseExactJson(body));
    expect(text).toContain('default: 9007199254740993\n');
    expect(text).toContain('default: 3.141592653589793238\n');
    expect(text).toContain('default: 7\n');
  });

  it('ordinary numbers print as YAML numbers', () => {
    expect(toYaml({ a: 6, b: 86400000, c: 0.5, d: -1 })).toBe('a: 6\nb: 86400000\nc: 0.5\nd: -1\n');
  });
});

describe('toYaml: strings stay strings', () => {
  const TRICKY = [
    '0.4.0', '1.0', '1', '-1', '1e3', '0x1F', '0o17', '0777', '+12', '.5', '.inf', '-.inf', '.nan', '.NaN',
    'yes', 'no', 'Yes', 'NO', 'on', 'off', 'y', 'n', 'true', 'False', 'TRUE', 'null', 'Null', '~', '',
    '2001-12-14', '2001-12-14T21:59:43.10-05:00', '12:30', '1:20:00',
    ' leading', 'trailing ', 'a: b', 'a #b', '#comment', '- x', '? x', '@at', '`tick', '%pct', '!tag', '&anchor', '*alias',
    '|', '>', '<<', '=', '{a}', '[a]', "it's", '"quoted"', 'multi\nline', 'tab\there', 'ünïcödé', 'urn:platform:acme:stream_config:1',
  ];

  it.each(TRICKY.map((s) => [s]))('%j round-trips through js-yaml as the same string', (s) => {
    const loaded = yaml.load(toYaml({ value: s, list: [s] })) as any;
    expect(loaded.value).toBe(s);
    expect(loaded.list).toEqual([s]);
  });

  it('a string that looks like a number is not printed as a plain number', () => {
    expect(toYaml({ version: '1.0' })).not.toBe('version: 1.0\n');
    expect(toYaml({ v: '0.4.0' })).toBe('v: 0.4.0\n');
  });
});

describe('toYaml: form', () => {
  it('no anchors or aliases for an object used twice: each place gets its own copy', () => {
    const shared = { SSL_MUTUAL_TLS: [], nested: { deep: [1, 2] } };
    const list = [{ a: 1 }];
    const text = toYaml({ x: shared, y: shared, z: [shared, shared], l1: list, l2: list });
    expect(text).not.toMatch(/[&*]ref_\d/);
    expect(text).not.toMatch(/(^|\s)[&*]\w/);
    const loaded = yaml.load(text) as any;
    expect(loaded.x).toEqual(shared);
    expect(loaded.y).toEqual(shared);
    expect(loaded.z).toEqual([shared, shared]);
    expect(loaded.l2).toEqual(list);
  });

  it('no line folding: a 300-character string with spaces stays on one line', () => {
    const long = Array.from({ length: 50 }, (_, i) => `word${i % 10}`).join(' ').padEnd(300, 'x');
    expect(long.length).toBe(300);
    const text = toYaml({ description: long, nested: { deeper: { summary: long } } });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.includes(long))).toHaveLength(2);
    expect(lines).toHaveLength(5);
    expect((yaml.load(text) as any).nested.deeper.summary).toBe(long);
  });

  it('keys keep their insertion order (no sorting), block style', () => {
    const text = toYaml({ zeta: 1, alpha: { b: 2, a: [3, { y: 1, x: 2 }] }, mid: 'm' });
    expect(text).toBe('zeta: 1\nalpha:\n  b: 2\n  a:\n    - 3\n    - \'y\': 1\n      x: 2\nmid: m\n');
  });

  it('the same document always prints the same text', () => {
    const make = () => ({ a: [new ExactNumber('1e400'), { b: 'yes' }], c: 'x'.repeat(200) });
    expect(toYaml(make())).toBe(toYaml(make()));
  });
});
