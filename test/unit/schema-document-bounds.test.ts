/**
 * Bounds on schema documents (schema-formats/document-bounds.ts, parsed-bounds.ts): a document at a bound is
 * accepted and judged, one past it is refused with a SchemaParseError naming the bound and where; documents far past
 * them (which used to overflow the stack) are refused the same way. And what keeps one judgement's cost bounded:
 * linear lookups in wide records, shared definitions judged once, lists cut at MAX_LISTED_PROBLEMS, recursion cut at
 * MAX_JUDGED_DEPTH, the steps of a judgement cut at MAX_JUDGED_STEPS, the text a transitive judgement reads.
 */
import { describe, expect, it } from 'vitest';
import {
  compatibilityProblems,
  judgedTextTooLarge,
  MAX_BRANCHES,
  MAX_ENUM_VALUES,
  MAX_JUDGED_DEPTH,
  MAX_JUDGED_STEPS,
  MAX_JUDGED_TEXT,
  MAX_LISTED_PROBLEMS,
  MAX_MESSAGE_STATEMENTS,
  MAX_NAMED_TYPES,
  MAX_NAMED_VALUES,
  MAX_NESTING,
  MAX_REF_TARGETS,
  parseSchema,
  SchemaParseError,
  type ParsedSchema,
  type SchemaType,
} from '../../schema-formats/index';

/** The problems of the SchemaParseError parsing `text` throws; fails the test when it throws nothing, or something else. */
function refusal(text: string, type: SchemaType): string[] {
  try {
    parseSchema(text, type);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaParseError);
    return (error as SchemaParseError).problems;
  }
  throw new Error('expected a SchemaParseError');
}

/** `candidate` judged FULL against `earlier`, as `direction rule path` lines. */
const full = (candidate: ParsedSchema, earlier: ParsedSchema) =>
  compatibilityProblems('FULL', candidate, [{ label: '1', schema: earlier }]).map((p) => `${p.direction} ${p.rule} ${p.path}`);

const rulesOf = (candidate: ParsedSchema, earlier: ParsedSchema) =>
  compatibilityProblems('FULL', candidate, [{ label: '1', schema: earlier }]).map((p) => p.rule);

/** `open` `levels` times, `leaf`, `close` `levels` times: nesting written as text, so no recursion builds it. */
const nested = (levels: number, open: string, leaf: string, close: string) => open.repeat(levels) + leaf + close.repeat(levels);

