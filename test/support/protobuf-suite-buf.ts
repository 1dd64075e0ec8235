/**
 * Cases from Buf's breaking-change tests (bufbuild/buf, private/bufpkg/bufcheck/breaking_test.go over
 * testdata/breaking/{previous,current}/breaking_<rule>/). Buf judges `current` against `previous`; as Kafka data
 * that is `current` reading what `previous` wrote, so `reader` is Buf's current file and `writer` its previous one.
 * A case keeps the messages Buf annotates (or leaves alone, for compatible ones) with their text as in Buf's files;
 * since a schema here is one file, a message referenced from another file of the directory is declared empty beside
 * them. The detail after the rule names the message and field of Buf's file a case comes from.
 */
export interface ReadCase {
  source: string;
  reader: string;
  writer: string;
  compatible: boolean;
  /** A rule the problems must include (incompatible cases). */
  rule?: string;
  /** How many problems, where Buf's annotations count them. */
  problems?: number;
}

export const testdata = (directory: string, rule: string, detail: string) =>
  `bufbuild/buf private/bufpkg/bufcheck/testdata/breaking/{previous,current}/${directory} (${rule}): ${detail}`;
export const proto3 = (body: string) => `syntax = "proto3";\n\npackage a;\n\n${body}\n`;
export const proto2 = (body: string) => `syntax = "proto2";\n\npackage a;\n\n${body}\n`;
const edition2023 = (body: string) => `edition = "2023";\n\npackage a;\n\n${body}\n`;

const wireType = (detail: string) => testdata('breaking_field_wire_compatible_type', 'FIELD_WIRE_COMPATIBLE_TYPE', detail);
const cardinality = (detail: string) => testdata('breaking_field_wire_compatible_cardinality', 'FIELD_WIRE_COMPATIBLE_CARDINALITY', detail);
const sameOneof = (detail: string) => testdata('breaking_field_same_oneof', 'FIELD_SAME_ONEOF', detail);
const required = (detail: string) => testdata('breaking_message_same_required_fields', 'MESSAGE_SAME_REQUIRED_FIELDS', detail);
const sameDefault = (detail: string) => testdata('breaking_field_same_default', 'FIELD_SAME_DEFAULT', detail);
const samePackage = (detail: string) => testdata('breaking_file_same_package', 'FILE_SAME_PACKAGE', detail);

const primitives = (name: string, fields: string) => proto3(`message ${name} {\n${fields}\n}`);

