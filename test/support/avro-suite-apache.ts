/**
 * The cases of Apache Avro's Java tests (lang/java/avro/src/test/java/org/apache/avro/, read at commit 87212a6d47),
 * each a row citing its test class and method, for test/unit/avro-resolution-suite.test.ts. A pair that
 * TestSchemaValidation shares with TestSchemaCompatibility is cited once, under the latter. Not taken: the pairs with
 * an empty union (`EMPTY_UNION_SCHEMA`), which avsc cannot build, and DECODING_COMPATIBILITY_TEST_CASES, which decode
 * single values.
 */
import type { AvroRule } from '../../schema-formats/avro-compatibility';
import { TEST_SCHEMAS, type TestSchemaName } from './avro-test-schemas';

export interface SuiteCase {
  source: string;
  reader: unknown;
  writer: unknown;
  compatible: boolean;
  /** Every problem's rule, in order (one string: the only problem). */
  rule?: AvroRule | AvroRule[];
  /** Every problem's path, in order, where the source pins the location. */
  path?: string | string[];
}

const java = (test: string, reader: TestSchemaName, writer: TestSchemaName, compatible: boolean, rule?: SuiteCase['rule'], path?: SuiteCase['path']): SuiteCase =>
  ({ source: `apache/avro ${test} (${reader} reads ${writer})`, reader: TEST_SCHEMAS[reader], writer: TEST_SCHEMAS[writer], compatible, rule, path });

export const record = (name: string, fields: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'record', name, fields, ...extra });

// ---------- apache/avro TestSchemaCompatibility.java ----------

/** validateSchemaPair*: WRITER_SCHEMA and its readers are anonymous records in Java. */
const WRITER_SCHEMA = record('Record', [{ name: 'oldfield1', type: 'int' }, { name: 'oldfield2', type: 'string' }]);
const TSC = 'TestSchemaCompatibility';
const schemaCompatibility: SuiteCase[] = [
  { source: `apache/avro ${TSC}#validateSchemaPairMissingField`, reader: record('Record', [{ name: 'oldfield1', type: 'int' }]), writer: WRITER_SCHEMA, compatible: true },
  { source: `apache/avro ${TSC}#validateSchemaPairMissingSecondField`, reader: record('Record', [{ name: 'oldfield2', type: 'string' }]), writer: WRITER_SCHEMA, compatible: true },
  { source: `apache/avro ${TSC}#validateSchemaPairAllFields`, reader: WRITER_SCHEMA, writer: WRITER_SCHEMA, compatible: true },
  { source: `apache/avro ${TSC}#validateSchemaNewFieldWithDefault`, reader: record('Record', [{ name: 'oldfield1', type: 'int' }, { name: 'newfield1', type: 'int', default: 42 }]), writer: WRITER_SCHEMA, compatible: true },
  { source: `apache/avro ${TSC}#validateSchemaNewField`, reader: record('Record', [{ name: 'oldfield1', type: 'int' }, { name: 'newfield1', type: 'int' }]), writer: WRITER_SCHEMA, compatible: false, rule: 'FIELD_NO_DEFAULT', path: 'newfield1' },
  { source: `apache/avro ${TSC}#validateArrayWriterSchema (valid reader)`, reader: { type: 'array', items: 'string' }, writer: TEST_SCHEMAS.STRING_ARRAY_SCHEMA, compatible: true },
  { source: `apache/avro ${TSC}#validateArrayWriterSchema (invalid reader)`, reader: { type: 'map', values: 'string' }, writer: TEST_SCHEMAS.STRING_ARRAY_SCHEMA, compatible: false, rule: 'TYPE_MISMATCH', path: '' },
  { source: `apache/avro ${TSC}#validatePrimitiveWriterSchema (valid reader)`, reader: 'string', writer: 'string', compatible: true },
  java(`${TSC}#validatePrimitiveWriterSchema`, 'INT_SCHEMA', 'STRING_SCHEMA', false, 'TYPE_MISMATCH', ''),
  { source: `apache/avro ${TSC}#unionReaderWriterSubsetIncompatibility`, reader: ['int', 'string'], writer: ['int', 'string', 'long'], compatible: false, rule: 'MISSING_UNION_BRANCH', path: '|long' },
  {
    source: `apache/avro ${TSC}#unionWriterSimpleReaderIncompatibility`,
    reader: record('Account', [{ name: 'age', type: 'int' }]),
    writer: record('Account', [{ name: 'age', type: ['null', 'int'], default: null }]),
    compatible: false, rule: 'TYPE_MISMATCH', path: 'age|null',
  },
];

