import { describe, expect, it } from 'vitest';
import { SchemaParseError, backwardProblems, parseSchema, parsedBackwardProblems } from '../../schema-formats/index';

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

const proto = (body: string, pkg = 'com.acme') => `syntax = "proto3";\npackage ${pkg};\n${body}\n`;

describe('backwardProblems: PROTOBUF', () => {
  const base = proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n}');

  it.each([
    ['identical text', base, base],
    ['whitespace and comments changed', base, `// orders\n${base.replace(/\n/g, '\n\n')}`],
    ['a field removed', base, proto('message Order {\n  int32 id = 1;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n}')],
    ['a field added under a new number', base, proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n  bool paid = 4;\n}')],
    ['a removed number reserved', base, proto('message Order {\n  reserved 2;\n  int32 id = 1;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n}')],
    ['a nested type written fully qualified', base, proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated com.acme.Order.Line lines = 3;\n}')],
    ['a new message added', base, `${base}message Refund { int32 id = 1; }\n`],
  ])('accepts %s', (_label, oldText, newText) => {
    expect(backwardProblems('PROTOBUF', oldText, newText)).toEqual([]);
  });

  it.each([
    [
      'a number reused with another type',
      proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n  string ident = 5;\n}'),
      proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n  int64 ident = 5;\n}'),
      ["message 'com.acme.Order' field 5 was 'string ident', now 'int64 ident'"],
    ],
    [
      'a number reused with another name',
      base,
      base.replace('string name = 2;', 'string title = 2;'),
      ["message 'com.acme.Order' field 2 was 'string name', now 'string title'"],
    ],
    [
      'a number reused with another type and name',
      proto('message M {\n  int32 id = 5;\n}'),
      proto('message M {\n  string ident = 5;\n}'),
      ["message 'com.acme.M' field 5 was 'int32 id', now 'string ident'"],
    ],
    [
      'a field made repeated',
      base,
      base.replace('string name = 2;', 'repeated string name = 2;'),
      ["message 'com.acme.Order' field 2 was 'string name', now 'repeated string name'"],
    ],
    [
      'a changed field in a nested message',
      base,
      base.replace('int32 qty = 2;', 'double qty = 2;'),
      ["message 'com.acme.Order.Line' field 2 was 'int32 qty', now 'double qty'"],
    ],
    [
      'a message-typed field pointing at another message',
      proto('message A {}\nmessage B {}\nmessage M { A part = 1; }'),
      proto('message A {}\nmessage B {}\nmessage M { B part = 1; }'),
      ["message 'com.acme.M' field 1 was 'com.acme.A part', now 'com.acme.B part'"],
    ],
    [
      'a map value type changed',
      proto('message M { map<string, int32> counts = 1; }'),
      proto('message M { map<string, string> counts = 1; }'),
      ["message 'com.acme.M' field 1 was 'map<string, int32> counts', now 'map<string, string> counts'"],
    ],
    [
      'two messages changed at once',
      proto('message A { int32 x = 1; }\nmessage B { int32 y = 1; }'),
      proto('message A { int64 x = 1; }\nmessage B { int32 z = 1; }'),
      ["message 'com.acme.A' field 1 was 'int32 x', now 'int64 x'", "message 'com.acme.B' field 1 was 'int32 y', now 'int32 z'"],
    ],
  ])('refuses %s', (_label, oldText, newText, expected) => {
    expect(backwardProblems('PROTOBUF', oldText, newText)).toEqual(expected);
  });

  it('compares messages by package-qualified name: a moved message is a different message', () => {
    const moved = proto('message Order { string id = 1; }', 'com.other');
    expect(backwardProblems('PROTOBUF', proto('message Order { int32 id = 1; }'), moved)).toEqual([]);
  });
});

// ---------- JSON_SCHEMA ----------

const jsonSchema = (extra: Record<string, unknown>) => JSON.stringify({ title: 'Customer', type: 'object', ...extra });