export const BUF_READ_CASES: ReadCase[] = [
  {
    source: wireType('message CompatiblePrimitives, each field changed within its group'),
    writer: primitives('CompatiblePrimitives', `  int32 int32_field_1 = 1;\n  uint32 uint32_field_1 = 2;\n  int64 int64_field_1 = 3;\n  uint64 uint64_field_1 = 4;\n  bool bool_field_1 = 5;\n  sint32 sint32_field_1 = 6;\n  sint64 sint64_field_1 = 7;\n  fixed32 fixed32_field_1 = 8;\n  sfixed32 sfixed32_field_1 = 9;\n  fixed64 fixed64_field_1 = 10;\n  sfixed64 sfixed64_field_1 = 11;\n  string string_field_1 = 12;\n  bytes bytes_field_1 = 14;\n  float float_field_1 = 15;\n  double double_field_1 = 16;`),
    reader: primitives('CompatiblePrimitives', `  bool bool_field_1 = 1;\n  int32 int32_field_1 = 2;\n  uint32 uint32_field_1 = 3;\n  int64 int64_field_1 = 4;\n  uint64 uint64_field_1 = 5;\n  sint64 sint64_field_1 = 6;\n  sint32 sint32_field_1 = 7;\n  sfixed32 sfixed32_field_1 = 8;\n  fixed32 fixed32_field_1 = 9;\n  sfixed64 sfixed64_field_1 = 10;\n  fixed64 fixed64_field_1 = 11;\n  string string_field_1 = 12;\n  bytes bytes_field_1 = 14;\n  float float_field_1 = 15;\n  double double_field_1 = 16;`),
    compatible: true,
  },
  {
    source: wireType('message IncompatiblePrimitives, all 15 fields annotated'),
    writer: primitives('IncompatiblePrimitives', `  int32 int32_field_1 = 1;\n  uint32 uint32_field_1 = 2;\n  int64 int64_field_1 = 3;\n  uint64 uint64_field_1 = 4;\n  bool bool_field_1 = 5;\n  sint32 sint32_field_1 = 6;\n  sint64 sint64_field_1 = 7;\n  fixed32 fixed32_field_1 = 8;\n  sfixed32 sfixed32_field_1 = 9;\n  fixed64 fixed64_field_1 = 10;\n  sfixed64 sfixed64_field_1 = 11;\n  string string_field_1 = 12;\n  bytes bytes_field_1 = 14;\n  float float_field_1 = 15;\n  double double_field_1 = 16;`),
    reader: primitives('IncompatiblePrimitives', `  sfixed64 sfixed64_field_1 = 1;\n  string string_field_1 = 2;\n  bytes bytes_field_1 = 3;\n  float float_field_1 = 4;\n  double double_field_1 = 5;\n  fixed32 fixed32_field_1 = 6;\n  sfixed32 sfixed32_field_1 = 7;\n  sint32 sint32_field_1 = 8;\n  sint64 sint64_field_1 = 9;\n  string fixed64_field_1 = 10;\n  int32 int32_field_1 = 11;\n  uint32 uint32_field_1 = 12;\n  int64 int64_field_1 = 14;\n  uint64 uint64_field_1 = 15;\n  bool bool_field_1 = 16;`),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 15,
  },
  {
    source: wireType('message WithCompatibleEnums: enums moved in and out of the message, same short name, values added'),
    writer: proto3('enum Foo {\n  FOO_UNSPECIFIED = 0;\n  FOO_ONE = 1;\n}\n\nmessage WithCompatibleEnums {\n  enum Baz {\n    BAZ_UNSPECIFIED = 0;\n    BAZ_ONE = 1;\n  }\n  Foo foo = 1;\n  Baz baz = 2;\n}'),
    reader: proto3('enum Baz {\n  BAZ_UNSPECIFIED = 0;\n  BAZ_ONE = 1;\n  BAZ_TWO = 2;\n}\n\nmessage WithCompatibleEnums {\n  enum Foo {\n    FOO_UNSPECIFIED = 0;\n    FOO_ONE = 1;\n    FOO_TWO = 2;\n  }\n  Foo foo = 1;\n  Baz baz = 2;\n}'),
    compatible: true,
  },
  {
    source: wireType('message WithIncompatibleEnums: a value renamed, another renamed, another enum'),
    writer: proto3('enum Bar {\n  BAR_UNSPECIFIED = 0;\n  BAR_ONE = 1;\n}\n\nmessage WithIncompatibleEnums {\n  enum Bat {\n    BAT_UNSPECIFIED = 0;\n    BAT_ONE = 1;\n  }\n  enum Bam {\n    BAM_UNSPECIFIED = 0;\n    BAM_ONE = 1;\n  }\n  Bar bar = 1;\n  Bat bat = 2;\n  Bam bam = 3;\n}'),
    reader: proto3('enum Bat {\n  BAT_UNSPECIFIED = 0;\n  BAT_TWO = 1;\n}\n\nmessage WithIncompatibleEnums {\n  enum Bar {\n    BAR_UNSPECIFIED = 0;\n    BAR_TWO = 1;\n  }\n  enum Ban {\n    BAN_UNSPECIFIED = 0;\n    BAN_ONE = 1;\n  }\n  Bar bar = 1;\n  Bat bat = 2;\n  Ban ban = 3;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 3,
  },
  {
    source: wireType('message StringBytes: string to bytes passes, bytes to string is annotated'),
    writer: proto3('message StringBytes {\n  string string_field_1 = 1;\n  bytes bytes_field_1 = 2;\n}'),
    reader: proto3('message StringBytes {\n  bytes string_field_1 = 1;\n  string bytes_field_1 = 2;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 1,
  },
  {
    source: wireType('message StringBytes, field string_field_1 alone (string to bytes)'),
    writer: proto3('message StringBytes {\n  string string_field_1 = 1;\n}'),
    reader: proto3('message StringBytes {\n  bytes string_field_1 = 1;\n}'),
    compatible: true,
  },
  {
    source: wireType('2.proto → 3.proto, edition 2023 message Message: length-prefixed and DELIMITED swapped on fields 1 and 2'),
    writer: edition2023('message Message {\n  Message normal = 1;\n  Message delimited = 2 [features.message_encoding=DELIMITED];\n  Message normal_b = 3;\n  Message delimited_b = 4 [features.message_encoding=DELIMITED];\n}'),
    reader: edition2023('message Message {\n  Message normal = 1 [features.message_encoding=DELIMITED];\n  Message delimited = 2;\n  Message normal_b = 3;\n  Message delimited_b = 4 [features.message_encoding=DELIMITED];\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    problems: 2,
  },
  {
    source: cardinality('message Two, field one: int32 → repeated int64'),
    writer: proto3('message Two {\n  int32 one = 1;\n}'),
    reader: proto3('message Two {\n  repeated int64 one = 1;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    problems: 1,
  },
  {
    source: cardinality('message Two, field three: repeated int32 → int64'),
    writer: proto3('message Two {\n  repeated int32 three = 3;\n}'),
    reader: proto3('message Two {\n  int64 three = 3;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    problems: 1,
  },
  {
    source: cardinality('message Two, field five: map<int32, int32> → int32'),
    writer: proto3('message Two {\n  map<int32, int32> five = 5;\n}'),
    reader: proto3('message Two {\n  int32 five = 5;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
  },
  {
    source: cardinality('message Three.Four.Six: map<int32, One> six → repeated SixEntry six with the entry written out'),
    writer: proto3('message One {}\n\nmessage Three {\n  message Four {\n    message Six {\n      map<int32, One> six = 6;\n    }\n  }\n}'),
    reader: proto3('message One {}\n\nmessage Three {\n  message Four {\n    message Six {\n      repeated SixEntry six = 6;\n      message SixEntry {\n        int32 key = 1;\n        One value = 2;\n      }\n    }\n  }\n}'),
    compatible: true,
  },
  {
    source: cardinality('message Three.Eight, field one: proto3 optional (explicit presence) → implicit presence'),
    writer: proto3('message Three {\n  message Eight {\n    optional int32 one = 1;\n  }\n}'),
    reader: proto3('message Three {\n  message Eight {\n    int32 one = 1;\n  }\n}'),
    compatible: true,
  },
  {
    source: cardinality('2.proto message One2: optional → required'),
    writer: proto2('message One {}\n\nmessage One2 {\n  optional int32 one = 1;\n  optional One two = 2;\n  repeated int32 three = 3;\n  repeated One four = 4;\n}'),
    reader: proto2('message One {}\n\nmessage One2 {\n  required int32 one = 1;\n  required One two = 2;\n  repeated int32 three = 3;\n  repeated One four = 4;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
  },
  {
    source: cardinality('message Ten: proto3 singular fields → proto2 repeated and required'),
    writer: proto3('message Ten {\n  int64 one = 1;\n  int64 two = 2;\n}'),
    reader: proto2('message Ten {\n  repeated int64 one = 1;\n  required int64 two = 2;\n}'),
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
  },
  {
    source: cardinality('message Ten2: proto2 required → edition 2023 LEGACY_REQUIRED'),
    writer: proto2('message Ten2 {\n  repeated int64 one = 1;\n  required int64 two = 2;\n}'),
    reader: edition2023('message Ten2 {\n  repeated int64 one = 1;\n  int64 two = 2 [features.field_presence = LEGACY_REQUIRED];\n}'),
    compatible: true,
  },
  {
    source: sameOneof('message Two: one moved out of oneof foo, two from oneof bar to baz, three into foo'),
    writer: proto3('message Two {\n  oneof foo {\n    int32 one = 1;\n  }\n  oneof bar {\n    int32 two = 2;\n  }\n  int32 three = 3;\n}'),
    reader: proto3('message Two {\n  int32 one = 1;\n  oneof baz {\n    int32 two = 2;\n  }\n  oneof foo {\n    int32 three = 3;\n  }\n}'),
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    problems: 3,
  },
  {
    source: sameOneof('message One: a proto3 optional field (synthetic oneof) made implicit'),
    writer: proto3('message One {\n  oneof foo {\n    int32 one = 1;\n  }\n  oneof bar {\n    int32 two = 2;\n  }\n  int32 three = 3;\n  optional string four = 4;\n}'),
    reader: proto3('message One {\n  oneof foo {\n    int32 one = 1;\n  }\n  oneof bar {\n    int32 two = 2;\n  }\n  int32 three = 3;\n  string four = 4;\n}'),
    compatible: true,
  },
  {
    source: required('message One: required field 1 replaced by required field 2'),
    writer: proto2('message One {\n  required string one = 1;\n}'),
    reader: proto2('message One {\n  required string two = 2;\n}'),
    compatible: false,
    rule: 'MESSAGE_SAME_REQUIRED_FIELDS',
    problems: 2,
  },
  {
    source: required('message Three.Eight: a required field added'),
    writer: proto2('message Three {\n  message Eight {}\n}'),
    reader: proto2('message Three {\n  message Eight {\n    // Eight had no previous required field\n    required string two = 2;\n  }\n}'),
    compatible: false,
    rule: 'MESSAGE_SAME_REQUIRED_FIELDS',
    problems: 1,
  },
  {
    source: required('message Three.Four.Six: its required field deleted'),
    writer: proto2('message Three {\n  message Four {\n    message Six {\n      required string one = 1;\n    }\n  }\n}'),
    reader: proto2('message Three {\n  message Four {\n    message Six {\n      // Six had a required field previously\n    }\n  }\n}'),
    compatible: false,
    rule: 'MESSAGE_SAME_REQUIRED_FIELDS',
    problems: 1,
  },
  {
    source: required('message Nine: a new message with required fields'),
    writer: proto2('message One2 {\n  required string one = 1;\n}'),
    reader: proto2('message One2 {\n  required string one = 1;\n}\n\nmessage Nine {\n  // Nine is a new message so this should not end up being a breaking change.\n  required string one = 1;\n  required string two = 2;\n}'),
    compatible: true,
  },
  {
    source: sameDefault('message Foo, field s2: default "abc" removed'),
    writer: proto2('message Foo {\n  optional string s2 = 2 [default = "abc"];\n}'),
    reader: proto2('message Foo {\n  optional string s2 = 2;\n}'),
    compatible: false,
    rule: 'FIELD_SAME_DEFAULT',
    problems: 1,
  },
  {
    source: sameDefault('message Foo, field s4: default "abc" → "xyz"'),
    writer: proto2('message Foo {\n  optional string s4 = 4 [default = "abc"];\n}'),
    reader: proto2('message Foo {\n  optional string s4 = 4 [default = "xyz"];\n}'),
    compatible: false,
    rule: 'FIELD_SAME_DEFAULT',
    problems: 1,
  },
  {
    source: sameDefault('message Foo, fields s1 (unchanged) and s3 (string "abc" → bytes "abc")'),
    writer: proto2('message Foo {\n  optional string s1 = 1 [default = "abc"];\n  optional string s3 = 3 [default = "abc"];\n}'),
    reader: proto2('message Foo {\n  optional string s1 = 1 [default = "abc"];\n  optional bytes s3 = 3 [default = "abc"];\n}'),
    compatible: true,
  },
  {
    source: sameDefault('message Foo.Int32s, field i4: default 123 → 456'),
    writer: proto2('message Foo {\n  message Int32s {\n    optional int32 i1 = 1 [default = 123];\n    optional int32 i4 = 4 [default = 123];\n  }\n}'),
    reader: proto2('message Foo {\n  message Int32s {\n    optional int32 i1 = 1 [default = 123];\n    optional int32 i4 = 4 [default = 456];\n  }\n}'),
    compatible: false,
    rule: 'FIELD_SAME_DEFAULT',
    problems: 1,
  },
  {
    source: sameDefault('2.proto message Fizz, field s1: proto3 → edition 2023 with default "abc"'),
    writer: proto3('message Fizz {\n  string s1 = 1;\n  string s2 = 2;\n}'),
    reader: edition2023('message Fizz {\n  string s1 = 1 [default = "abc"];\n  string s2 = 2;\n}'),
    compatible: false,
    rule: 'FIELD_SAME_DEFAULT',
    problems: 1,
  },
  {
    source: samePackage('a/a.proto: package a → b'),
    writer: 'syntax = "proto3";\n\npackage a;\n',
    reader: 'syntax = "proto3";\n\npackage b;\n',
    compatible: false,
    rule: 'FILE_SAME_PACKAGE',
    problems: 1,
  },
  {
    source: samePackage('no_package.proto: no package → package c'),
    writer: 'syntax = "proto3";\n',
    reader: 'syntax = "proto3";\n\npackage c;\n',
    compatible: false,
    rule: 'FILE_SAME_PACKAGE',
    problems: 1,
  },
  {
    source: samePackage('a/b/a_b.proto: package a.b kept'),
    writer: 'syntax = "proto3";\n\npackage a.b;\n',
    reader: 'syntax = "proto3";\n\npackage a.b;\n',
    compatible: true,
  },
  {
    // Buf files this rule under FILE, not WIRE; Confluent's SchemaDiff refuses it too (MESSAGE_REMOVED).
    source: testdata('breaking_message_no_delete', 'MESSAGE_NO_DELETE', '1.proto: Two, Three.Four.Five and Three.Seven deleted'),
    writer: proto3('message One {}\n\nmessage Two {}\n\nmessage Three {\n  message Four {\n    message Five {}\n    message Six {}\n  }\n  message Seven{}\n  message Eight{}\n}'),
    reader: proto3('message One {}\n\nmessage Three {\n  message Four {\n    message Six {}\n  }\n  message Eight{}\n}'),
    compatible: false,
    rule: 'MESSAGE_NO_DELETE',
    problems: 3,
  },
];
