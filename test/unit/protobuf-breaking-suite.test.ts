/**
 * PROTOBUF compatibility judged against the public suites: Buf's breaking-change tests and Confluent Schema
 * Registry's SchemaDiff examples (each case names its source file), plus a few cases of our own that cite the rule
 * they pin down. Texts are parsed the way an uploaded schema is (protobufjs, field names kept).
 */
import * as protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { protobufReadProblems } from '../../schema-formats/protobuf-compatibility';
import { protobufEvolutionProblems } from '../../schema-formats/protobuf-evolution';
import { BUF_READ_CASES, proto2, proto3, type ReadCase } from '../support/protobuf-suite-buf';
import { BUF_EVOLUTION_CASES } from '../support/protobuf-suite-buf-evolution';
import { CONFLUENT_READ_CASES } from '../support/protobuf-suite-confluent';
import { CONFLUENT_DISAGREEMENTS } from '../support/protobuf-suite-confluent-disagreements';

const root = (text: string) => protobuf.parse(text, { keepCase: true }).root;

/** Cases of our own: each cites the rule it pins down, not a public file. */
const RULE_CASES: ReadCase[] = [
  {
    source: 'rule: FIELD_WIRE_COMPATIBLE_CARDINALITY (packed and unpacked repeated scalars share a cardinality)',
    writer: proto3('message M {\n  repeated int32 ids = 1;\n}'),
    reader: proto3('message M {\n  repeated int32 ids = 1 [packed = false];\n}'),
    compatible: true,
  },
  {
    source: 'rule: FIELD_WIRE_COMPATIBLE_TYPE (a map field renamed: key and value compared, not the entry name)',
    writer: proto3('message M {\n  map<string, int32> counts = 1;\n}'),
    reader: proto3('message M {\n  map<string, int64> totals = 1;\n}'),
    compatible: true,
  },
  {
    source: 'rule: FIELD_WIRE_COMPATIBLE_TYPE (a map key changed across wire groups)',
    writer: proto3('message M {\n  map<string, int32> counts = 1;\n}'),
    reader: proto3('message M {\n  map<int32, int32> counts = 1;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 1,
  },
  {
    source: 'rule: FIELD_WIRE_COMPATIBLE_TYPE (a proto2 group is tag-delimited, a message length-prefixed)',
    writer: proto2('message M {\n  optional group Item = 1 {\n    optional int32 x = 1;\n  }\n}'),
    reader: proto2('message M {\n  message Item {\n    optional int32 x = 1;\n  }\n  optional Item item = 1;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: 'rule: FIELD_WIRE_COMPATIBLE_TYPE (an imported type kept is compared by name)',
    writer: proto3('import "google/protobuf/timestamp.proto";\n\nmessage M {\n  google.protobuf.Timestamp at = 1;\n}'),
    reader: proto3('import "google/protobuf/timestamp.proto";\n\nmessage M {\n  google.protobuf.Timestamp at = 1;\n  string note = 2;\n}'),
    compatible: true,
  },
  {
    source: 'rule: ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED (a lineage rule: a removed enum value does not stop reading)',
    writer: proto3('enum Status {\n  STATUS_UNSPECIFIED = 0;\n  STATUS_OPEN = 1;\n}\n\nmessage M {\n  Status status = 1;\n}'),
    reader: proto3('enum Status {\n  STATUS_UNSPECIFIED = 0;\n}\n\nmessage M {\n  Status status = 1;\n}'),
    compatible: true,
  },
  {
    source: 'rule: FILE_SAME_PACKAGE (messages still pair by name within the package, so field changes are found too)',
    writer: 'syntax = "proto3";\npackage shop.v1;\nmessage Order {\n  int32 id = 1;\n}\n',
    reader: 'syntax = "proto3";\npackage shop.v2;\nmessage Order {\n  string id = 1;\n}\n',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 2,
  },
];

function expectVerdict(problems: { rule: string }[], expected: Pick<ReadCase, 'compatible' | 'rule' | 'problems'>) {
  if (expected.compatible) {
    expect(problems).toEqual([]);
    return;
  }
  expect(problems.length).toBeGreaterThan(0);
  if (expected.rule) expect(problems.map((problem) => problem.rule)).toContain(expected.rule);
  if (expected.problems !== undefined) expect(problems).toHaveLength(expected.problems);
}

describe('protobufReadProblems against the public suites', () => {
  it.each([...BUF_READ_CASES, ...CONFLUENT_READ_CASES, ...RULE_CASES].map((c) => [c.source, c] as const))('%s', (_source, testCase) => {
    expectVerdict(protobufReadProblems(root(testCase.reader), root(testCase.writer)), testCase);
  });

  it('each problem names a path and a rule of Buf\'s WIRE vocabulary', () => {
    const incompatible = [...BUF_READ_CASES, ...CONFLUENT_READ_CASES].filter((c) => !c.compatible);
    for (const testCase of incompatible) {
      for (const problem of protobufReadProblems(root(testCase.reader), root(testCase.writer))) {
        expect(problem.message).not.toBe('');
        if (problem.rule !== 'FILE_SAME_PACKAGE') expect(problem.path).toMatch(/^[\w.]+$/);
      }
    }
  });
});

describe('where Confluent disagrees, Buf\'s WIRE rules are followed', () => {
  it.each(CONFLUENT_DISAGREEMENTS.map((c) => [`${c.source}; ours: ${c.why}`, c] as const))('%s', (_source, testCase) => {
    expect(testCase.compatible).not.toBe(testCase.confluent);
    expectVerdict(protobufReadProblems(root(testCase.reader), root(testCase.writer)), testCase);
  });
});

describe('protobufEvolutionProblems against Buf\'s lineage rules', () => {
  it.each(BUF_EVOLUTION_CASES.map((c) => [c.source, c] as const))('%s', (_source, testCase) => {
    expectVerdict(protobufEvolutionProblems(root(testCase.previous), root(testCase.current)), testCase);
  });

  it('is not a read judgement: the same deletion is readable both ways', () => {
    const [deleted] = BUF_EVOLUTION_CASES;
    expect(protobufReadProblems(root(deleted.current), root(deleted.previous))).toEqual([]);
    expect(protobufReadProblems(root(deleted.previous), root(deleted.current))).toEqual([]);
  });
});

describe('direction: the reader reads what the writer wrote', () => {
  const stringField = proto3('message M {\n  string data = 1;\n}');
  const bytesField = proto3('message M {\n  bytes data = 1;\n}');

  it('reads string data as bytes, not bytes data as string (bytes need not be UTF-8)', () => {
    expect(protobufReadProblems(root(bytesField), root(stringField))).toEqual([]);
    expect(protobufReadProblems(root(stringField), root(bytesField))).toEqual([
      {
        path: 'a.M.data',
        rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
        message: "'a.M.data' (field 1) is written as bytes, read as string: different wire types (bytes need not be valid UTF-8)",
      },
    ]);
  });

  it('reports a message of the writer the reader lacks, not one the reader adds', () => {
    const one = proto3('message A {}');
    const two = proto3('message A {}\n\nmessage B {}');
    expect(protobufReadProblems(root(two), root(one))).toEqual([]);
    expect(protobufReadProblems(root(one), root(two))).toEqual([
      { path: 'a.B', rule: 'MESSAGE_NO_DELETE', message: "message 'a.B' of the writer's schema is not in the reader's" },
    ]);
  });

  it('accepts a field added to the writer: the reader skips it', () => {
    const one = proto3('message A {\n  int32 x = 1;\n}');
    const two = proto3('message A {\n  int32 x = 1;\n  string y = 2;\n}');
    expect(protobufReadProblems(root(one), root(two))).toEqual([]);
    expect(protobufReadProblems(root(two), root(one))).toEqual([]);
  });
});
