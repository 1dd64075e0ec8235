/**
 * Avro schema resolution against the public suites. Each row cites its source: Apache Avro's Java tests
 * (test/support/avro-suite-apache.ts), Confluent Schema Registry's (read at commit 794611bd86:
 * core/src/test/java/io/confluent/kafka/schemaregistry/avro/AvroCompatibilityTest.java and
 * avro-serializer/src/test/java/io/confluent/kafka/serializers/AvroSchemaTest.java) or, for a row added here rather
 * than taken from a suite, the section of the specification it follows (`spec: …`). Where the cited implementation
 * decides otherwise than the specification, the row follows the specification and says why.
 */
import { describe, expect, it } from 'vitest';
import { toAvroType } from '../../schema-formats/avro';
import { AVRO_RULES, avroReadProblems, type AvroRule } from '../../schema-formats/avro-compatibility';
import { modeProblems, type CompatibilityMode } from '../../schema-formats/compatibility-modes';
import { APACHE_CASES, record, type SuiteCase } from '../support/avro-suite-apache';

// ---------- confluentinc/schema-registry ----------

const myrecord = (fields: unknown[]) => record('myrecord', fields);
const SCHEMA_1 = myrecord([{ type: 'string', name: 'f1' }]);
const SCHEMA_2 = myrecord([{ type: 'string', name: 'f1' }, { type: 'string', name: 'f2', default: 'foo' }]);
const SCHEMA_3 = myrecord([{ type: 'string', name: 'f1' }, { type: 'string', name: 'f2' }]);
const SCHEMA_4 = myrecord([{ type: 'string', name: 'f1_new', aliases: ['f1'] }]);
const SCHEMA_6 = myrecord([{ type: ['null', 'string'], name: 'f1', doc: 'doc of f1' }]);
const SCHEMA_7 = myrecord([{ type: ['null', 'string', 'int'], name: 'f1', doc: 'doc of f1' }]);
const SCHEMA_8 = myrecord([{ type: 'string', name: 'f1' }, { type: 'string', name: 'f2', default: 'foo' }, { type: 'string', name: 'f3', default: 'bar' }]);
const SCHEMAS = { schema1: SCHEMA_1, schema2: SCHEMA_2, schema3: SCHEMA_3, schema4: SCHEMA_4, schema6: SCHEMA_6, schema7: SCHEMA_7, schema8: SCHEMA_8 };
type ConfluentName = keyof typeof SCHEMAS;

const ACT = 'confluentinc/schema-registry AvroCompatibilityTest';
const confluent = (test: string, reader: ConfluentName, writer: ConfluentName, compatible: boolean, rule?: AvroRule, path?: string): SuiteCase =>
  ({ source: `${ACT}#${test} (${reader} reads ${writer})`, reader: SCHEMAS[reader], writer: SCHEMAS[writer], compatible, rule, path });
const confluentPairs: SuiteCase[] = [
  confluent('testBasicBackwardsCompatibility', 'schema2', 'schema1', true),
  confluent('testBasicBackwardsCompatibility', 'schema3', 'schema1', false, 'FIELD_NO_DEFAULT', 'f2'),
  confluent('testBasicBackwardsCompatibility', 'schema4', 'schema1', true),
  confluent('testBasicBackwardsCompatibility', 'schema6', 'schema1', true),
  confluent('testBasicBackwardsCompatibility', 'schema1', 'schema6', false, 'TYPE_MISMATCH', 'f1|null'),
  confluent('testBasicBackwardsCompatibility', 'schema7', 'schema6', true),
  confluent('testBasicBackwardsCompatibility', 'schema6', 'schema7', false, 'MISSING_UNION_BRANCH', 'f1|int'),
  confluent('testBasicBackwardsCompatibility', 'schema3', 'schema2', true),
  confluent('testBasicBackwardsTransitiveCompatibility', 'schema8', 'schema1', true),
  confluent('testBasicBackwardsTransitiveCompatibility', 'schema8', 'schema2', true),
  confluent('testBasicForwardsCompatibility', 'schema1', 'schema2', true),
  confluent('testBasicForwardsCompatibility', 'schema1', 'schema3', true),
  confluent('testBasicForwardsCompatibility', 'schema2', 'schema3', true),
  {
    source: 'confluentinc/schema-registry AvroSchemaTest#testEnumCompatibility', compatible: false, rule: 'MISSING_ENUM_SYMBOL', path: '',
    reader: { type: 'enum', name: 'Suit', symbols: ['SPADES', 'HEARTS', 'DIAMONDS'] }, writer: { type: 'enum', name: 'Suit', symbols: ['SPADES', 'HEARTS', 'DIAMONDS', 'CLUBS'] },
  },
];


// ---------- added here, from the specification (Avro 1.11/1.12) ----------