/** `line L, column C` of the `n`th `{` or `[` of `text` (none in strings): where a nesting bound is first passed. */
function nthOpening(text: string, n: number): string {
  const match = [...text.matchAll(/[{[]/g)][n - 1]!;
  const before = text.slice(0, match.index);
  return `line ${before.split('\n').length}, column ${match.index - before.lastIndexOf('\n')}`;
}

/** Runs `work` with half of the stack already in use: what passes has at least twice the stack it needs. */
function withHalfTheStack<T>(work: () => T): T {
  let frames = 0;
  const fill = (): void => {
    frames++;
    fill();
  };
  try {
    fill();
  } catch {
    // The stack is full: `frames` is how deep a plain call goes.
  }
  const descend = (left: number): T => (left === 0 ? work() : descend(left - 1));
  return descend(Math.floor(frames / 2));
}

describe('nesting: AVRO (levels of { and [)', () => {
  // A record's object, its fields array and the field's object, then arrays to the bound.
  const arrays = (levels: number, leaf: string) =>
    `{"type":"record","name":"R","fields":[{"name":"a","type":${nested(levels - 3, '{"type":"array","items":', `"${leaf}"`, '}')}}]}`;

  it(`accepts ${MAX_NESTING.AVRO} levels and judges them, with half the stack in use`, () => {
    const found = withHalfTheStack(() => full(parseSchema(arrays(MAX_NESTING.AVRO, 'string'), 'AVRO'), parseSchema(arrays(MAX_NESTING.AVRO, 'int'), 'AVRO')));
    const deepest = `a${'[]'.repeat(MAX_NESTING.AVRO - 3)}`;
    // Neither of string and int reads the other.
    expect(found).toEqual([`reads TYPE_MISMATCH ${deepest}`, `read by TYPE_MISMATCH ${deepest}`]);
  });

  it('refuses one level more, naming the bound and where it is passed', () => {
    const text = arrays(MAX_NESTING.AVRO + 1, 'string');
    expect(refusal(text, 'AVRO')).toEqual([`${nthOpening(text, MAX_NESTING.AVRO + 1)}: nesting deeper than ${MAX_NESTING.AVRO} levels of '{' and '['`]);
  });

  it('refuses records nested 5000 deep with a SchemaParseError, not a RangeError', () => {
    const text = nested(5000, '{"type":"record","name":"R","fields":[{"name":"f","type":', '"long"', '}]}');
    expect(refusal(text, 'AVRO')).toEqual([`${nthOpening(text, MAX_NESTING.AVRO + 1)}: nesting deeper than ${MAX_NESTING.AVRO} levels of '{' and '['`]);
  });

  it('ignores brackets inside strings', () => {
    const text = `{"type":"record","name":"R","doc":"${'{['.repeat(MAX_NESTING.AVRO)}","fields":[]}`;
    expect(parseSchema(text, 'AVRO').fullName).toBe('R');
  });

  /** Records defined side by side, each with a field of the one before: flat text, nested types. */
  const chain = (records: number) => JSON.stringify({
    type: 'record', name: 'Top', fields: [
      { name: 'r0', type: { type: 'record', name: 'R0', fields: [{ name: 'v', type: 'long' }] } },
      ...Array.from({ length: records - 1 }, (_, i) => ({ name: `r${i + 1}`, type: { type: 'record', name: `R${i + 1}`, fields: [{ name: 'a', type: `R${i}` }] } })),
    ],
  });

  it('counts each named type where it is used: a chain of references nests like brackets', () => {
    // Top and each record add 3 levels; the last record's field a long, none.
    const fits = Math.floor(MAX_NESTING.AVRO / 3) - 1;
    expect(full(parseSchema(chain(fits), 'AVRO'), parseSchema(chain(fits), 'AVRO'))).toEqual([]);
    const path = `r${fits}${'.a'.repeat(fits)}`;
    expect(refusal(chain(fits + 1), 'AVRO')).toEqual([`field '${path}': nesting deeper than ${MAX_NESTING.AVRO} levels with each named type written out where it is used`]);
  });
});

describe('nesting: JSON_SCHEMA (levels of { and [)', () => {
  const items = (levels: number, leaf: string) => `{"title":"T",${nested(levels - 1, '"items":{', `"type":"${leaf}"`, '}')}}`;

  it(`accepts ${MAX_NESTING.JSON_SCHEMA} levels and judges them, with half the stack in use`, () => {
    const found = withHalfTheStack(() => full(parseSchema(items(MAX_NESTING.JSON_SCHEMA, 'string'), 'JSON_SCHEMA'), parseSchema(items(MAX_NESTING.JSON_SCHEMA, 'integer'), 'JSON_SCHEMA')));
    const deepest = '[]'.repeat(MAX_NESTING.JSON_SCHEMA - 1);
    expect(found).toEqual([`reads TYPE_CHANGED ${deepest}`, `read by TYPE_CHANGED ${deepest}`]);
  });

  it('refuses one level more, naming the bound and where it is passed', () => {
    const text = items(MAX_NESTING.JSON_SCHEMA + 1, 'string');
    expect(refusal(text, 'JSON_SCHEMA')).toEqual([`${nthOpening(text, MAX_NESTING.JSON_SCHEMA + 1)}: nesting deeper than ${MAX_NESTING.JSON_SCHEMA} levels of '{' and '['`]);
  });

  it('refuses properties nested 1000 deep with a SchemaParseError, not a RangeError', () => {
    const text = `{"title":"T",${nested(1000, '"type":"object","properties":{"p":{', '"type":"string"', '}}')}}`;
    expect(refusal(text, 'JSON_SCHEMA')).toEqual([`${nthOpening(text, MAX_NESTING.JSON_SCHEMA + 1)}: nesting deeper than ${MAX_NESTING.JSON_SCHEMA} levels of '{' and '['`]);
  });

  /** Definitions side by side, each the items of the one before through a $ref: flat text, nested schemas. */
  const chain = (definitions: number) => JSON.stringify({
    title: 'T', $ref: `#/definitions/d${definitions - 1}`,
    definitions: Object.fromEntries(Array.from({ length: definitions }, (_, i) => [`d${i}`, i === 0 ? { type: 'string' } : { items: { $ref: `#/definitions/d${i - 1}` } }])),
  });

  it('follows each $ref: a chain of references nests like brackets', () => {
    // The root and `definitions` objects, then two levels a definition (its object, its items' $ref object), d0 one.
    const fits = Math.floor((MAX_NESTING.JSON_SCHEMA - 1) / 2);
    expect(full(parseSchema(chain(fits), 'JSON_SCHEMA'), parseSchema(chain(fits), 'JSON_SCHEMA'))).toEqual([]);
    expect(refusal(chain(fits + 1), 'JSON_SCHEMA')).toEqual([
      `/definitions/d0: nesting deeper than ${MAX_NESTING.JSON_SCHEMA} levels with each $ref followed (one level for the $ref, then those of the schema it points to)`,
    ]);
  });
});

describe(`nesting: PROTOBUF (levels of '{')`, () => {
  const messages = (levels: number, innermost: string) => 'syntax = "proto3";\npackage p;\n'
    + Array.from({ length: levels }, (_, i) => `message M${i} { ${i === levels - 1 ? innermost : 'int32'} a = 1; // {\n`).join('') + '}\n'.repeat(levels);

  it(`accepts ${MAX_NESTING.PROTOBUF} levels of messages and judges them, with half the stack in use`, () => {
    const found = withHalfTheStack(() => full(parseSchema(messages(MAX_NESTING.PROTOBUF, 'string'), 'PROTOBUF'), parseSchema(messages(MAX_NESTING.PROTOBUF, 'int64'), 'PROTOBUF')));
    const deepest = `p.${Array.from({ length: MAX_NESTING.PROTOBUF }, (_, i) => `M${i}`).join('.')}.a`;
    expect(found).toEqual([`reads FIELD_WIRE_COMPATIBLE_TYPE ${deepest}`, `read by FIELD_WIRE_COMPATIBLE_TYPE ${deepest}`]);
  });

  it('refuses one level more, counting no brace in a comment or string, naming the bound and where', () => {
    const text = messages(MAX_NESTING.PROTOBUF + 1, 'string').replace('a = 1;', 'a = 1 [json_name = "{{"]; /* { */');
    // Each line's `// {` and the first message's string and comment hold braces the count skips.
    const openings = [...text.matchAll(/message M\d+ \{/g)];
    const past = openings[MAX_NESTING.PROTOBUF]!;
    const before = text.slice(0, past.index + past[0].length - 1);
    const at = `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
    expect(refusal(text, 'PROTOBUF')).toEqual([`${at}: nesting deeper than ${MAX_NESTING.PROTOBUF} levels of '{'`]);
  });
});

describe('counts that decide the cost of parsing and judging', () => {
  const branches = (n: number, key: string) => Array.from({ length: n }, (_, i) => ({ type: 'object', properties: { [`${key}${i}`]: { type: 'string' } }, required: [`${key}${i}`] }));
  const oneOf = (n: number, key: string) => JSON.stringify({ title: 'T', properties: { a: { oneOf: branches(n, key) } } });

  it(`JSON_SCHEMA: a combinator of ${MAX_BRANCHES} branches is judged, one of ${MAX_BRANCHES + 1} refused`, () => {
    expect(rulesOf(parseSchema(oneOf(MAX_BRANCHES, 'x'), 'JSON_SCHEMA'), parseSchema(oneOf(MAX_BRANCHES, 'y'), 'JSON_SCHEMA')))
      .toEqual(['COMBINED_TYPE_SUBSCHEMAS_CHANGED', 'COMBINED_TYPE_SUBSCHEMAS_CHANGED']);
    expect(refusal(oneOf(MAX_BRANCHES + 1, 'x'), 'JSON_SCHEMA')).toEqual([`/properties/a/oneOf: ${MAX_BRANCHES + 1} branches; at most ${MAX_BRANCHES}`]);
    expect(refusal(JSON.stringify({ title: 'T', oneOf: branches(500, 'x') }), 'JSON_SCHEMA')).toEqual([`/oneOf: 500 branches; at most ${MAX_BRANCHES}`]);
  });

  it(`JSON_SCHEMA: an enum of ${MAX_ENUM_VALUES} values is judged, one of ${MAX_ENUM_VALUES + 1} refused`, () => {
    const values = (n: number) => JSON.stringify({ title: 'T', enum: Array.from({ length: n }, (_, i) => i) });
    expect(rulesOf(parseSchema(values(MAX_ENUM_VALUES - 1), 'JSON_SCHEMA'), parseSchema(values(MAX_ENUM_VALUES), 'JSON_SCHEMA'))).toEqual(['ENUM_ARRAY_NARROWED']);
    expect(refusal(values(MAX_ENUM_VALUES + 1), 'JSON_SCHEMA')).toEqual([`/enum: ${MAX_ENUM_VALUES + 1} values; at most ${MAX_ENUM_VALUES}`]);
  });

  it(`JSON_SCHEMA: ${MAX_REF_TARGETS} different $ref targets are judged, one more refused`, () => {
    const refs = (n: number) => JSON.stringify({
      title: 'T', definitions: Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, { type: 'string' }])),
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { $ref: `#/definitions/d${i}` }])),
    });
    expect(full(parseSchema(refs(MAX_REF_TARGETS), 'JSON_SCHEMA'), parseSchema(refs(MAX_REF_TARGETS), 'JSON_SCHEMA'))).toEqual([]);
    expect(refusal(refs(MAX_REF_TARGETS + 1), 'JSON_SCHEMA'))
      .toEqual([`/properties/p${MAX_REF_TARGETS}/$ref: more than ${MAX_REF_TARGETS} different $ref targets in the document`]);
  });

  const union = (n: number, name: string) => JSON.stringify({
    type: 'record', name: 'Event', fields: [{ name: 'payload', type: Array.from({ length: n }, (_, i) => ({ type: 'record', name: `${name}${i}`, fields: [] })) }],
  });

  it(`AVRO: a union of ${MAX_BRANCHES} branches is judged, one of ${MAX_BRANCHES + 1} refused`, () => {
    const found = rulesOf(parseSchema(union(MAX_BRANCHES, 'A'), 'AVRO'), parseSchema(union(MAX_BRANCHES, 'B'), 'AVRO'));
    expect(found).toEqual(Array(2 * MAX_BRANCHES).fill('MISSING_UNION_BRANCH'));
    expect(refusal(union(MAX_BRANCHES + 1, 'A'), 'AVRO')).toEqual([`field 'payload': a union of ${MAX_BRANCHES + 1} branches; at most ${MAX_BRANCHES}`]);
  });

  it(`AVRO: ${MAX_NAMED_TYPES} named types are judged, one more refused`, () => {
    // The record itself is one of them.
    const named = (n: number) => JSON.stringify({ type: 'record', name: 'Top', fields: Array.from({ length: n - 1 }, (_, i) => ({ name: `e${i}`, type: { type: 'enum', name: `E${i}`, symbols: ['A'] } })) });
    expect(full(parseSchema(named(MAX_NAMED_TYPES), 'AVRO'), parseSchema(named(MAX_NAMED_TYPES), 'AVRO'))).toEqual([]);
    expect(refusal(named(MAX_NAMED_TYPES + 1), 'AVRO')).toEqual([`${MAX_NAMED_TYPES + 1} named types (records, enums, fixed); at most ${MAX_NAMED_TYPES}`]);
  });

  const fields = (n: number, type = 'int32') => `syntax = "proto3";\npackage p;\nmessage M {\n  int32 first = ${n + 1};\n  oneof choice {\n`
    + Array.from({ length: n - 1 }, (_, i) => `    ${type} f${i} = ${i + 1};`).join('\n') + '\n  }\n}\nenum E { A = 0; B = 1; C = 2; }\n';

  it(`PROTOBUF: a message of ${MAX_MESSAGE_STATEMENTS} statements (its oneofs' fields included) is judged, one more refused`, () => {
    expect(rulesOf(parseSchema(fields(MAX_MESSAGE_STATEMENTS), 'PROTOBUF'), parseSchema(fields(MAX_MESSAGE_STATEMENTS, 'string'), 'PROTOBUF')))
      .toEqual(Array(2 * (MAX_MESSAGE_STATEMENTS - 1)).fill('FIELD_WIRE_COMPATIBLE_TYPE'));
    const text = fields(MAX_MESSAGE_STATEMENTS + 1);
    const lastField = text.lastIndexOf(';', text.indexOf('\n  }'));
    const before = text.slice(0, lastField);
    expect(refusal(text, 'PROTOBUF')).toEqual([
      `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}: message M has more than ${MAX_MESSAGE_STATEMENTS} fields, options and reserved statements`,
    ]);
  });

  it('PROTOBUF: an enum\'s values are no message\'s statements', () => {
    const text = `syntax = "proto3";\npackage p;\nmessage M { E e = 1; }\nenum E {\n${Array.from({ length: 3 * MAX_MESSAGE_STATEMENTS }, (_, i) => `  V${i} = ${i};`).join('\n')}\n}\n`;
    expect(parseSchema(text, 'PROTOBUF').fullName).toBe('p.M');
  });
});

describe('the cost of one judgement', () => {
  const wide = (n: number, type: string) => parseSchema(JSON.stringify({ type: 'record', name: 'Wide', fields: Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type })) }), 'AVRO');

  it('judges a 20 000-field Avro record FULL against a same-shaped one', () => {
    expect(full(wide(20_000, 'string'), wide(20_000, 'string'))).toEqual([]);
    // Renamed fields read the old ones through their aliases; the old reader finds none of the new names.
    const renamed = parseSchema(JSON.stringify({ type: 'record', name: 'Wide', fields: Array.from({ length: 20_000 }, (_, i) => ({ name: `g${i}`, aliases: [`f${i}`], type: 'string' })) }), 'AVRO');
    const found = full(renamed, wide(20_000, 'string'));
    expect(found.filter((line) => line.startsWith('reads'))).toEqual([]);
    expect(found.slice(0, 2)).toEqual(['read by FIELD_NO_DEFAULT f0', 'read by FIELD_NO_DEFAULT f1']);
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS} problems a direction, then says that more are not listed`, () => {
    const problems = compatibilityProblems('BACKWARD', wide(20_000, 'int'), [{ label: '1', schema: wide(20_000, 'string') }]);
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(problems.at(-1)).toMatchObject({ rule: 'MORE_PROBLEMS_NOT_LISTED', message: `more than ${MAX_LISTED_PROBLEMS} problems; only the first ${MAX_LISTED_PROBLEMS} are listed` });
    const messages = (type: string) => parseSchema('syntax = "proto3";\npackage p;\n' + Array.from({ length: 3 }, (_, m) => `message M${m} {\n`
      + Array.from({ length: 400 }, (_, i) => `  ${type} f${i} = ${i + 1};`).join('\n') + '\n}\n').join(''), 'PROTOBUF');
    const protobuf = compatibilityProblems('BACKWARD', messages('string'), [{ label: '1', schema: messages('int32') }]).map((p) => p.rule);
    expect(protobuf).toEqual([...Array(MAX_LISTED_PROBLEMS).fill('FIELD_WIRE_COMPATIBLE_TYPE'), 'MORE_PROBLEMS_NOT_LISTED']);
  });

  /** Each record has two fields of the one before: 2^levels paths to the first, 3 bytes of text per level. */
  const avroDag = (levels: number, leaf: string) => parseSchema(JSON.stringify({
    type: 'record', name: 'Top', fields: [
      { name: 'r0', type: { type: 'record', name: 'R0', fields: [{ name: 'v', type: leaf }] } },
      ...Array.from({ length: levels }, (_, i) => ({ name: `r${i + 1}`, type: { type: 'record', name: `R${i + 1}`, fields: [{ name: 'a', type: `R${i}` }, { name: 'b', type: `R${i}` }] } })),
    ],
  }), 'AVRO');

  it('judges a type shared by two fields at every level once, not once per path', () => {
    expect(full(avroDag(60, 'long'), avroDag(60, 'long'))).toEqual([]);
    const problems = rulesOf(avroDag(60, 'int'), avroDag(60, 'string'));
    expect(problems.filter((rule) => rule === 'TYPE_MISMATCH')).toHaveLength(2 * MAX_LISTED_PROBLEMS);
    expect(problems.filter((rule) => rule === 'MORE_PROBLEMS_NOT_LISTED')).toHaveLength(2);
  });

  it('judges a JSON Schema definition shared by two properties at every level once, not once per path', () => {
    const dag = (levels: number, leaf: string) => parseSchema(JSON.stringify({
      title: 'T', $ref: `#/definitions/d${levels}`,
      definitions: Object.fromEntries(Array.from({ length: levels + 1 }, (_, i) => [`d${i}`, i === 0
        ? { type: leaf }
        : { type: 'object', properties: { a: { $ref: `#/definitions/d${i - 1}` }, b: { $ref: `#/definitions/d${i - 1}` } } }])),
    }), 'JSON_SCHEMA');
    expect(full(dag(20, 'string'), dag(20, 'string'))).toEqual([]);
    const problems = rulesOf(dag(20, 'integer'), dag(20, 'string'));
    expect(problems.filter((rule) => rule === 'TYPE_CHANGED')).toHaveLength(2 * MAX_LISTED_PROBLEMS);
    expect(problems.filter((rule) => rule === 'MORE_PROBLEMS_NOT_LISTED')).toHaveLength(2);
  });

  it(`names at most ${MAX_NAMED_VALUES} values in one problem, and how many more there are`, () => {
    const moved = (pkg: string, prefix: string) => parseSchema(`syntax = "proto3";\npackage p;\nmessage M { ${pkg}.E e = 1; }\nmessage ${pkg} { enum E {\n`
      + Array.from({ length: 100 }, (_, i) => `  ${prefix}${i} = ${i};`).join('\n') + '\n} }\n', 'PROTOBUF');
    const problems = compatibilityProblems('BACKWARD', moved('B', 'W'), [{ label: '1', schema: moved('A', 'V') }]).filter((p) => p.rule === 'FIELD_WIRE_COMPATIBLE_TYPE');
    const named = Array.from({ length: MAX_NAMED_VALUES }, (_, i) => `V${i}`).join(', ');
    expect(problems.map((p) => p.message)).toEqual([`'p.M.e' (field 1) is written as enum p.A.E, read as enum p.B.E, which lacks ${named} and ${100 - MAX_NAMED_VALUES} more`]);
  });

  it(`stops following two recursive Avro schemas into each other after ${MAX_JUDGED_DEPTH} levels`, () => {
    // Cycles of 61 and 63 records (all named Node, so each union branch matches): the pairs repeat only after 3843.
    const cycle = (length: number, prefix: string) => parseSchema(nested(length, '{"type":"record","name":"Node","namespace":"NS","fields":[{"name":"n","type":["null",', `"${prefix}0.Node"`, ']}]}')
      .replace(/"NS"/g, (() => { let i = 0; return () => `"${prefix}${i++}"`; })()), 'AVRO');
    const problems = compatibilityProblems('BACKWARD', cycle(61, 'r'), [{ label: '1', schema: cycle(63, 'w') }]);
    expect(problems.map((p) => p.rule)).toEqual(['NESTING_TOO_DEEP_TO_JUDGE']);
    expect(problems[0]!.path).toBe(Array(MAX_JUDGED_DEPTH).fill('n').join('.'));
  });

  it(`stops following two recursive JSON Schemas into each other after ${MAX_JUDGED_DEPTH} levels`, () => {
    const cycle = (length: number) => parseSchema(JSON.stringify({
      title: 'T', $ref: '#/definitions/d0',
      definitions: Object.fromEntries(Array.from({ length }, (_, i) => [`d${i}`, { type: 'object', properties: { n: { $ref: `#/definitions/d${(i + 1) % length}` } } }])),
    }), 'JSON_SCHEMA');
    // Cycles of 19 and 20 definitions (3 levels each, within the nesting bound): the pairs repeat only after 380.
    const problems = compatibilityProblems('BACKWARD', cycle(19), [{ label: '1', schema: cycle(20) }]);
    expect(problems.map((p) => p.rule)).toEqual(['NESTING_TOO_DEEP_TO_JUDGE']);
    expect(problems[0]!.path).toBe(Array(MAX_JUDGED_DEPTH).fill('n').join('.'));
  });

  it(`stops after ${MAX_JUDGED_STEPS} steps, and the rest counts as incompatible`, () => {
    // 100 × 100 outer branches, each pair 10 × 10 inner ones: a million pairs to compare.
    const combined = (key: string) => parseSchema(JSON.stringify({ title: 'T', oneOf: Array.from({ length: 100 }, (_, i) => ({ oneOf: Array.from({ length: 10 }, (_, j) => ({ type: 'object', properties: { [`${key}${i}_${j}`]: { type: 'string' } }, required: [`${key}${i}_${j}`], additionalProperties: false })) })) }), 'JSON_SCHEMA');
    const problems = compatibilityProblems('FULL', combined('a'), [{ label: '1', schema: combined('b') }]);
    expect(problems.at(-1)).toMatchObject({ rule: 'TOO_LARGE_TO_JUDGE', message: `not judged completely: judging takes more than the ${MAX_JUDGED_STEPS} steps one judgement may take` });
  });
});

describe('judgedTextTooLarge: the text a transitive judgement reads', () => {
  it('answers nothing up to the bound', () => {
    expect(judgedTextTooLarge([])).toBeUndefined();
    expect(judgedTextTooLarge([MAX_JUDGED_TEXT - 1, 1])).toBeUndefined();
  });

  it('names the total and the bound past it', () => {
    const mib = 1024 * 1024;
    // One character past the bound reads as a tenth of a MiB more, never as the bound itself.
    expect(judgedTextTooLarge([MAX_JUDGED_TEXT, 1])).toBe(`the versions to judge against total ${(MAX_JUDGED_TEXT / mib + 0.1).toFixed(1)} MiB, more than the ${MAX_JUDGED_TEXT / mib} MiB one judgement reads`);
    expect(judgedTextTooLarge(Array(40).fill(mib))).toBe(`the versions to judge against total 40.0 MiB, more than the ${MAX_JUDGED_TEXT / mib} MiB one judgement reads`);
  });
});