/** COMPATIBLE_READER_WRITER_TEST_CASES, in order, as [reader, writer]; duplicates within the list left out. */
const COMPATIBLE_PAIRS: [TestSchemaName, TestSchemaName][] = [
  ['BOOLEAN_SCHEMA', 'BOOLEAN_SCHEMA'], ['INT_SCHEMA', 'INT_SCHEMA'], ['LONG_SCHEMA', 'INT_SCHEMA'], ['LONG_SCHEMA', 'LONG_SCHEMA'],
  ['FLOAT_SCHEMA', 'INT_SCHEMA'], ['FLOAT_SCHEMA', 'LONG_SCHEMA'], ['DOUBLE_SCHEMA', 'LONG_SCHEMA'], ['DOUBLE_SCHEMA', 'INT_SCHEMA'],
  ['DOUBLE_SCHEMA', 'FLOAT_SCHEMA'], ['STRING_SCHEMA', 'STRING_SCHEMA'], ['BYTES_SCHEMA', 'BYTES_SCHEMA'],
  ['INT_ARRAY_SCHEMA', 'INT_ARRAY_SCHEMA'], ['LONG_ARRAY_SCHEMA', 'INT_ARRAY_SCHEMA'], ['INT_MAP_SCHEMA', 'INT_MAP_SCHEMA'], ['LONG_MAP_SCHEMA', 'INT_MAP_SCHEMA'],
  ['ENUM1_AB_SCHEMA', 'ENUM1_AB_SCHEMA'], ['ENUM1_ABC_SCHEMA', 'ENUM1_AB_SCHEMA'], ['ENUM1_AB_SCHEMA_DEFAULT', 'ENUM1_ABC_SCHEMA'],
  ['ENUM1_AB_SCHEMA', 'ENUM1_AB_SCHEMA_NAMESPACE_1'], ['ENUM1_AB_SCHEMA_NAMESPACE_1', 'ENUM1_AB_SCHEMA'], ['ENUM1_AB_SCHEMA_NAMESPACE_1', 'ENUM1_AB_SCHEMA_NAMESPACE_2'],
  ['STRING_SCHEMA', 'BYTES_SCHEMA'], ['BYTES_SCHEMA', 'STRING_SCHEMA'],
  ['FLOAT_UNION_SCHEMA', 'INT_UNION_SCHEMA'], ['FLOAT_UNION_SCHEMA', 'LONG_UNION_SCHEMA'], ['FLOAT_UNION_SCHEMA', 'INT_LONG_UNION_SCHEMA'],
  ['INT_UNION_SCHEMA', 'INT_UNION_SCHEMA'], ['INT_STRING_UNION_SCHEMA', 'STRING_INT_UNION_SCHEMA'], ['LONG_UNION_SCHEMA', 'INT_UNION_SCHEMA'],
  ['DOUBLE_UNION_SCHEMA', 'INT_UNION_SCHEMA'], ['DOUBLE_UNION_SCHEMA', 'LONG_UNION_SCHEMA'], ['DOUBLE_UNION_SCHEMA', 'FLOAT_UNION_SCHEMA'],
  ['STRING_UNION_SCHEMA', 'BYTES_UNION_SCHEMA'], ['BYTES_UNION_SCHEMA', 'STRING_UNION_SCHEMA'], ['DOUBLE_UNION_SCHEMA', 'INT_FLOAT_UNION_SCHEMA'],
  ['FLOAT_SCHEMA', 'INT_FLOAT_UNION_SCHEMA'], ['LONG_SCHEMA', 'INT_LONG_UNION_SCHEMA'], ['DOUBLE_SCHEMA', 'INT_FLOAT_UNION_SCHEMA'],
  ['DOUBLE_SCHEMA', 'INT_LONG_FLOAT_DOUBLE_UNION_SCHEMA'], ['FLOAT_SCHEMA', 'FLOAT_UNION_SCHEMA'], ['INT_UNION_SCHEMA', 'INT_SCHEMA'], ['INT_SCHEMA', 'INT_UNION_SCHEMA'],
  ['FIXED_4_BYTES', 'FIXED_4_BYTES'],
  ['EMPTY_RECORD1', 'EMPTY_RECORD1'], ['EMPTY_RECORD1', 'A_INT_RECORD1'], ['A_INT_RECORD1', 'A_INT_RECORD1'], ['A_DINT_RECORD1', 'A_INT_RECORD1'],
  ['A_DINT_RECORD1', 'A_DINT_RECORD1'], ['A_INT_RECORD1', 'A_DINT_RECORD1'], ['A_LONG_RECORD1', 'A_INT_RECORD1'], ['A_INT_RECORD1', 'A_INT_B_INT_RECORD1'],
  ['A_DINT_RECORD1', 'A_INT_B_INT_RECORD1'], ['A_INT_B_DINT_RECORD1', 'A_INT_RECORD1'], ['A_DINT_B_DINT_RECORD1', 'EMPTY_RECORD1'],
  ['A_DINT_B_DINT_RECORD1', 'A_INT_RECORD1'], ['A_INT_B_INT_RECORD1', 'A_DINT_B_DINT_RECORD1'],
  ['INT_LIST_RECORD', 'INT_LIST_RECORD'], ['LONG_LIST_RECORD', 'LONG_LIST_RECORD'], ['LONG_LIST_RECORD', 'INT_LIST_RECORD'], ['NULL_SCHEMA', 'NULL_SCHEMA'],
  ['ENUM_AB_ENUM_DEFAULT_A_RECORD', 'ENUM_ABC_ENUM_DEFAULT_A_RECORD'],
  ['ENUM_AB_FIELD_DEFAULT_A_ENUM_DEFAULT_B_RECORD', 'ENUM_ABC_FIELD_DEFAULT_B_ENUM_DEFAULT_A_RECORD'],
  ['NS_RECORD1', 'NS_RECORD2'], ['WITHOUT_NS', 'WITH_NS'],
];
const compatiblePairs = COMPATIBLE_PAIRS.map(([r, w]) => java(`${TSC}#readerWriterCompatibility`, r, w, true));

