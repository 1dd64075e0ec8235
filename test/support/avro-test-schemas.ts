/**
 * The schemas of Apache Avro's Java test suite (lang/java/avro/src/test/java/org/apache/avro/TestSchemas.java), as
 * JSON under the same names, so a case taken from that suite reads exactly as its source does.
 */
type Json = unknown;
type Field = { name: string; type: Json; default?: unknown; aliases?: string[] };

const record = (name: string, fields: Field[], extra: Record<string, unknown> = {}) => ({ type: 'record', name, fields, ...extra });
const enumOf = (name: string, symbols: string[], extra: Record<string, unknown> = {}) => ({ type: 'enum', name, symbols, ...extra });
const fixed = (name: string, size: number) => ({ type: 'fixed', name, size });

const FIXED_4_BYTES = fixed('Fixed', 4);
const FIXED_8_BYTES = fixed('Fixed', 8);
const ENUM1_AB_SCHEMA = enumOf('Enum1', ['A', 'B']);
const ENUM2_AB_SCHEMA = enumOf('Enum2', ['A', 'B']);
const INT_ARRAY_SCHEMA = { type: 'array', items: 'int' };
const INT_MAP_SCHEMA = { type: 'map', values: 'int' };
const nsRecord = (namespace: string) =>
  record('Record1', [{ name: 'f1', type: ['null', { type: 'array', items: record('InnerRecord1', [{ name: 'a', type: 'int' }], { namespace }) }] }]);
const list = (head: string) => record('List', [{ name: 'head', type: head }, { name: 'tail', type: 'List' }]);
const enumField = (symbols: string[], enumDefault: string, fieldDefault?: string) =>
  record('Record', [{ name: 'Field', type: enumOf('Schema', symbols, { default: enumDefault }), ...(fieldDefault ? { default: fieldDefault } : {}) }]);

