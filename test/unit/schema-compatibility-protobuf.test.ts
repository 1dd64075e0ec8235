/** Backward compatibility of PROTOBUF versions, and of invalid input of any format. */
import { describe, expect, it } from 'vitest';
import { SchemaParseError, backwardProblems, parseSchema, parsedBackwardProblems } from '../../schema-formats/index';

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


describe('backwardProblems: invalid input', () => {
  const validAvro = JSON.stringify({ type: 'record', name: 'User', namespace: 'com.acme', fields: [{ name: 'id', type: 'int' }] });
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