// ---------- apache/avro TestSchemaCompatibility<Incompatibility>.java: one class per rule ----------

const TM = 'TestSchemaCompatibilityTypeMismatch#testTypeMismatchSchemas';
const typeMismatch: SuiteCase[] = ([
  ['NULL_SCHEMA', 'INT_SCHEMA', ''], ['NULL_SCHEMA', 'LONG_SCHEMA', ''], ['BOOLEAN_SCHEMA', 'INT_SCHEMA', ''], ['INT_SCHEMA', 'NULL_SCHEMA', ''],
  ['INT_SCHEMA', 'BOOLEAN_SCHEMA', ''], ['INT_SCHEMA', 'LONG_SCHEMA', ''], ['INT_SCHEMA', 'FLOAT_SCHEMA', ''], ['INT_SCHEMA', 'DOUBLE_SCHEMA', ''],
  ['LONG_SCHEMA', 'FLOAT_SCHEMA', ''], ['LONG_SCHEMA', 'DOUBLE_SCHEMA', ''], ['FLOAT_SCHEMA', 'DOUBLE_SCHEMA', ''], ['DOUBLE_SCHEMA', 'STRING_SCHEMA', ''],
  ['FIXED_4_BYTES', 'STRING_SCHEMA', ''], ['STRING_SCHEMA', 'BOOLEAN_SCHEMA', ''], ['STRING_SCHEMA', 'INT_SCHEMA', ''], ['BYTES_SCHEMA', 'NULL_SCHEMA', ''],
  ['BYTES_SCHEMA', 'INT_SCHEMA', ''], ['A_INT_RECORD1', 'INT_SCHEMA', ''], ['INT_ARRAY_SCHEMA', 'LONG_ARRAY_SCHEMA', '[]'], ['INT_MAP_SCHEMA', 'INT_ARRAY_SCHEMA', ''],
  ['INT_ARRAY_SCHEMA', 'INT_MAP_SCHEMA', ''], ['INT_MAP_SCHEMA', 'LONG_MAP_SCHEMA', '{}'], ['INT_SCHEMA', 'ENUM2_AB_SCHEMA', ''], ['ENUM2_AB_SCHEMA', 'INT_SCHEMA', ''],
  ['FLOAT_SCHEMA', 'INT_LONG_FLOAT_DOUBLE_UNION_SCHEMA', '|double'], ['LONG_SCHEMA', 'INT_FLOAT_UNION_SCHEMA', '|float'],
  ['INT_SCHEMA', 'INT_FLOAT_UNION_SCHEMA', '|float'], ['INT_LIST_RECORD', 'LONG_LIST_RECORD', 'head'],
] as const).map(([r, w, path]) => java(TM, r, w, false, 'TYPE_MISMATCH', path));