export const TEST_SCHEMAS = {
  NULL_SCHEMA: 'null',
  BOOLEAN_SCHEMA: 'boolean',
  INT_SCHEMA: 'int',
  LONG_SCHEMA: 'long',
  FLOAT_SCHEMA: 'float',
  DOUBLE_SCHEMA: 'double',
  STRING_SCHEMA: 'string',
  BYTES_SCHEMA: 'bytes',

  INT_ARRAY_SCHEMA,
  LONG_ARRAY_SCHEMA: { type: 'array', items: 'long' },
  STRING_ARRAY_SCHEMA: { type: 'array', items: 'string' },
  INT_MAP_SCHEMA,
  LONG_MAP_SCHEMA: { type: 'map', values: 'long' },
  STRING_MAP_SCHEMA: { type: 'map', values: 'string' },

  ENUM1_AB_SCHEMA,
  ENUM1_AB_SCHEMA_DEFAULT: enumOf('Enum1', ['A', 'B'], { default: 'A' }),
  ENUM1_AB_SCHEMA_NAMESPACE_1: enumOf('Enum1', ['A', 'B'], { namespace: 'namespace1' }),
  ENUM1_AB_SCHEMA_NAMESPACE_2: enumOf('Enum1', ['A', 'B'], { namespace: 'namespace2' }),
  ENUM1_ABC_SCHEMA: enumOf('Enum1', ['A', 'B', 'C']),
  ENUM1_BC_SCHEMA: enumOf('Enum1', ['B', 'C']),
  ENUM2_AB_SCHEMA,
  ENUM_ABC_ENUM_DEFAULT_A_SCHEMA: enumOf('Enum', ['A', 'B', 'C'], { default: 'A' }),
  ENUM_AB_ENUM_DEFAULT_A_SCHEMA: enumOf('Enum', ['A', 'B'], { default: 'A' }),
  ENUM_ABC_ENUM_DEFAULT_A_RECORD: enumField(['A', 'B', 'C'], 'A'),
  ENUM_AB_ENUM_DEFAULT_A_RECORD: enumField(['A', 'B'], 'A'),
  ENUM_ABC_FIELD_DEFAULT_B_ENUM_DEFAULT_A_RECORD: enumField(['A', 'B', 'C'], 'A', 'B'),
  ENUM_AB_FIELD_DEFAULT_A_ENUM_DEFAULT_B_RECORD: enumField(['A', 'B'], 'B', 'A'),

  NULL_UNION_SCHEMA: ['null'],
  INT_UNION_SCHEMA: ['int'],
  LONG_UNION_SCHEMA: ['long'],
  FLOAT_UNION_SCHEMA: ['float'],
  DOUBLE_UNION_SCHEMA: ['double'],
  STRING_UNION_SCHEMA: ['string'],
  BYTES_UNION_SCHEMA: ['bytes'],
  INT_STRING_UNION_SCHEMA: ['int', 'string'],
  STRING_INT_UNION_SCHEMA: ['string', 'int'],
  INT_FLOAT_UNION_SCHEMA: ['int', 'float'],
  INT_LONG_UNION_SCHEMA: ['int', 'long'],
  INT_LONG_FLOAT_DOUBLE_UNION_SCHEMA: ['int', 'long', 'float', 'double'],
  NULL_INT_ARRAY_UNION_SCHEMA: ['null', INT_ARRAY_SCHEMA],
  NULL_INT_MAP_UNION_SCHEMA: ['null', INT_MAP_SCHEMA],

  EMPTY_RECORD1: record('Record1', []),
  EMPTY_RECORD2: record('Record2', []),
  A_INT_RECORD1: record('Record1', [{ name: 'a', type: 'int' }]),
  A_LONG_RECORD1: record('Record1', [{ name: 'a', type: 'long' }]),
  A_INT_B_INT_RECORD1: record('Record1', [{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }]),
  A_DINT_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }]),
  A_INT_B_DINT_RECORD1: record('Record1', [{ name: 'a', type: 'int' }, { name: 'b', type: 'int', default: 0 }]),
  A_DINT_B_DINT_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: 'int', default: 0 }]),
  A_DINT_B_DFIXED_4_BYTES_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: FIXED_4_BYTES }]),
  A_DINT_B_DFIXED_8_BYTES_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: FIXED_8_BYTES }]),
  A_DINT_B_DINT_STRING_UNION_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: ['int', 'string'], default: 0 }]),
  A_DINT_B_DINT_UNION_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: ['int'], default: 0 }]),
  A_DINT_B_DENUM_1_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: ENUM1_AB_SCHEMA }]),
  A_DINT_B_DENUM_2_RECORD1: record('Record1', [{ name: 'a', type: 'int', default: 0 }, { name: 'b', type: ENUM2_AB_SCHEMA }]),

  FIXED_4_BYTES,
  FIXED_8_BYTES,
  NS_RECORD1: nsRecord('ns1'),
  NS_RECORD2: nsRecord('ns2'),
  WITHOUT_NS: record('Record', [{ name: 'f1', type: 'int' }]),
  WITH_NS: record('ns.Record', [{ name: 'f1', type: 'int' }]),
  INT_LIST_RECORD: list('int'),
  LONG_LIST_RECORD: list('long'),

  // Declared in the test classes themselves rather than in TestSchemas.java.
  FIXED_4_ANOTHER_NAME: fixed('AnotherName', 4),
  RECORD1_WITH_ENUM_AB: record('Record1', [{ name: 'field1', type: ENUM1_AB_SCHEMA }]),
  RECORD1_WITH_ENUM_ABC: record('Record1', [{ name: 'field1', type: enumOf('Enum1', ['A', 'B', 'C']) }]),
  UNION_INT_RECORD1: ['int', record('Record1', [{ name: 'field1', type: 'int' }])],
  UNION_INT_RECORD2: ['int', record('Record2', [{ name: 'field1', type: 'int' }])],
  UNION_INT_ENUM1_AB: ['int', ENUM1_AB_SCHEMA],
  UNION_INT_FIXED_4_BYTES: ['int', FIXED_4_BYTES],
  UNION_INT_BOOLEAN: ['int', 'boolean'],
  UNION_INT_ARRAY_INT: ['int', INT_ARRAY_SCHEMA],
  UNION_INT_MAP_INT: ['int', INT_MAP_SCHEMA],
  UNION_INT_NULL: ['int', 'null'],
} satisfies Record<string, Json>;

export type TestSchemaName = keyof typeof TEST_SCHEMAS;