const F = [{ name: 'id', type: 'int' }];
const bytesDecimal = (precision: number, scale?: number) => ({ type: 'bytes', logicalType: 'decimal', precision, ...(scale === undefined ? {} : { scale }) });
const fixedDecimal = (size: number, precision: number, scale: number) => ({ type: 'fixed', name: 'Money', size, logicalType: 'decimal', precision, scale });
const amount = (type: unknown) => record('Payment', [{ name: 'amount', type }]);
const longList = (name: string, extra: Record<string, unknown> = {}) =>
  record(name, [{ name: 'value', type: 'long' }, { name: 'next', type: ['null', name] }], extra);
const SPEC_CASES: SuiteCase[] = [
  { source: 'spec: Schema Resolution (records match by unqualified name)', reader: record('User', F, { namespace: 'com.acme' }), writer: record('User', F, { namespace: 'org.acme' }), compatible: true },
  { source: 'spec: Schema Resolution (fixed match by size and unqualified name)', reader: { type: 'fixed', name: 'a.Hash', size: 16 }, writer: { type: 'fixed', name: 'b.Hash', size: 16 }, compatible: true },
  { source: 'spec: Aliases (a reader alias, relative to its namespace, names the writer)', reader: record('Person', F, { namespace: 'com.acme', aliases: ['User'] }), writer: record('User', F, { namespace: 'com.acme' }), compatible: true },
  { source: 'spec: Aliases (a fully qualified reader alias names a writer in another namespace)', reader: record('Person', F, { namespace: 'com.acme', aliases: ['org.other.User'] }), writer: record('User', F, { namespace: 'org.other' }), compatible: true },
  {
    source: 'spec: Aliases (a relative alias takes the reader\'s namespace, so com.acme.User does not name org.other.User)',
    reader: record('Person', F, { namespace: 'com.acme', aliases: ['User'] }), writer: record('User', F, { namespace: 'org.other' }), compatible: false, rule: 'NAME_MISMATCH', path: '',
  },
  { source: 'spec: Aliases (the writer\'s aliases play no part)', reader: record('Person', F), writer: record('User', F, { aliases: ['Person'] }), compatible: false, rule: 'NAME_MISMATCH', path: '' },
  { source: 'spec: Aliases (an enum renamed, its old name an alias)', reader: { type: 'enum', name: 'State', aliases: ['Status'], symbols: ['A'] }, writer: { type: 'enum', name: 'Status', symbols: ['A'] }, compatible: true },
  { source: 'spec: Aliases (a field renamed, its old name an alias, its type promoted)', reader: record('R', [{ name: 'total', type: 'long', aliases: ['amount'] }]), writer: record('R', [{ name: 'amount', type: 'int' }]), compatible: true },
  {
    source: 'spec: Aliases (a reader field whose name and alias name two writer fields)', reader: record('R', [{ name: 'c', type: 'int', aliases: ['a', 'b'] }]),
    writer: record('R', [{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }]), compatible: false, rule: 'AMBIGUOUS_FIELD_ALIAS', path: 'c',
  },
  { source: 'spec: Records (the LongList example, renamed from LinkedLongs)', reader: longList('LongList', { aliases: ['LinkedLongs'] }), writer: longList('LinkedLongs'), compatible: true },
  {
    source: 'spec: Schema Resolution (recursion ends at a record pair already being resolved)', compatible: false, rule: 'TYPE_MISMATCH', path: 'value',
    reader: record('Node', [{ name: 'value', type: 'string' }, { name: 'next', type: ['null', 'Node'], default: null }]),
    writer: record('Node', [{ name: 'value', type: 'int' }, { name: 'next', type: ['null', 'Node'], default: null }]),
  },
  { source: 'spec: Schema Resolution (reader union: a promotion matches)', reader: ['null', 'double'], writer: 'int', compatible: true },
  {
    // Avro Java would try the second branch and find it readable; the specification resolves the first match only.
    source: 'spec: Schema Resolution (reader union: only the first matching branch is resolved)', compatible: false, rule: 'TYPE_MISMATCH', path: 'a',
    reader: [record('Rec', [{ name: 'a', type: 'int' }], { namespace: 'x' }), record('Rec', [{ name: 'a', type: 'string' }], { namespace: 'y' })],
    writer: record('Rec', [{ name: 'a', type: 'string' }], { namespace: 'z' }),
  },
  { source: 'spec: Schema Resolution (reader union: arrays match when their items match)', reader: ['null', { type: 'array', items: 'int' }], writer: { type: 'array', items: 'string' }, compatible: false, rule: 'MISSING_UNION_BRANCH', path: '' },
  { source: 'spec: Schema Resolution (reader union: fixed match only with the same size)', reader: ['null', { type: 'fixed', name: 'F', size: 4 }], writer: { type: 'fixed', name: 'F', size: 8 }, compatible: false, rule: 'MISSING_UNION_BRANCH', path: '' },
  { source: 'spec: Decimal (same precision and scale)', reader: amount(bytesDecimal(4, 2)), writer: amount(bytesDecimal(4, 2)), compatible: true },
  { source: 'spec: Decimal (precision differs)', reader: amount(bytesDecimal(5, 2)), writer: amount(bytesDecimal(4, 2)), compatible: false, rule: 'DECIMAL_MISMATCH', path: 'amount' },
  { source: 'spec: Decimal (scale differs)', reader: amount(bytesDecimal(4, 3)), writer: amount(bytesDecimal(4, 2)), compatible: false, rule: 'DECIMAL_MISMATCH', path: 'amount' },
  { source: 'spec: Decimal (fixed, precision differs)', reader: amount(fixedDecimal(8, 12, 2)), writer: amount(fixedDecimal(8, 10, 2)), compatible: false, rule: 'DECIMAL_MISMATCH', path: 'amount' },
  { source: 'spec: Decimal (a scale left out is 0)', reader: amount(bytesDecimal(4)), writer: amount(bytesDecimal(4, 0)), compatible: true },
  { source: 'spec: Decimal (reader union: a decimal of another scale does not match)', reader: amount(['null', bytesDecimal(4, 3)]), writer: amount(bytesDecimal(4, 2)), compatible: false, rule: 'MISSING_UNION_BRANCH', path: 'amount' },
  { source: 'spec: Logical Types (a decimal read as its underlying bytes)', reader: amount('bytes'), writer: amount(bytesDecimal(4, 2)), compatible: true },
  { source: 'spec: Logical Types (bytes read as a decimal)', reader: amount(bytesDecimal(4, 2)), writer: amount('bytes'), compatible: true },
  { source: 'spec: Logical Types (an invalid decimal, scale above precision, is its underlying type)', reader: amount(bytesDecimal(2, 3)), writer: amount(bytesDecimal(4, 2)), compatible: true },
  { source: 'spec: Decimal (a fixed too small for the precision is its underlying type)', reader: amount(fixedDecimal(2, 10, 2)), writer: amount(fixedDecimal(2, 4, 2)), compatible: true },
  { source: 'spec: Logical Types (timestamps resolve as their underlying long)', reader: { type: 'long', logicalType: 'timestamp-micros' }, writer: { type: 'long', logicalType: 'timestamp-millis' }, compatible: true },
  { source: 'spec: Logical Types (an unknown logical type is its underlying type)', reader: { type: 'string', logicalType: 'x-unknown' }, writer: 'string', compatible: true },
  { source: 'spec: Logical Types (a date promotes as its underlying int)', reader: 'long', writer: { type: 'int', logicalType: 'date' }, compatible: true },
  { source: 'spec: Logical Types (a timestamp does not demote to a date)', reader: { type: 'int', logicalType: 'date' }, writer: { type: 'long', logicalType: 'timestamp-millis' }, compatible: false, rule: 'TYPE_MISMATCH', path: '' },
];