describe('backwardProblems: JSON_SCHEMA', () => {
  const base = jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] });

  it.each([
    ['identical text', base, base],
    ['a required property dropped from required', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } } })],
    ['an optional property added', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, age: { type: 'integer' } }, required: ['id'] })],
    ['a property removed', base, jsonSchema({ properties: { id: { type: 'integer' } }, required: ['id'] })],
    ['integer widened to number', base, jsonSchema({ properties: { id: { type: 'number' }, name: { type: 'string' } }, required: ['id'] })],
    ['a type added to the set', base, jsonSchema({ properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } }, required: ['id'] })],
    ['a type constraint removed', base, jsonSchema({ properties: { id: {}, name: { type: 'string' } }, required: ['id'] })],
    ['the same type set in another order', jsonSchema({ properties: { v: { type: ['string', 'null'] } } }), jsonSchema({ properties: { v: { type: ['null', 'string'] } } })],
    ['a property moved into definitions behind a $ref', base, jsonSchema({ properties: { id: { $ref: '#/definitions/Id' }, name: { type: 'string' } }, required: ['id'], definitions: { Id: { type: 'integer' } } })],
  ])('accepts %s', (_label, oldText, newText) => {
    expect(backwardProblems('JSON_SCHEMA', oldText, newText)).toEqual([]);
  });

  it.each([
    [
      'a property newly required',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] }),
      ["property 'name' became required"],
    ],
    [
      'a new property that is required',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } }, required: ['id', 'email'] }),
      ["property 'email' became required"],
    ],
    [
      'a type changed',
      base,
      jsonSchema({ properties: { id: { type: 'integer' }, name: { type: 'integer' } }, required: ['id'] }),
      ["property 'name' changed type from string to integer"],
    ],
    [
      'number narrowed to integer',
      jsonSchema({ properties: { amount: { type: 'number' } } }),
      jsonSchema({ properties: { amount: { type: 'integer' } } }),
      ["property 'amount' changed type from number to integer"],
    ],
    [
      'a type removed from the set',
      jsonSchema({ properties: { v: { type: ['string', 'null'] } } }),
      jsonSchema({ properties: { v: { type: 'string' } } }),
      ["property 'v' changed type from string|null to string"],
    ],
    [
      'a type added where any type was allowed',
      jsonSchema({ properties: { v: {} } }),
      jsonSchema({ properties: { v: { type: 'string' } } }),
      ["property 'v' changed type from any to string"],
    ],
    [
      'the root type changed',
      base,
      JSON.stringify({ title: 'Customer', type: 'array' }),
      ['the root schema changed type from object to array'],
    ],
    [
      'a nested property newly required',
      jsonSchema({ properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } }),
      jsonSchema({ properties: { address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } } }),
      ["property 'address.street' became required"],
    ],
    [
      'a nested type changed',
      jsonSchema({ properties: { address: { type: 'object', properties: { geo: { type: 'object', properties: { lat: { type: 'number' } } } } } } }),
      jsonSchema({ properties: { address: { type: 'object', properties: { geo: { type: 'object', properties: { lat: { type: 'string' } } } } } } }),
      ["property 'address.geo.lat' changed type from number to string"],
    ],
    [
      'a property of array items changed',
      jsonSchema({ properties: { lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } } } }),
      jsonSchema({ properties: { lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'string' } }, required: ['qty'] } } } }),
      ["property 'lines[].qty' became required", "property 'lines[].qty' changed type from integer to string"],
    ],
  ])('refuses %s', (_label, oldText, newText, expected) => {
    expect(backwardProblems('JSON_SCHEMA', oldText, newText)).toEqual(expected);
  });

  it.each([
    [
      'draft-07 definitions',
      (street: Record<string, unknown>, required: string[]) =>
        jsonSchema({ properties: { address: { $ref: '#/definitions/Address' } }, definitions: { Address: { type: 'object', properties: { street }, required } } }),
    ],
    [
      '2020-12 $defs',
      (street: Record<string, unknown>, required: string[]) =>
        jsonSchema({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          properties: { address: { $ref: '#/$defs/Address' } },
          $defs: { Address: { type: 'object', properties: { street }, required } },
        }),
    ],
  ])('follows local $ref into %s', (_label, schema) => {
    expect(backwardProblems('JSON_SCHEMA', schema({ type: 'string' }, []), schema({ type: 'string' }, []))).toEqual([]);
    expect(backwardProblems('JSON_SCHEMA', schema({ type: 'string' }, []), schema({ type: 'integer' }, ['street']))).toEqual([
      "property 'address.street' became required",
      "property 'address.street' changed type from string to integer",
    ]);
  });

  it('terminates on recursive $refs and explains the first level', () => {
    const tree = (valueType: string) =>
      jsonSchema({ $ref: '#/definitions/Node', definitions: { Node: { type: 'object', properties: { value: { type: valueType }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } } } } });
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('string'))).toEqual([]);
    expect(backwardProblems('JSON_SCHEMA', tree('string'), tree('boolean'))).toEqual(["property 'value' changed type from string to boolean"]);
  });
});

// ---------- shared behaviour ----------

describe('backwardProblems: invalid input', () => {
  const validAvro = record([{ name: 'id', type: 'int' }]);
  it.each([
    ['AVRO', '{"type": "record"', validAvro],
    ['AVRO', validAvro, '"int"'],
    ['PROTOBUF', 'message {', 'message M {}'],
    ['JSON_SCHEMA', '{"type": "object"}', '{"title": "T"}'],
    ['JSON_SCHEMA', '{"title": "T"}', 'not json'],
  ] as const)('%s: throws SchemaParseError when either text does not parse', (type, oldText, newText) => {
    expect(() => backwardProblems(type, oldText, newText)).toThrow(SchemaParseError);
  });

  it('throws even for identical invalid texts (identical is only a shortcut after parsing)', () => {
    expect(() => backwardProblems('AVRO', '{', '{')).toThrow(SchemaParseError);
  });

  it('refuses comparing versions of different types', () => {
    const avro = parseSchema(validAvro, 'AVRO');
    const json = parseSchema('{"title": "T"}', 'JSON_SCHEMA');
    expect(parsedBackwardProblems(avro, json)).toEqual(['the schema type changed from AVRO to JSON_SCHEMA']);
  });
});
