import { describe, expect, it } from 'vitest';
import {
  SCHEMA_TYPES,
  SchemaParseError,
  isSchemaType,
  parseSchema,
  type ParsedSchema,
  type SchemaType,
} from '../../schema-formats/index';

/** The problems of the SchemaParseError thrown by `parse`, failing the test when nothing (or something else) is thrown. */
function problemsOf(text: string, type?: SchemaType): string[] {
  try {
    parseSchema(text, type);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaParseError);
    expect(error).toBeInstanceOf(Error);
    return (error as SchemaParseError).problems;
  }
  throw new Error(`expected a SchemaParseError for ${JSON.stringify(text)}`);
}

const avroRecord = {
  type: 'record',
  name: 'User',
  namespace: 'com.acme',
  doc: 'keys stay in upload order',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'email', type: ['null', 'string'], default: null },
  ],
};

describe('parseSchema: AVRO', () => {
  it.each([
    ['a record with a namespace', avroRecord, 'com.acme.User'],
    ['a record without a namespace', { type: 'record', name: 'Plain', fields: [] }, 'Plain'],
    ['a record named with dots', { type: 'record', name: 'org.example.Event', fields: [] }, 'org.example.Event'],
    ['an error type', { type: 'error', name: 'Failure', namespace: 'x', fields: [] }, 'x.Failure'],
    ['an enum', { type: 'enum', name: 'Colour', namespace: 'paint', symbols: ['RED', 'GREEN'] }, 'paint.Colour'],
    ['a fixed', { type: 'fixed', name: 'Md5', namespace: 'hash', size: 16 }, 'hash.Md5'],
  ])('parses %s and names it by namespace.name', (_label, schema, fullName) => {
    const parsed = parseSchema(JSON.stringify(schema), 'AVRO');
    expect(parsed.type).toBe('AVRO');
    expect(parsed.fullName).toBe(fullName);
  });

  it('defaults to AVRO when no type is given', () => {
    const parsed = parseSchema(JSON.stringify(avroRecord));
    expect(parsed.type).toBe('AVRO');
    expect(parsed.fullName).toBe('com.acme.User');
  });

  it('normalises to 2-space JSON keeping the uploaded key order', () => {
    const uploaded = '{"type":"record","namespace":"com.acme","name":"User",\n\n "fields":[{"type":"long","name":"id"}]}';
    const parsed = parseSchema(uploaded, 'AVRO');
    expect(parsed.normalised).toBe(
      [
        '{',
        '  "type": "record",',
        '  "namespace": "com.acme",',
        '  "name": "User",',
        '  "fields": [',
        '    {',
        '      "type": "long",',
        '      "name": "id"',
        '    }',
        '  ]',
        '}',
      ].join('\n'),
    );
  });

  it('keeps the avsc type as the parsed form', () => {
    const parsed = parseSchema(JSON.stringify(avroRecord), 'AVRO') as Extract<ParsedSchema, { type: 'AVRO' }>;
    expect(parsed.avroType.typeName).toBe('record');
    expect(parsed.avroType.isValid({ id: 1, email: null })).toBe(true);
    expect(parsed.avroType.isValid({ id: 'one', email: null })).toBe(false);
  });

  it.each([
    ['a trailing comma in an object', '{\n  "type": "record",\n  "name": "A",\n  "fields": [],\n}', 'line 5, column 1: invalid JSON: '],
    ['a trailing comma in an array', '{\n  "type": "enum",\n  "name": "E",\n  "symbols": ["A",]\n}', 'line 4, column 19: invalid JSON: '],
    ['a missing comma', '{\n  "type": "record"\n  "name": "A"\n}', 'line 3, column 3: invalid JSON: '],
    ['an unquoted word', '{"type": record}', 'line 1, column 10: invalid JSON: '],
    ['an empty text', '', 'line 1, column 1: invalid JSON: '],
    ['a truncated document', '{"type": "record", "name": "A", "fields": [', 'line 1, column 44: invalid JSON: '],
    ['text after the document', '{"type": "fixed", "name": "F", "size": 1} extra', 'line 1, column 43: invalid JSON: '],
  ])('reports %s with its line and column', (_label, text, prefix) => {
    const problems = problemsOf(text, 'AVRO');
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(prefix)).toBe(true);
    // the parser's own words follow the position
    expect(problems[0].length).toBeGreaterThan(prefix.length + 5);
  });

  it.each([
    ['an unknown type name', { type: 'record', name: 'A', fields: [{ name: 'x', type: 'nope' }] }, 'undefined type name: nope'],
    ['a duplicate enum symbol', { type: 'enum', name: 'E', symbols: ['A', 'A'] }, 'duplicate "E" symbol: "A"'],
    ['a default of the wrong type', { type: 'record', name: 'A', fields: [{ name: 'x', type: 'int', default: 's' }] }, 'incompatible field default'],
    ['a fixed without size', { type: 'fixed', name: 'F' }, 'invalid F size'],
    ['a record without a name', { type: 'record', fields: [] }, 'missing name property'],
    ['an invalid field name', { type: 'record', name: 'A', fields: [{ name: '1x', type: 'int' }] }, 'invalid field name'],
  ])('reports %s with avsc’s message', (_label, schema, message) => {
    const problems = problemsOf(JSON.stringify(schema), 'AVRO');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it.each([
    ['a primitive', '"string"', 'string'],
    ['an array', '{"type": "array", "items": "int"}', 'array'],
    ['a map', '{"type": "map", "values": "int"}', 'map'],
    ['a union', '["null", "int"]', 'union:unwrapped'],
  ])('refuses %s as top type: a named type is required', (_label, text, got) => {
    expect(problemsOf(text, 'AVRO')).toEqual([
      `a named type is required at the top level (record, enum or fixed), got ${got}: its name becomes the schema's fullName`,
    ]);
  });
});

const proto = `
syntax = "proto3";
package com.acme.orders;

enum Status { NEW = 0; DONE = 1; }

message Order {
  int64 id = 1;
  Status status = 2;
  message Line {
    string sku = 1;
    int32 quantity = 2;
  }
  repeated Line lines = 3;
}

message Other { string x = 1; }
`;

describe('parseSchema: PROTOBUF', () => {
  it('names the schema by the first message, package-qualified, and trims the text', () => {
    const parsed = parseSchema(proto, 'PROTOBUF');
    expect(parsed.type).toBe('PROTOBUF');
    expect(parsed.fullName).toBe('com.acme.orders.Order');
    expect(parsed.normalised).toBe(proto.trim());
    expect(parsed.normalised.startsWith('syntax')).toBe(true);
  });

  it.each([
    ['no package', 'syntax = "proto3";\nmessage Solo { string a = 1; }', 'Solo'],
    ['a one-part package', 'syntax = "proto3";\npackage shop;\nmessage Cart { string a = 1; }', 'shop.Cart'],
    ['an enum before the first message', 'syntax = "proto3";\npackage p;\nenum E { A = 0; }\nmessage M {}', 'p.M'],
    ['a nested message inside the first one', 'syntax = "proto3";\npackage p;\nmessage Outer { message Inner {} Inner i = 1; }\nmessage Later {}', 'p.Outer'],
    ['proto2 syntax', 'syntax = "proto2";\npackage legacy;\nmessage Old { required int32 id = 1; }', 'legacy.Old'],
    ['no syntax line and a service', 'package svc;\nservice S { rpc Get (Req) returns (Req); }\nmessage Req {}', 'svc.Req'],
  ])('handles %s', (_label, text, fullName) => {
    expect(parseSchema(text, 'PROTOBUF').fullName).toBe(fullName);
  });

  it('keeps the protobufjs root with nested messages as the parsed form', () => {
    const parsed = parseSchema(proto, 'PROTOBUF') as Extract<ParsedSchema, { type: 'PROTOBUF' }>;
    expect(parsed.message.fullName).toBe('.com.acme.orders.Order');
    expect(parsed.root.lookupType('com.acme.orders.Order.Line').fieldsById[2].name).toBe('quantity');
  });

  it.each([
    ['a missing semicolon', 'syntax = "proto3";\npackage p;\nmessage M {\n  int32 id = 1\n}', "line 5: illegal token '}', ';' expected"],
    ['a field number that is not a number', 'syntax = "proto3";\nmessage M {\n  int32 id = x;\n}', "line 3: illegal id 'x'"],
    ['a message without a name', 'syntax = "proto3";\n\nmessage { }', "line 3: illegal type name '{'"],
    ['an unterminated message', 'syntax = "proto3";\nmessage M {\n  int32 id = 1;\n', 'line 4: illegal end of input'],
  ])('reports %s with its line', (_label, text, expected) => {
    const problems = problemsOf(text, 'PROTOBUF');
    expect(problems).toHaveLength(1);
    expect(problems[0].startsWith(expected)).toBe(true);
  });

  it.each([
    ['only an enum', 'syntax = "proto3";\npackage p;\nenum E { A = 0; }'],
    ['only a syntax line', 'syntax = "proto3";'],
    ['an empty text', ''],
  ])('refuses %s: a message is required', (_label, text) => {
    expect(problemsOf(text, 'PROTOBUF')).toEqual(['no message is defined: the first message names the schema']);
  });
});

const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Customer',
  type: 'object',
  properties: { id: { type: 'integer' }, address: { $ref: '#/definitions/Address' } },
  definitions: { Address: { type: 'object', properties: { street: { type: 'string' } } } },
};

