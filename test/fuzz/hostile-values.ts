/**
 * The catalogue of nasty inputs, kept in one place so every generator draws from the same list. Each entry is
 * here because it has broken some web service somewhere: encodings, prototype keys, SQL/LIKE wildcards,
 * numbers JSON.parse cannot represent, sizes past column limits.
 */

/** A JSON fragment written verbatim by the serialiser (numbers JSON.stringify cannot produce). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Strings a client may legitimately send and expect back byte for byte. */
export const TRICKY_STRINGS: string[] = [
  'plain', 'with space', ' leading and trailing ', 'tab\there', 'line\nbreak', 'crlf\r\n',
  'NUL\u0000inside', '\u0000', 'lone \ud800 high', 'lone \udfff low', '\ud83d',
  'RTL \u202e override', '\u200f\u200e marks', 'zero\u200bwidth', '\ufeffBOM',
  'emoji 🚀🔥', 'family 👨‍👩‍👧‍👦', 'flag 🇳🇱', 'combining e\u0301', 'ｆｕｌｌwidth', 'ǅ title', 'ß straße', 'İstanbul',
  "' OR 1=1 --", "'; DROP TABLE users; --", '" OR ""="', '%', '_', '%_%', '\\', '\\\\', '\\%', 'a%b_c',
  '../../etc/passwd', '..%2f..%2f', '..\\..\\windows', '/api/clusters', '%2e%2e%2f', '%00', '%zz',
  '<script>alert(1)</script>', '{{7*7}}', '${jndi:ldap://x}', '__proto__', 'constructor', 'toString', 'null',
  'undefined', 'true', '0', '-0', 'NaN', 'Infinity', '1e309', '9007199254740993', '',
];

/** What a database must keep byte for byte: the tricky strings without NUL and unpaired surrogates. */
export const STORABLE_STRINGS = TRICKY_STRINGS.filter((t) => !/\u0000|\p{Cs}/u.test(t) && t.trim() !== '');

/** Map keys that pierce naive `obj[key] = value` code. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  '', ' ', 'a.b', 'segment.ms', 'x\u0000y', '🚀', '\u202eltr', "'; --", '$where', 'a[0]'];
export const STORABLE_KEYS = HOSTILE_KEYS.filter((k) => !k.includes('\u0000'));

/** Numbers as JSON text: edges of int32/int64/double and what JSON.parse turns into something else. */
export const EDGE_NUMBERS: RawJson[] = ['0', '-0', '1', '-1', '0.5', '1e309', '-1e309', '9007199254740993',
  '9007199254740991', '-9007199254740993', '2147483647', '2147483648', '-2147483649', '9223372036854775807',
  '9223372036854775808', '1e-400', '4.9e-324', '1.7976931348623157e308', '123456789012345678901234567890', '1E3', '1.0',
].map((t) => new RawJson(t));

/** Literals JSON.parse cannot keep: Infinity, precision lost, underflow to 0. */
export const INEXACT_NUMBERS: RawJson[] = ['1e309', '-1e309', '9007199254740993', '1e-400', '123456789012345678901234567890']
  .map((t) => new RawJson(t));

/** Strings that look like numbers, booleans or nothing. */
export const NUMBER_LIKE_STRINGS = ['NaN', 'Infinity', '-Infinity', '1e3', '0x10', '010', ' 5', '5 ', '', 'null', 'true'];

/** Path segments that are not uids of the collection: malformed, undecodable, traversing, oversized. */
export const HOSTILE_SEGMENTS: string[] = [
  '%zz', 'abc%', '%', '%ff%fe', '%c0%af', '%ed%a0%80', '%e2%80%ae', '%00', '..%2f..', '..', '.', '%2e%2e',
  '%2F', '%252F', 'a%20b', '%F0%9F%9A%80', '__proto__', 'constructor', 'null', 'undefined', '0', '-1',
  "'%20OR%201=1--", '%27', '%25', '%5C', 'x'.repeat(65), 'f'.repeat(32), '0'.repeat(32), 'F'.repeat(32),
  '00000000-0000-0000-0000-000000000000', 'g'.repeat(32), '1'.repeat(2048), 'a'.repeat(32 * 1024),
];

/** Accept headers beyond the ordinary ones. */
export const ACCEPTS: (string | undefined)[] = [
  undefined, 'application/hal+json', 'application/json', '*/*', 'application/vnd.hal+json',
  'application/prs.hal-forms+json', 'application/x-spring-data-compact+json', 'text/uri-list', '*/*;q=0',
  'text/html', 'application/xml', 'garbage', ';;;', 'application/*', 'text/*;q=0.1, */*;q=0',
  'application/schema+json', 'application/alps+json', 'application/json;charset=latin1', '',
];

/** Content-Types for a request with a body; undefined sends none (docs/contract.md §1.4: then it is JSON). */
export const CONTENT_TYPES: (string | undefined)[] = [
  'application/json', 'application/json', 'application/json; charset=utf-8', undefined, 'text/plain',
  'application/merge-patch+json', 'application/x-spring-data-compact+json', 'text/uri-list', 'application/xml',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'garbage', 'application/json; charset=utf-16',
  'application/vnd.foo+json', 'APPLICATION/JSON', 'application/json;;', '',
];

/** Raw bodies that are not the JSON object an operation expects. */
export const RAW_BODIES: string[] = [
  '', ' ', '\n', 'null', '[]', '{}', '[{}]', '"string"', '42', 'true', '{', '{"name":', '{"name": "x",', '{"a":1}}',
  '{"name":"x"', '[', '\u0000', '\ufeff{}', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}',
  '{"a":1,"a":2}', 'NaN', '{"n": NaN}', "{'single':'quotes'}", '{"x":"\\ud800"}', '{"x":"\\u0000"}', '%7B%7D',
  'name=x&bootstrapServers=b:9092', '<xml/>', '[' + '['.repeat(50), '{"a":' + '1e309' + '}',
];

/** A JSON text nested `depth` levels deep: recursion limits of parsers and validators. */
export const deepNesting = (depth: number, kind: 'array' | 'object'): RawJson =>
  new RawJson(kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** page/size/sort values of every kind of wrong. */
export const PAGE_VALUES = ['0', '1', '-1', '1e3', 'abc', '', '9999999999', '2147483648', '0x1', '1.5', '%00', ' 1'];
export const SIZE_VALUES = ['1', '20', '10000', '0', '-5', '10001', '1e3', 'abc', '', '99999999999999999999', 'NaN'];
export const SORT_VALUES = ['name', 'name,desc', 'created_at,asc', 'modified_at,DESC', '__proto__', 'constructor,desc',
  'toString', 'name,sideways', ',', '', 'name;DROP TABLE', "name' --", 'uid', 'tenantUid', 'version', 'password',
  'passwordHash', 'name,asc,desc', 'a.b.c', '%zz', 'hasOwnProperty', 'NAME'];

/** Query parameters no operation declares, and values for repeated known ones. */
export const UNKNOWN_QUERY = ['projection=x', 'foo=bar', '__proto__=1', 'constructor[prototype][x]=1', 'a[b]=c',
  '%zz=1', 'x=%zz', 'x=%ff%fe', '=', '&&', 'x', 'page', 'size=', 'sort'];

/** Query-string encodings that are valid, invalid or surprising. */
export const ODD_QUERY_VALUES = ['%zz', 'abc%', '%ff%fe', '%c0%af', '%ed%a0%80', '%00', '%e2%80%ae', '+', '%2B',
  '%25', '%5F', '%27%20OR%201%3D1--', 'a%26b%3Dc', '%F0%9F%9A%80'];