const MUB = 'TestSchemaCompatibilityMissingUnionBranch#testMissingUnionBranch';
const missingUnionBranch: SuiteCase[] = ([
  ['INT_UNION_SCHEMA', 'INT_STRING_UNION_SCHEMA', ['|string']], ['STRING_UNION_SCHEMA', 'INT_STRING_UNION_SCHEMA', ['|int']],
  ['INT_UNION_SCHEMA', 'UNION_INT_RECORD1', ['|Record1']], ['INT_UNION_SCHEMA', 'UNION_INT_RECORD2', ['|Record2']],
  ['UNION_INT_RECORD1', 'UNION_INT_RECORD2', ['|Record2']], ['INT_UNION_SCHEMA', 'UNION_INT_ENUM1_AB', ['|Enum1']],
  ['INT_UNION_SCHEMA', 'UNION_INT_FIXED_4_BYTES', ['|Fixed']], ['INT_UNION_SCHEMA', 'UNION_INT_BOOLEAN', ['|boolean']],
  ['INT_UNION_SCHEMA', 'LONG_UNION_SCHEMA', ['|long']], ['INT_UNION_SCHEMA', 'FLOAT_UNION_SCHEMA', ['|float']],
  ['INT_UNION_SCHEMA', 'DOUBLE_UNION_SCHEMA', ['|double']], ['INT_UNION_SCHEMA', 'BYTES_UNION_SCHEMA', ['|bytes']],
  ['INT_UNION_SCHEMA', 'UNION_INT_ARRAY_INT', ['|array']], ['INT_UNION_SCHEMA', 'UNION_INT_MAP_INT', ['|map']],
  ['INT_UNION_SCHEMA', 'UNION_INT_NULL', ['|null']], ['INT_UNION_SCHEMA', 'INT_LONG_FLOAT_DOUBLE_UNION_SCHEMA', ['|long', '|float', '|double']],
  ['A_DINT_B_DINT_UNION_RECORD1', 'A_DINT_B_DINT_STRING_UNION_RECORD1', ['b|string']],
] as const).map(([r, w, paths]) => java(MUB, r, w, false, paths.map(() => 'MISSING_UNION_BRANCH' as const), [...paths]));