const CASES: SuiteCase[] = [...APACHE_CASES, ...confluentPairs, ...SPEC_CASES];

describe('avroReadProblems: the public suites and the specification', () => {
  it.each(CASES)('$source', ({ reader, writer, compatible, rule, path }) => {
    const problems = avroReadProblems(toAvroType(reader), toAvroType(writer));
    expect(problems.length === 0, JSON.stringify(problems)).toBe(compatible);
    if (rule !== undefined) expect(problems.map((p) => p.rule)).toEqual([rule].flat());
    if (path !== undefined) expect(problems.map((p) => p.path)).toEqual([path].flat());
  });

  it('has a case for every rule', () => {
    const rules = new Set(CASES.flatMap((c) => [c.rule ?? []].flat()));
    expect([...rules].sort()).toEqual([...AVRO_RULES].sort());
  });

  it('departs from avsc\'s resolver only where avsc departs from the specification', () => {
    const avscResolves = (c: SuiteCase) => {
      try {
        toAvroType(c.reader).createResolver(toAvroType(c.writer));
        return true;
      } catch {
        return false;
      }
    };
    // avsc compares named types by full name (the specification: unqualified), and ignores decimal precision and scale.
    expect(CASES.filter((c) => avscResolves(c) !== c.compatible).map((c) => c.source)).toEqual([
      'apache/avro TestSchemaCompatibility#readerWriterCompatibility (ENUM1_AB_SCHEMA reads ENUM1_AB_SCHEMA_NAMESPACE_1)',
      'apache/avro TestSchemaCompatibility#readerWriterCompatibility (ENUM1_AB_SCHEMA_NAMESPACE_1 reads ENUM1_AB_SCHEMA)',
      'apache/avro TestSchemaCompatibility#readerWriterCompatibility (ENUM1_AB_SCHEMA_NAMESPACE_1 reads ENUM1_AB_SCHEMA_NAMESPACE_2)',
      'apache/avro TestSchemaCompatibility#readerWriterCompatibility (NS_RECORD1 reads NS_RECORD2)',
      'apache/avro TestSchemaCompatibility#readerWriterCompatibility (WITHOUT_NS reads WITH_NS)',
      'spec: Schema Resolution (records match by unqualified name)',
      'spec: Schema Resolution (fixed match by size and unqualified name)',
      'spec: Decimal (precision differs)',
      'spec: Decimal (scale differs)',
      'spec: Decimal (fixed, precision differs)',
      'spec: Decimal (reader union: a decimal of another scale does not match)',
    ]);
  });
});

