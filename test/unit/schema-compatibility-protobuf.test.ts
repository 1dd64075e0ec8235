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
    // Field names never reach the binary wire: Buf's FIELD_SAME_NAME is a WIRE_JSON rule, not a WIRE one, and
    // Confluent's SchemaDiff counts FIELD_NAME_CHANGED as compatible. This was refused before.
    ['a number reused with another name', base, base.replace('string name = 2;', 'string title = 2;')],
    // FIELD_WIRE_COMPATIBLE_TYPE: int32 and int64 are one varint group; string data reads as bytes.
    ['int32 widened to int64', base, base.replace('int32 id = 1;', 'int64 id = 1;')],
    ['a string read as bytes', base, base.replace('string name = 2;', 'bytes name = 2;')],
  ])('accepts %s', (_label, oldText, newText) => {
    expect(backwardProblems('PROTOBUF', oldText, newText)).toEqual([]);
  });

  it.each([
    [
      'a number reused with another type',
      proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n  string ident = 5;\n}'),
      proto('message Order {\n  int32 id = 1;\n  string name = 2;\n  message Line { string sku = 1; int32 qty = 2; }\n  repeated Line lines = 3;\n  int64 ident = 5;\n}'),
      ["'com.acme.Order.ident' (field 5) is written as string, read as int64: different wire types"],
    ],
    [
      'a number reused with another type and name',
      proto('message M {\n  int32 id = 5;\n}'),
      proto('message M {\n  string ident = 5;\n}'),
      ["'com.acme.M.ident' (field 5) is written as int32, read as string: different wire types"],
    ],
    [
      'bytes read as a string',
      base.replace('string name = 2;', 'bytes name = 2;'),
      base,
      ["'com.acme.Order.name' (field 2) is written as bytes, read as string: different wire types (bytes need not be valid UTF-8)"],
    ],
    [
      'a field made repeated',
      base,
      base.replace('string name = 2;', 'repeated string name = 2;'),
      ["'com.acme.Order.name' (field 2) is optional when written and repeated when read: not wire compatible"],
    ],
    [
      'a changed field in a nested message',
      base,
      base.replace('int32 qty = 2;', 'double qty = 2;'),
      ["'com.acme.Order.Line.qty' (field 2) is written as int32, read as double: different wire types"],
    ],
    [
      'a message-typed field pointing at another message',
      proto('message A {}\nmessage B {}\nmessage M { A part = 1; }'),
      proto('message A {}\nmessage B {}\nmessage M { B part = 1; }'),
      ["'com.acme.M.part' (field 1) is written as message com.acme.A, read as message com.acme.B"],
    ],
    [
      'a map value type changed',
      proto('message M { map<string, int32> counts = 1; }'),
      proto('message M { map<string, string> counts = 1; }'),
      ["'com.acme.M.counts' (field 1) is written as map<string, int32>, read as map<string, string>: the values differ (written as int32, read as string: different wire types)"],
    ],
    [
      // int32 → int64 and a rename, which this case used to change, are wire compatible now (see the accepted ones).
      'two messages changed at once',
      proto('message A { int32 x = 1; }\nmessage B { int32 y = 1; }'),
      proto('message A { string x = 1; }\nmessage B { repeated int32 y = 1; }'),
      [
        "'com.acme.A.x' (field 1) is written as int32, read as string: different wire types",
        "'com.acme.B.y' (field 1) is optional when written and repeated when read: not wire compatible",
      ],
    ],
    [
      'a field moved into a oneof',
      base,
      base.replace('string name = 2;', 'oneof label { string name = 2; }'),
      ["'com.acme.Order.name' (field 2) is outside any oneof when written and in oneof 'label' when read"],
    ],
    [
      'a new proto2 required field',
      'syntax = "proto2";\npackage com.acme;\nmessage M { optional int32 id = 1; }\n',
      'syntax = "proto2";\npackage com.acme;\nmessage M { optional int32 id = 1; required string name = 2; }\n',
      ["'com.acme.M.name' (field 2) is required in the reader's schema but not in the writer's: data without it fails to parse where it is required"],
    ],
    [
      'a message removed',
      `${base}message Refund { int32 id = 1; }\n`,
      base,
      ["message 'com.acme.Refund' of the writer's schema is not in the reader's"],
    ],
  ])('refuses %s', (_label, oldText, newText, expected) => {
    expect(backwardProblems('PROTOBUF', oldText, newText)).toEqual(expected);
  });

  // Buf's FILE_SAME_PACKAGE (a WIRE rule) and Confluent's PACKAGE_CHANGED refuse a package rename: every message's
  // full name changes. Messages still pair by their name within the package, so the field change is found too.
  // This was accepted before ("a moved message is a different message").
  it('refuses a package rename, and still compares the messages it holds', () => {
    const moved = proto('message Order { string id = 1; }', 'com.other');
    expect(backwardProblems('PROTOBUF', proto('message Order { int32 id = 1; }'), moved)).toEqual([
      "the package is 'com.acme' when written and 'com.other' when read: every message's full name changes",
      "'com.other.Order.id' (field 1) is written as int32, read as string: different wire types",
    ]);
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