const perRule: SuiteCase[] = [
  java('TestSchemaCompatibilityFixedSizeMismatch#fixedSizeMismatchSchemas', 'FIXED_4_BYTES', 'FIXED_8_BYTES', false, 'FIXED_SIZE_MISMATCH', ''),
  java('TestSchemaCompatibilityFixedSizeMismatch#fixedSizeMismatchSchemas', 'FIXED_8_BYTES', 'FIXED_4_BYTES', false, 'FIXED_SIZE_MISMATCH', ''),
  java('TestSchemaCompatibilityFixedSizeMismatch#fixedSizeMismatchSchemas', 'A_DINT_B_DFIXED_8_BYTES_RECORD1', 'A_DINT_B_DFIXED_4_BYTES_RECORD1', false, 'FIXED_SIZE_MISMATCH', 'b'),
  java('TestSchemaCompatibilityFixedSizeMismatch#fixedSizeMismatchSchemas', 'A_DINT_B_DFIXED_4_BYTES_RECORD1', 'A_DINT_B_DFIXED_8_BYTES_RECORD1', false, 'FIXED_SIZE_MISMATCH', 'b'),
  java('TestSchemaCompatibilityMissingEnumSymbols#testTypeMismatchSchemas', 'ENUM1_AB_SCHEMA', 'ENUM1_ABC_SCHEMA', false, 'MISSING_ENUM_SYMBOL', ''),
  java('TestSchemaCompatibilityMissingEnumSymbols#testTypeMismatchSchemas', 'ENUM1_BC_SCHEMA', 'ENUM1_ABC_SCHEMA', false, 'MISSING_ENUM_SYMBOL', ''),
  java('TestSchemaCompatibilityMissingEnumSymbols#testTypeMismatchSchemas', 'RECORD1_WITH_ENUM_AB', 'RECORD1_WITH_ENUM_ABC', false, 'MISSING_ENUM_SYMBOL', 'field1'),
  java('TestSchemaCompatibilityNameMismatch#testNameMismatchSchemas', 'ENUM1_AB_SCHEMA', 'ENUM2_AB_SCHEMA', false, 'NAME_MISMATCH', ''),
  java('TestSchemaCompatibilityNameMismatch#testNameMismatchSchemas', 'EMPTY_RECORD2', 'EMPTY_RECORD1', false, 'NAME_MISMATCH', ''),
  java('TestSchemaCompatibilityNameMismatch#testNameMismatchSchemas', 'FIXED_4_BYTES', 'FIXED_4_ANOTHER_NAME', false, 'NAME_MISMATCH', ''),
  java('TestSchemaCompatibilityNameMismatch#testNameMismatchSchemas', 'A_DINT_B_DENUM_1_RECORD1', 'A_DINT_B_DENUM_2_RECORD1', false, 'NAME_MISMATCH', 'b'),
  java('TestSchemaCompatibilityReaderFieldMissingDefaultValue#testReaderFieldMissingDefaultValueSchemas', 'A_INT_RECORD1', 'EMPTY_RECORD1', false, 'FIELD_NO_DEFAULT', 'a'),
  java('TestSchemaCompatibilityReaderFieldMissingDefaultValue#testReaderFieldMissingDefaultValueSchemas', 'A_INT_B_DINT_RECORD1', 'EMPTY_RECORD1', false, 'FIELD_NO_DEFAULT', 'a'),
];

/** TestSchemaCompatibilityMultiple: nine problems at once (Java counts the two missing enum symbols as one). */
const multiple = (() => {
  const base = (enumSymbols: string[], enumName: string, mismatch: string, sub: { extra: boolean; size: number; union: unknown[]; unsupported: unknown; ns: string; items: string }) =>
    record('base', [
      { name: 'check_enum_symbols_field', type: { type: 'enum', name: 'check_enum_symbols_type', symbols: enumSymbols } },
      { name: 'check_enum_name_field', type: { type: 'enum', name: enumName, symbols: ['A', 'B', 'C', 'D'] } },
      { name: 'type_mismatch_field', type: mismatch },
      {
        name: 'sub_record',
        type: record('sub_record_type', [
          { name: 'identical_1_field', type: 'long', default: 42 },
          ...(sub.extra ? [{ name: 'extra_no_default_field', type: 'long' }] : []),
          { name: 'fixed_length_mismatch_field', type: { type: 'fixed', name: 'fixed_length_mismatch_type', size: sub.size } },
          { name: 'union_missing_branches_field', type: sub.union },
          { name: 'reader_union_does_not_support_type_field', type: sub.unsupported },
          {
            name: 'record_fqn_mismatch_field',
            type: record('recordA', [{ name: 'A_field_0', type: 'boolean', default: true }, { name: 'array_type_mismatch_field', type: { type: 'array', items: sub.items } }], { namespace: sub.ns }),
          },
        ]),
      },
    ]);
  const reader = base(['A', 'C'], 'check_enum_name_type', 'string', { extra: true, size: 4, union: ['boolean'], unsupported: ['boolean'], ns: 'not_nsA', items: 'string' });
  const writer = base(['A', 'B', 'C', 'D'], 'check_enum_name_type_ERR', 'long', { extra: false, size: 8, union: ['boolean', 'double', 'string'], unsupported: 'long', ns: 'nsA', items: 'boolean' });
  const sub = 'sub_record';
  return {
    source: 'apache/avro TestSchemaCompatibilityMultiple#multipleIncompatibilities', reader, writer, compatible: false,
    rule: ['MISSING_ENUM_SYMBOL', 'MISSING_ENUM_SYMBOL', 'NAME_MISMATCH', 'TYPE_MISMATCH', 'FIELD_NO_DEFAULT', 'FIXED_SIZE_MISMATCH',
      'MISSING_UNION_BRANCH', 'MISSING_UNION_BRANCH', 'MISSING_UNION_BRANCH', 'TYPE_MISMATCH'],
    path: ['check_enum_symbols_field', 'check_enum_symbols_field', 'check_enum_name_field', 'type_mismatch_field', `${sub}.extra_no_default_field`,
      `${sub}.fixed_length_mismatch_field`, `${sub}.union_missing_branches_field|double`, `${sub}.union_missing_branches_field|string`,
      `${sub}.reader_union_does_not_support_type_field`, `${sub}.record_fqn_mismatch_field.array_type_mismatch_field[]`],
  } satisfies SuiteCase;
})();