const draft2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Invoice',
  type: 'object',
  properties: { total: { type: 'number' }, payer: { $ref: '#/$defs/Payer' } },
  $defs: { Payer: { type: 'object', properties: { name: { type: 'string' } } } },
};

describe('parseSchema: JSON_SCHEMA', () => {
  it.each([
    ['draft-07', draft07, 'Customer', 'draft-07'],
    ['2020-12', draft2020, 'Invoice', '2020-12'],
    ['no $schema (draft-07 assumed)', { title: 'Loose', type: 'string' }, 'Loose', 'draft-07'],
    ['draft-07 without the trailing #', { $schema: 'http://json-schema.org/draft-07/schema', title: 'T' }, 'T', 'draft-07'],
  ])('parses %s, named by its title', (_label, schema, fullName, dialect) => {
    const parsed = parseSchema(JSON.stringify(schema), 'JSON_SCHEMA') as Extract<ParsedSchema, { type: 'JSON_SCHEMA' }>;
    expect(parsed.type).toBe('JSON_SCHEMA');
    expect(parsed.fullName).toBe(fullName);
    expect(parsed.dialect).toBe(dialect);
    expect(parsed.document).toEqual(schema);
  });

  it('parses uploads that reuse an $id, one after the other', () => {
    const withId = (title: string) => JSON.stringify({ $id: 'https://example.com/customer.json', title, properties: { a: { $id: '#inner', type: 'string' } } });
    expect(parseSchema(withId('First'), 'JSON_SCHEMA').fullName).toBe('First');
    expect(parseSchema(withId('Second'), 'JSON_SCHEMA').fullName).toBe('Second');
  });

  it('normalises like AVRO: 2-space JSON in the uploaded key order', () => {
    const parsed = parseSchema('{"type":"string","title":"Name"}', 'JSON_SCHEMA');
    expect(parsed.normalised).toBe('{\n  "type": "string",\n  "title": "Name"\n}');
  });

  it.each([
    ['no title', { type: 'object' }, ['/title: title is required: it names the schema']],
    ['an empty title', { title: ' ', type: 'object' }, ['/title: title must not be blank: it names the schema']],
    ['a numeric title (the meta-schema says so, once)', { title: 7 }, ['/title: must be string']],
    ['a JSON array', [1, 2], ['/: a JSON Schema must be a JSON object']],
    ['a JSON string', 'schema', ['/: a JSON Schema must be a JSON object']],
    ['a JSON null', null, ['/: a JSON Schema must be a JSON object']],
    ['a negative minLength', { title: 'T', minLength: -1 }, ['/minLength: must be >= 0']],
    [
      'a missing local $ref',
      { title: 'T', properties: { a: { $ref: '#/definitions/missing' } } },
      ["/properties/a/$ref: can't resolve reference #/definitions/missing from id #"],
    ],
    [
      'an unsupported dialect',
      { $schema: 'http://json-schema.org/draft-04/schema#', title: 'T' },
      ['/$schema: unsupported dialect "http://json-schema.org/draft-04/schema#"; use draft-07 or 2020-12'],
    ],
  ])('refuses %s', (_label, schema, expected) => {
    expect(problemsOf(JSON.stringify(schema), 'JSON_SCHEMA')).toEqual(expected);
  });

  it('reports every meta-schema problem at its JSON path, and a missing title alongside', () => {
    const problems = problemsOf('{"type": "object", "properties": {"a": {"type": "nope"}}}', 'JSON_SCHEMA');
    expect(problems).toContain('/properties/a/type: must be equal to one of the allowed values');
    expect(problems.at(-1)).toBe('/title: title is required: it names the schema');
  });

  it('applies the 2020-12 meta-schema to 2020-12 documents', () => {
    // `prefixItems` must be an array only under 2020-12; draft-07 ignores the unknown keyword.
    const schema = (dialect: string) => JSON.stringify({ $schema: dialect, title: 'T', prefixItems: 5 });
    expect(problemsOf(schema('https://json-schema.org/draft/2020-12/schema'), 'JSON_SCHEMA')).toEqual(['/prefixItems: must be array']);
    expect(parseSchema(schema('http://json-schema.org/draft-07/schema#'), 'JSON_SCHEMA').fullName).toBe('T');
  });

  it('reports invalid JSON with its line and column', () => {
    const problems = problemsOf('{\n  "title": "T",\n  "type": "object",\n}', 'JSON_SCHEMA');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^line 4, column 1: invalid JSON: \S/);
  });
});

describe('schema types', () => {
  it('lists exactly the three contract types', () => {
    expect(SCHEMA_TYPES).toEqual(['AVRO', 'PROTOBUF', 'JSON_SCHEMA']);
  });

  it.each([
    ['AVRO', true],
    ['PROTOBUF', true],
    ['JSON_SCHEMA', true],
    ['avro', false],
    ['JSON', false],
    [undefined, false],
  ])('isSchemaType(%s) is %s', (value, expected) => {
    expect(isSchemaType(value)).toBe(expected);
  });

  it('carries the type and problems on the error and in its message', () => {
    try {
      parseSchema('{}', 'JSON_SCHEMA');
      expect.unreachable();
    } catch (error) {
      const parseError = error as SchemaParseError;
      expect(parseError.name).toBe('SchemaParseError');
      expect(parseError.schemaType).toBe('JSON_SCHEMA');
      expect(parseError.message).toBe('Invalid JSON_SCHEMA schema: /title: title is required: it names the schema');
    }
  });
});