/**
 * AvroCompatibilityTest's assertions as written: a mode, the new schema and the earlier ones (oldest first), judged
 * by the mode module over avroReadProblems, as Confluent's CompatibilityChecker judges them over Avro's own check.
 */
const modeCase = (test: string, mode: CompatibilityMode, candidate: ConfluentName, earlier: ConfluentName[], compatible: boolean) =>
  ({ source: `${ACT}#${test} (${mode}: ${candidate} after ${earlier.join(', ')})`, mode, candidate, earlier, compatible });
const MODE_CASES = [
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema2', ['schema1'], true),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema3', ['schema1'], false),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema4', ['schema1'], true),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema6', ['schema1'], true),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema1', ['schema6'], false),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema7', ['schema6'], true),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema6', ['schema7'], false),
  modeCase('testBasicBackwardsCompatibility', 'BACKWARD', 'schema3', ['schema1', 'schema2'], true),
  modeCase('testBasicBackwardsTransitiveCompatibility', 'BACKWARD_TRANSITIVE', 'schema8', ['schema1', 'schema2'], true),
  modeCase('testBasicBackwardsTransitiveCompatibility', 'BACKWARD_TRANSITIVE', 'schema2', ['schema1'], true),
  modeCase('testBasicBackwardsTransitiveCompatibility', 'BACKWARD_TRANSITIVE', 'schema3', ['schema2'], true),
  modeCase('testBasicBackwardsTransitiveCompatibility', 'BACKWARD_TRANSITIVE', 'schema3', ['schema2', 'schema1'], false),
  modeCase('testBasicForwardsCompatibility', 'FORWARD', 'schema2', ['schema1'], true),
  modeCase('testBasicForwardsCompatibility', 'FORWARD', 'schema3', ['schema1'], true),
  modeCase('testBasicForwardsCompatibility', 'FORWARD', 'schema3', ['schema2'], true),
  modeCase('testBasicForwardsCompatibility', 'FORWARD', 'schema2', ['schema3'], true),
  modeCase('testBasicForwardsCompatibility', 'FORWARD', 'schema1', ['schema3', 'schema2'], true),
  modeCase('testBasicForwardsTransitiveCompatibility', 'FORWARD_TRANSITIVE', 'schema1', ['schema8', 'schema2'], true),
  modeCase('testBasicForwardsTransitiveCompatibility', 'FORWARD_TRANSITIVE', 'schema2', ['schema3'], true),
  modeCase('testBasicForwardsTransitiveCompatibility', 'FORWARD_TRANSITIVE', 'schema1', ['schema2'], true),
  modeCase('testBasicForwardsTransitiveCompatibility', 'FORWARD_TRANSITIVE', 'schema1', ['schema2', 'schema3'], false),
  modeCase('testBasicFullCompatibility', 'FULL', 'schema2', ['schema1'], true),
  modeCase('testBasicFullCompatibility', 'FULL', 'schema3', ['schema1', 'schema2'], true),
  modeCase('testBasicFullCompatibility', 'FULL', 'schema1', ['schema3', 'schema2'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema8', ['schema1', 'schema2'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema1', ['schema8', 'schema2'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema2', ['schema3'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema1', ['schema2'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema2', ['schema1'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema3', ['schema2'], true),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema3', ['schema2', 'schema1'], false),
  modeCase('testBasicFullTransitiveCompatibility', 'FULL_TRANSITIVE', 'schema1', ['schema2', 'schema3'], false),
];

describe('the compatibility modes over avroReadProblems: Confluent\'s AvroCompatibilityTest', () => {
  it.each(MODE_CASES)('$source', ({ mode, candidate, earlier, compatible }) => {
    const type = (name: ConfluentName) => toAvroType(SCHEMAS[name]);
    const problems = modeProblems(mode, type(candidate), earlier.map((name) => ({ label: name, schema: type(name) })), avroReadProblems);
    expect(problems.length === 0, JSON.stringify(problems)).toBe(compatible);
  });
});