/** TestSchemaCompatibilityEnumDefaults: decoding tests; a decoding that throws is an incompatible pair. */
const ED = 'TestSchemaCompatibilityEnumDefaults';
const field1 = (type: unknown, extra: Record<string, unknown> = {}) => record('Record1', [{ name: 'field1', type, ...extra }]);
const enumDefaults: SuiteCase[] = [
  {
    source: `apache/avro ${ED}#enumDefaultNotAppliedWhenWriterFieldMissing`, reader: field1(TEST_SCHEMAS.ENUM_AB_ENUM_DEFAULT_A_SCHEMA),
    writer: record('Record1', [{ name: 'field2', type: TEST_SCHEMAS.ENUM2_AB_SCHEMA }]), compatible: false, rule: 'FIELD_NO_DEFAULT', path: 'field1',
  },
  { source: `apache/avro ${ED}#enumDefaultAppliedWhenNoFieldDefaultDefined`, reader: field1(TEST_SCHEMAS.ENUM_AB_ENUM_DEFAULT_A_SCHEMA), writer: field1(TEST_SCHEMAS.ENUM_ABC_ENUM_DEFAULT_A_SCHEMA), compatible: true },
  { source: `apache/avro ${ED}#enumDefaultAppliedWhenFieldDefaultDefined`, reader: field1(TEST_SCHEMAS.ENUM_AB_ENUM_DEFAULT_A_SCHEMA, { default: 'B' }), writer: field1(TEST_SCHEMAS.ENUM_ABC_ENUM_DEFAULT_A_SCHEMA), compatible: true },
  {
    source: `apache/avro ${ED}#fieldDefaultNotAppliedForUnknownSymbol`, reader: field1(TEST_SCHEMAS.ENUM1_AB_SCHEMA, { default: 'A' }),
    writer: field1(TEST_SCHEMAS.ENUM1_ABC_SCHEMA), compatible: false, rule: 'MISSING_ENUM_SYMBOL', path: 'field1',
  },
];

// ---------- apache/avro TestSchemaValidation.java (SchemaValidator: canRead = the first schema reads the others) ----------

const TSV = 'apache/avro TestSchemaValidation';
const rec = (fields: [string, string, unknown?][]) =>
  record('test.Rec', fields.map(([name, type, d]) => (d === undefined ? { name, type } : { name, type, default: d })));
