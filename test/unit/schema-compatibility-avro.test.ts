/** Backward compatibility of AVRO versions (new reader, old data): each rule, with the exact reason. */
import { describe, expect, it } from 'vitest';
import { backwardProblems, parseSchema } from '../../schema-formats/index';

// ---------- AVRO ----------

type Field = { name: string; type: unknown; default?: unknown; aliases?: string[] };

function record(fields: Field[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'record', name: 'User', namespace: 'com.acme', fields, ...extra });
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
      `field 'v' changed type from ${from} to ${to}`,
    ]);
  });

  it.each([
    [
      'a field added without a default',
      base,
      record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'age', type: 'int' }]),
      ["field 'age' was added without a default"],
    ],
    [
      'a field renamed without an alias (a new field without a default)',
      base,
      record([{ name: 'id', type: 'int' }, { name: 'fullName', type: 'string' }]),
      ["field 'fullName' was added without a default"],
    ],
    [
      'a field made non-nullable',
      record([{ name: 'id', type: ['null', 'int'], default: null }]),
      record([{ name: 'id', type: 'int' }]),
      ["field 'id' changed type from union<null, int> to int"],
    ],
    [
      'a union branch that no longer fits',
      record([{ name: 'id', type: 'int' }]),
      record([{ name: 'id', type: ['null', 'string'] }]),
      ["field 'id' changed type from int to union<null, string>"],
    ],
    [
      'a record turned into an array',
      record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]),
      record([{ name: 'home', type: { type: 'array', items: 'string' } }]),
      ["field 'home' changed type from record com.acme.Address to array<string>"],
    ],
    [
      'an enum symbol removed without a default',
      record([{ name: 'state', type: status(['NEW', 'OPEN', 'DONE']) }]),
      record([{ name: 'state', type: status(['NEW']) }]),
      ["enum 'com.acme.Status' lost symbol 'OPEN' (field 'state')", "enum 'com.acme.Status' lost symbol 'DONE' (field 'state')"],
    ],
    [
      'the record renamed without an alias',
      base,
      JSON.stringify({ type: 'record', name: 'Person', namespace: 'com.acme', fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }] }),
      ["record 'com.acme.User' was renamed to 'com.acme.Person' without listing 'com.acme.User' in its aliases"],
    ],
    [
      'the namespace changed without an alias',
      base,
      record([{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }], { namespace: 'org.acme' }),
      ["record 'com.acme.User' was renamed to 'org.acme.User' without listing 'com.acme.User' in its aliases"],
    ],
    [
      'a nested record renamed without an alias',
      record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }]),
      record([{ name: 'home', type: { type: 'record', name: 'Location', fields: [{ name: 'street', type: 'string' }] } }]),
      ["record 'com.acme.Address' was renamed to 'com.acme.Location' without listing 'com.acme.Address' in its aliases (field 'home')"],
    ],
    [
      'an enum renamed without an alias (its default still covers the lost symbol)',
      record([{ name: 's', type: status(['A', 'B']) }]),
      record([{ name: 's', type: { type: 'enum', name: 'State', symbols: ['A'], default: 'A' } }]),
      ["enum 'com.acme.Status' was renamed to 'com.acme.State' without listing 'com.acme.Status' in its aliases (field 's')"],
    ],
    [
      'a fixed resized',
      record([{ name: 'hash', type: { type: 'fixed', name: 'Hash', size: 16 } }]),
      record([{ name: 'hash', type: { type: 'fixed', name: 'Hash', size: 32 } }]),
      ["fixed 'com.acme.Hash' changed size from 16 to 32 (field 'hash')"],
    ],
    [
      'array items demoted',
      record([{ name: 'xs', type: { type: 'array', items: 'long' } }]),
      record([{ name: 'xs', type: { type: 'array', items: 'int' } }]),
      ["field 'xs[]' changed type from long to int"],
    ],
    [
      'map values changed',
      record([{ name: 'm', type: { type: 'map', values: 'string' } }]),
      record([{ name: 'm', type: { type: 'map', values: 'boolean' } }]),
      ["field 'm{}' changed type from string to boolean"],
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
      "field 'id' changed type from int to string",
      "enum 'com.acme.Status' lost symbol 'B' (field 'state')",
      "field 'home.street' changed type from string to int",
      "field 'home.zip' was added without a default",
      "field 'home.geo.lat' changed type from double to float",
      "field 'added' was added without a default",
    ]);
  });

  it('names fields inside nullable nested records and arrays of records', () => {
    const item = (qty: string) => ({ type: 'array', items: { type: 'record', name: 'Line', fields: [{ name: 'qty', type: qty }] } });
    const oldText = record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'string' }])], default: null }, { name: 'lines', type: item('int') }]);
    const newText = record([{ name: 'home', type: ['null', address([{ name: 'street', type: 'boolean' }])], default: null }, { name: 'lines', type: item('string') }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([
      "field 'home.street' changed type from string to boolean",
      "field 'lines[].qty' changed type from int to string",
    ]);
  });

  it('explains a named record under every field that uses it', () => {
    const oldText = record([{ name: 'home', type: address([{ name: 'street', type: 'string' }]) }, { name: 'work', type: 'Address' }]);
    const newText = record([{ name: 'home', type: address([{ name: 'street', type: 'int' }]) }, { name: 'work', type: 'Address' }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual([
      "field 'home.street' changed type from string to int",
      "field 'work.street' changed type from string to int",
    ]);
  });

  it('terminates on recursive records and still explains them', () => {
    const list = (value: string) => JSON.stringify({ type: 'record', name: 'Node', fields: [{ name: 'value', type: value }, { name: 'next', type: ['null', 'Node'], default: null }] });
    expect(backwardProblems('AVRO', list('int'), list('long'))).toEqual([]);
    expect(backwardProblems('AVRO', list('int'), list('string'))).toEqual(["field 'value' changed type from int to string"]);
  });

  it('falls back to avsc’s own reason when the walk finds none', () => {
    // One reader field aliasing two writer fields is ambiguous: avsc refuses, and no field rule describes it.
    const oldText = record([{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }]);
    const newText = record([{ name: 'c', type: 'int', aliases: ['a', 'b'] }]);
    expect(backwardProblems('AVRO', oldText, newText)).toEqual(['Avro schema resolution failed: ambiguous aliasing for com.acme.User.c ([ \'a\', \'b\' ])']);
  });

  it('reports a changed top-level kind', () => {
    const asEnum = JSON.stringify({ type: 'enum', name: 'User', namespace: 'com.acme', symbols: ['A'] });
    expect(backwardProblems('AVRO', base, asEnum)).toEqual(['the top-level type changed from record com.acme.User to enum com.acme.User']);
  });

  it('agrees with avsc schema resolution', () => {
    // The walk explains; avsc decides. A pair the walk accepts must resolve, one it refuses must not.
    const accepted = record([{ name: 'id', type: 'long' }]);
    const refused = record([{ name: 'id', type: 'int' }, { name: 'extra', type: 'int' }]);
    const [oldType, okType, badType] = [base, accepted, refused].map((t) => {
      const parsed = parseSchema(t, 'AVRO');
      if (parsed.type !== 'AVRO') throw new Error('expected AVRO');
      return parsed.avroType;
    });
    expect(() => okType.createResolver(oldType)).not.toThrow();
    expect(() => badType.createResolver(oldType)).toThrow();
    expect(backwardProblems('AVRO', base, refused)).toEqual(["field 'extra' was added without a default"]);
  });
});

// ---------- PROTOBUF ----------
