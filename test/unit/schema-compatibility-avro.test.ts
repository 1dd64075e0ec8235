/** Backward compatibility of AVRO versions (new reader, old data): each rule, with the exact reason. */
import { describe, expect, it } from 'vitest';
import { avroReadProblems } from '../../schema-formats/avro-compatibility';
import { backwardProblems, parseSchema } from '../../schema-formats/index';

// ---------- AVRO ----------

type Field = { name: string; type: unknown; default?: unknown; aliases?: string[] };

function record(fields: Field[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'record', name: 'User', namespace: 'com.acme', fields, ...extra });
}

/** The avsc type the backward check judges, as parseSchema builds it. */
function avroTypeOf(text: string) {
  const parsed = parseSchema(text, 'AVRO');
  if (parsed.type !== 'AVRO') throw new Error('expected AVRO');
  return parsed.avroType;
}

const address = (fields: Field[]) => ({ type: 'record', name: 'Address', fields });
const status = (symbols: string[], extra: Record<string, unknown> = {}) => ({ type: 'enum', name: 'Status', symbols, ...extra });

describe('backwardProblems: AVRO', () => {
  const base = record([
    { name: 'id', type: 'int' },
    { name: 'name', type: 'string' },
  ]);

  it.each([
    ['identical text', base, base],
    ['a field removed (the reader ignores it)', base, record([{ name: 'id', type: 'int' }])],
    ['a field added with a default', base, record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'age', type: 'int', default: 0 }])],
    ['a nullable field added with a null default', base, record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'nick', type: ['null', 'string'], default: null }])],
    ['fields reordered', base, record([{ name: 'name', type: 'string' }, { name: 'id', type: 'int' }])],
    ['a field renamed with an alias for the old name', base, record([{ name: 'id', type: 'int' }, { name: 'fullName', type: 'string', aliases: ['name'] }])],
    ['a doc added', base, record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }], { doc: 'a user' })],
    ['a field made nullable', base, record([{ name: 'id', type: ['null', 'int'] }, { name: 'name', type: 'string' }])],
    // Named types match by their unqualified names (specification, "Schema Resolution"), so a namespace may change
    // freely; avsc, which compares full names, refuses it.
    ['the namespace changed', base, record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }], { namespace: 'org.acme' })],
    ['a nested record moved to another namespace', record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]), record([{ name: 'home', type: { ...address([{ name: 'street', type: 'string' }]), namespace: 'org.geo' } }])],
    ['the record renamed with an alias for the old name', base, JSON.stringify({ type: 'record', name: 'Person', namespace: 'com.acme', aliases: ['com.acme.User'], fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }] })],
    ['an enum symbol added', record([{ name: 's', type: status(['A', 'B']) }]), record([{ name: 's', type: status(['A', 'B', 'C']) }])],
    ['an enum symbol removed while the enum has a default', record([{ name: 's', type: status(['A', 'B']) }]), record([{ name: 's', type: status(['A'], { default: 'A' }) }])],
    ['a nested field added with a default', record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]), record([{ name: 'home', type: address([{ name: 'street', type: 'string' }, { name: 'zip', type: 'string', default: '' }]) }])],
    ['array items promoted', record([{ name: 'xs', type: { type: 'array', items: 'int' } }]), record([{ name: 'xs', type: { type: 'array', items: 'long' } }])],
    ['map values promoted', record([{ name: 'm', type: { type: 'map', values: 'float' } }]), record([{ name: 'm', type: { type: 'map', values: 'double' } }])],
  ])('accepts %s', (_label, oldText, newText) => {
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([]);
  });

  it.each([
    ['int', 'long'],
    ['int', 'float'],
    ['int', 'double'],
    ['long', 'float'],
    ['long', 'double'],
    ['float', 'double'],
    ['string', 'bytes'],
    ['bytes', 'string'],
  ])('allows the promotion %s → %s', (from, to) => {
    expect(backwardProblems('AVRO', record([{ name: 'v', type: from }]), record([{ name: 'v', type: to }]))).toEqual([]);
  });

  it.each([
    ['long', 'int'],
    ['double', 'float'],
    ['float', 'long'],
    ['double', 'int'],
    ['int', 'string'],
    ['string', 'int'],
    ['boolean', 'int'],
    ['bytes', 'int'],
  ])('refuses the demotion or change %s → %s, naming the field', (from, to) => {
    expect(backwardProblems('AVRO', record([{ name: 'v', type: from }]), record([{ name: 'v', type: to }]))).toEqual([
      `field 'v' is written as ${from} and cannot be read as ${to}`,
    ]);
  });

  it.each([
    [
      'a field added without a default',
      base,
      record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'age', type: 'int' }]),
      ["field 'age' is not in the writer's record and has no default"],
    ],
    [
      'a field renamed without an alias (a new field without a default)',
      base,
      record([{ name: 'id', type: 'int' }, { name: 'fullName', type: 'string' }]),
      ["field 'fullName' is not in the writer's record and has no default"],
    ],
    [
      'a field made non-nullable',
      record([{ name: 'id', type: ['null', 'int'], default: null }]),
      record([{ name: 'id', type: 'int' }]),
      ["field 'id' is written as union<null, int>, whose null branch cannot be read as int"],
    ],
    [
      'a union branch that no longer fits',
      record([{ name: 'id', type: 'int' }]),
      record([{ name: 'id', type: ['null', 'string'] }]),
      ["field 'id' is written as int, which matches no branch of the reader's union<null, string>"],
    ],
    [
      'a record turned into an array',
      record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]),
      record([{ name: 'home', type: { type: 'array', items: 'string' } }]),
      ["field 'home' is written as record com.acme.Address and cannot be read as array<string>"],
    ],
    [
      'an enum symbol removed without a default',
      record([{ name: 'state', type: status(['NEW', 'OPEN', 'DONE']) }]),
      record([{ name: 'state', type: status(['NEW']) }]),
      [
        "enum 'com.acme.Status' has no symbol 'OPEN' and no default to read it as (field 'state')",
        "enum 'com.acme.Status' has no symbol 'DONE' and no default to read it as (field 'state')",
      ],
    ],
    [
      'the record renamed without an alias',
      base,
      JSON.stringify({ type: 'record', name: 'Person', namespace: 'com.acme', fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }] }),
      ["record 'com.acme.User' cannot be read as 'com.acme.Person': the unqualified names differ and the reader's aliases do not include 'com.acme.User'"],
    ],
    [
      'a nested record renamed without an alias',
      record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]),
      record([{ name: 'home', type: { type: 'record', name: 'Location', fields: [{ name: 'street', type: 'string' }] } }]),
      ["record 'com.acme.Address' cannot be read as 'com.acme.Location': the unqualified names differ and the reader's aliases do not include 'com.acme.Address' (field 'home')"],
    ],
    [
      'an enum renamed without an alias (its default still covers the lost symbol)',
      record([{ name: 's', type: status(['A', 'B']) }]),
      record([{ name: 's', type: { type: 'enum', name: 'State', symbols: ['A'], default: 'A' } }]),
      ["enum 'com.acme.Status' cannot be read as 'com.acme.State': the unqualified names differ and the reader's aliases do not include 'com.acme.Status' (field 's')"],
    ],
    [
      'a fixed resized',
      record([{ name: 'hash', type: { type: 'fixed', name: 'Hash', size: 16 } }]),
      record([{ name: 'hash', type: { type: 'fixed', name: 'Hash', size: 32 } }]),
      ["fixed 'com.acme.Hash' is written with 16 bytes but read with 32 (field 'hash')"],
    ],
    [
      'array items demoted',
      record([{ name: 'xs', type: { type: 'array', items: 'long' } }]),
      record([{ name: 'xs', type: { type: 'array', items: 'int' } }]),
      ["field 'xs[]' is written as long and cannot be read as int"],
    ],
    [
      'map values changed',
      record([{ name: 'm', type: { type: 'map', values: 'string' } }]),
      record([{ name: 'm', type: { type: 'map', values: 'boolean' } }]),
      ["field 'm{}' is written as string and cannot be read as boolean"],
    ],
  ])('refuses %s', (_label, oldText, newText, expected) => {
    expect(backwardProblems('AVRO', oldText, newText)).toEqual(expected);
  });

  it('names nested fields by path and reports every reason, not only the first', () => {
    const oldText = record([
      { name: 'id', type: 'int' },
      { name: 'state', type: status(['A', 'B']) },
      { name: 'home', type: address([{ name: 'street', type: 'string' }, { name: 'geo', type: { type: 'record', name: 'Geo', fields: [{ name: 'lat', type: 'double' }] } }]) },
    ]);
    const newText = record([
      { name: 'id', type: 'string' },
      { name: 'state', type: status(['A']) },
      {
        name: 'home',
        type: address([
          { name: 'street', type: 'int' },
          { name: 'zip', type: 'string' },
          { name: 'geo', type: { type: 'record', name: 'Geo', fields: [{ name: 'lat', type: 'float' }] } },
        ]),
      },
      { name: 'added', type: 'long' },
    ]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([
      "field 'id' is written as int and cannot be read as string",
      "enum 'com.acme.Status' has no symbol 'B' and no default to read it as (field 'state')",
      "field 'home.street' is written as string and cannot be read as int",
      "field 'home.zip' is not in the writer's record and has no default",
      "field 'home.geo.lat' is written as double and cannot be read as float",
      "field 'added' is not in the writer's record and has no default",
    ]);
  });

  it('names fields inside nullable nested records and arrays of records', () => {
    const item = (qty: string) => ({ type: 'array', items: { type: 'record', name: 'Line', fields: [{ name: 'qty', type: qty }] } });
    const oldText = record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'string' }])], default: null }, { name: 'lines', type: item('int') }]);
    const newText = record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'boolean' }])], default: null }, { name: 'lines', type: item('string') }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([
      "field 'home.street' is written as string and cannot be read as boolean",
      "field 'lines[].qty' is written as int and cannot be read as string",
    ]);
  });

  it('explains a named record under every field that uses it', () => {
    const oldText = record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }, { name: 'work', type: 'Address' }]);
    const newText = record([{ name: 'home', type: address([{ name: 'street', type: 'int' }]) }, { name: 'work', type: 'Address' }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([
      "field 'home.street' is written as string and cannot be read as int",
      "field 'work.street' is written as string and cannot be read as int",
    ]);
  });

  it('terminates on recursive records and still explains them', () => {
    const list = (value: string) => JSON.stringify({ type: 'record', name: 'Node', fields: [{ name: 'value', type: value }, { name: 'next', type: ['null', 'Node'], default: null }] });
    expect(backwardProblems('AVRO', list('int'), list('long'))).toEqual([]);
    expect(backwardProblems('AVRO', list('int'), list('string'))).toEqual(["field 'value' is written as int and cannot be read as string"]);
  });

  it('refuses a field whose aliases name two old fields', () => {
    // Aliases rename writer fields to the reader's (specification, "Aliases"): two of them renamed to one is ambiguous.
    const oldText = record([{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }]);
    const newText = record([{ name: 'c', type: 'int', aliases: ['a', 'b'] }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual(["field 'c' matches 2 fields of the writer's record by its name and aliases: 'a', 'b'"]);
  });

  it('reports a changed top-level kind', () => {
    const asEnum = JSON.stringify({ type: 'enum', name: 'User', namespace: 'com.acme', symbols: ['A'] });
    expect(backwardProblems('AVRO', base, asEnum)).toEqual(['the schema is written as record com.acme.User and cannot be read as enum com.acme.User']);
  });

  it('reads decimals by the specification: equal precision and scale, the underlying type otherwise', () => {
    const amount = (type: unknown) => record([{ name: 'amount', type }]);
    const decimal = (precision: number, scale: number) => ({ type: 'bytes', logicalType: 'decimal', precision, scale });
    expect(backwardProblems('AVRO', amount(decimal(10, 2)), amount(decimal(12, 2)))).toEqual([
      "field 'amount' is written as decimal(10, 2) and read as decimal(12, 2): decimals resolve only with equal precision and scale",
    ]);
    expect(backwardProblems('AVRO', amount(decimal(10, 2)), amount('bytes'))).toEqual([]);
    expect(backwardProblems('AVRO', amount({ type: 'long', logicalType: 'timestamp-millis' }), amount({ type: 'long', logicalType: 'timestamp-micros' }))).toEqual([]);
  });

  it('gives each problem its rule and field path for the compatibility modes', () => {
    const [oldType, newType] = [
      record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'string' }])], default: null }, { name: 'tags', type: { type: 'map', values: ['int', 'string'] } }]),
      record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'int' }])], default: null }, { name: 'tags', type: { type: 'map', values: ['int'] } }, { name: 'n', type: 'int' }]),
    ].map(avroTypeOf);
    expect(avroReadProblems(newType, oldType).map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: 'home.street', rule: 'TYPE_MISMATCH' },
      { path: 'tags{}|string', rule: 'MISSING_UNION_BRANCH' },
      { path: 'n', rule: 'FIELD_NO_DEFAULT' },
    ]);
    // The other direction: the old version reading the new one's data (forward) finds nothing lacking but the type.
    expect(avroReadProblems(oldType, newType).map(({ path, rule }) => ({ path, rule }))).toEqual([{ path: 'home.street', rule: 'TYPE_MISMATCH' }]);
  });
});

// ---------- PROTOBUF ----------