const REC = rec([['a', 'int', 1], ['b', 'long']]);
const REC2 = rec([['a', 'int', 1], ['b', 'long'], ['c', 'int', 0]]);
const REC3 = rec([['b', 'long'], ['c', 'int', 0]]);
const REC4 = rec([['b', 'long'], ['c', 'int']]);
const REC5 = rec([['a', 'string', ''], ['b', 'long'], ['c', 'int', 0]]);
const ALL_TYPES = record('r', [
  { name: 'boolF', type: 'boolean' }, { name: 'intF', type: 'int' }, { name: 'longF', type: 'long' }, { name: 'floatF', type: 'float' },
  { name: 'doubleF', type: 'double' }, { name: 'stringF', type: 'string' }, { name: 'bytesF', type: 'bytes' },
  { name: 'fixedF1', type: { type: 'fixed', name: 'F1', size: 1 } }, { name: 'enumF', type: { type: 'enum', name: 'E1', symbols: ['S'] } },
  { name: 'mapF', type: { type: 'map', values: 'string' } }, { name: 'arrayF', type: { type: 'array', items: 'string' } },
  { name: 'recordF', type: record('inner', [{ name: 'f', type: 'int' }]) }, { name: 'boolO', type: ['null', 'boolean'], default: null },
]);
const circle = (name: string, point: string, namespace?: string) => record(name, [
  { name: 'center', type: record(point, [{ name: 'x', type: 'double' }, { name: 'y', type: 'double' }]) }, { name: 'radius', type: 'double' },
], namespace ? { namespace } : {});
const NODE = { type: 'record', name: 'Node', namespace: 'avro', fields: [{ name: 'value', type: ['null', 'Node'], default: null }] };
const schemaValidation: SuiteCase[] = [
  java('TestSchemaValidation#schemaCompatibilitySuccesses', 'NULL_INT_ARRAY_UNION_SCHEMA', 'INT_ARRAY_SCHEMA', true),
  java('TestSchemaValidation#schemaCompatibilitySuccesses', 'NULL_INT_MAP_UNION_SCHEMA', 'INT_MAP_SCHEMA', true),
  { source: `${TSV}#readOnePrior (rec3 reads rec)`, reader: REC3, writer: REC, compatible: true },
  { source: `${TSV}#readOnePrior (rec5 reads rec3)`, reader: REC5, writer: REC3, compatible: true },
  { source: `${TSV}#readOnePrior (rec4 reads rec)`, reader: REC4, writer: REC, compatible: false, rule: 'FIELD_NO_DEFAULT', path: 'c' },
  { source: `${TSV}#readAllPrior (rec3 reads rec2)`, reader: REC3, writer: REC2, compatible: true },
  { source: `${TSV}#allPriorCanRead (rec2 reads rec)`, reader: REC2, writer: REC, compatible: true },
  { source: `${TSV}#onePriorCompatible (rec reads rec3)`, reader: REC, writer: REC3, compatible: true },
  { source: `${TSV}#unionWithIncompatibleElements`, reader: [REC4], writer: [REC], compatible: false, rule: 'FIELD_NO_DEFAULT', path: 'c' },
  { source: `${TSV}#unionWithCompatibleElements`, reader: [REC3], writer: [REC], compatible: true },
  { source: `${TSV}#allTypes`, reader: ALL_TYPES, writer: ALL_TYPES, compatible: true },
  { source: `${TSV}#recursiveSchemaValidation`, reader: NODE, writer: NODE, compatible: true },
  // Java's SchemaValidator passes this: its resolving decoder compares record names only inside unions. The
  // specification matches records by (unqualified) name, as SchemaCompatibility does (TestSchemaCompatibilityNameMismatch).
  // The reflected Circle's namespace drops the `$` Java gives a nested class, which no JSON schema may hold.
  {
    source: `${TSV}#reflectMatchStructure (reflected Circle reads crcl)`, reader: circle('Circle', 'Point', 'org.apache.avro.TestSchemaValidation'),
    writer: circle('crcl', 'pt'), compatible: false, rule: ['NAME_MISMATCH', 'NAME_MISMATCH'], path: ['', 'center'],
  },
];

export const APACHE_CASES: SuiteCase[] = [
  ...schemaCompatibility, ...compatiblePairs, ...typeMismatch, ...missingUnionBranch, ...perRule, multiple, ...enumDefaults, ...schemaValidation,
];
