/**
 * Cases from Confluent Schema Registry's PROTOBUF compatibility tests: confluentinc/schema-registry
 * protobuf-provider/src/test/resources/diff-schema-examples.json, which SchemaDiffTest runs through
 * `SchemaDiff.compare(original, update)`. ProtobufSchema.isBackwardCompatible(previous) is that same comparison
 * with the candidate as `update`, so `update` is the reader and `original` the writer. Texts are verbatim; the
 * number is the case's index in the file (some descriptions repeat). Cases that need schema references
 * (imports resolved from other subjects) are left out: a schema here is one file.
 */
import type { ReadCase } from './protobuf-suite-buf';

export const diffExample = (index: number, description: string) =>
  `confluentinc/schema-registry protobuf-provider/src/test/resources/diff-schema-examples.json #${index} (SchemaDiffTest): "${description}"`;

/** Cases where Confluent's verdict is also ours. */
export const CONFLUENT_READ_CASES: ReadCase[] = [
  {
    source: diffExample(1, 'Detect package change'),
    writer: 'syntax = "proto3";\npackage foo;\nmessage TestMessage {\n    string test_string = 1;\n    .foo.TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\npackage bar;\nmessage TestMessage {\n    string test_string = 1;\n    .bar.TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    compatible: false,
    rule: 'FILE_SAME_PACKAGE',
  },
  {
    source: diffExample(2, 'Detect change to name qualification'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    .TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    compatible: true,
  },
  {
    source: diffExample(3, 'Detect change to name qualification with package'),
    writer: 'syntax = "proto3";\npackage foo;\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\npackage foo;\nmessage TestMessage {\n    string test_string = 1;\n    .foo.TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    compatible: true,
  },
  {
    source: diffExample(4, 'Detect added field'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    compatible: true,
  },
  {
    source: diffExample(5, 'Detect added required field'),
    writer: 'syntax = "proto2";\nmessage TestMessage {\n    optional string test_string = 1;\n}',
    reader: 'syntax = "proto2";\nmessage TestMessage {\n    optional string test_string = 1;\n    required string test_string2 = 2;\n}',
    compatible: false,
    rule: 'MESSAGE_SAME_REQUIRED_FIELDS',
  },
  {
    source: diffExample(6, 'Detect added field to nested type'),
    writer: 'syntax = "proto3";\nmessage Wrapper {\n    int32 wrapperInt = 1;\n    message TestMessage {\n    string test_string = 1;\n}\n}',
    reader: 'syntax = "proto3";\nmessage Wrapper {\n    int32 wrapperInt = 1;\n    message TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}\n}',
    compatible: true,
  },
  {
    source: diffExample(7, 'Detect removed field'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}\n',
    compatible: true,
  },
  {
    source: diffExample(8, 'Detect removed required field'),
    writer: 'syntax = "proto2";\nmessage TestMessage {\n    optional string test_string = 1;\n    required string test_string2 = 2;\n}',
    reader: 'syntax = "proto2";\nmessage TestMessage {\n    optional string test_string = 1;\n}\n',
    compatible: false,
    rule: 'MESSAGE_SAME_REQUIRED_FIELDS',
  },
  {
    source: diffExample(9, 'Detect changed field number'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 2;\n}',
    compatible: true,
  },
  {
    source: diffExample(10, 'Detect compatible field number type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int64 test_int = 2;\n}',
    compatible: true,
  },
  {
    source: diffExample(11, 'Detect compatible field string type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    bytes test_string2 = 2;\n}',
    compatible: true,
  },
  {
    source: diffExample(14, 'Detect field number type to message with same name as enum'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    .TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}\nenum Status {\n    ACTIVE = 0;\n    INACTIVE = 1;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(15, 'Detect message with same name as enum to field number change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    .TestMessage.Status test_int = 2;\n    message Status {\n    string test_string = 1;\n    }\n}\nenum Status {\n    ACTIVE = 0;\n    INACTIVE = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(16, 'Detect enum const change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n}\nenum Status {\n    ACTIVE = 0;\n    INACTIVE = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n}\nenum Status {\n    ACTIVE = 0;\n    NOT_ACTIVE = 1;\n}',
    compatible: true,
  },
  {
    source: diffExample(18, 'Detect incompatible field to oneof change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n        int32 other_id = 3;\n}\n}',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(19, 'Detect compatible add field to oneof'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n}\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n        int32 other_id = 3;\n}\n}',
    compatible: true,
  },
  {
    source: diffExample(22, 'Detect incompatible move field to oneof'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    oneof new_oneof {\n    string test_string2 = 2;\n    string test_string3 = 3;\n}\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n    string test_string3 = 3;\n}\n}',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(23, 'Detect incompatible move field to renamed oneof'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    oneof new_oneof {\n    string test_string2 = 2;\n    string test_string3 = 3;\n}\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof_2 {\n    string test_string = 1;\n    string test_string2 = 2;\n    string test_string3 = 3;\n}\n}',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(24, 'Detect incompatible field type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    TestMessage2 test_int = 2;\n}\nmessage TestMessage2 {\n    string s1 = 1;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(25, 'Detect incompatible field type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(26, 'Detect incompatible field type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    TestMessage2 test_int = 2;\n}\nmessage TestMessage2 {\n    string s1 = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    TestMessage3 test_int = 2;\n}\nmessage TestMessage3 {\n    string s1 = 1;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(27, 'Detect incompatible field type change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    map<string, int32> test_map_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    map<string, string> test_map_string = 2;\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(28, 'Detect compatible name qualification in map'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    map<string, Status> test_map = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    map<string, TestMessage.Status> test_map = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    compatible: true,
  },
  {
    source: diffExample(32, 'Detect incompatible field label change for number'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    optional int32 test_int = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    repeated int32 test_int = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
  },
  {
    source: diffExample(33, 'Detect compatible message addition'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}\nmessage TestMessage2 {\n    string test_string = 1;\n}',
    compatible: true,
  },
  {
    source: diffExample(34, 'Detect compatible message index change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage2 {\n    string test_string = 1;\n}\nmessage TestMessage {\n    string test_string = 1;\n}',
    compatible: true,
  },
  {
    source: diffExample(35, 'Detect compatible message index change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n}\nmessage TestMessage2 {\n    string test_string = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage2 {\n    string test_string = 1;\n}\nmessage TestMessage {\n    string test_string = 1;\n}',
    compatible: true,
  },
  {
    source: diffExample(43, 'Detect incompatible field type change when enclosing oneof is renamed'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oldOneOf {\n    float field_float = 1;\n    int32 field_with_incompatible_type_change = 2;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof renamedOneOf {\n    float field_float = 1;\n    string field_with_incompatible_type_change = 2;\n  }\n}\n',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(44, 'Detect incompatible field type change when field is moved out of a removed oneof'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oldOneOf {\n    float field_float = 1;\n    int32 field_with_incompatible_type_change = 2;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  float field_float = 1;\n  sint64 field_with_incompatible_type_change = 2;\n}\n',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(45, 'Detect incompatible field type change when field is moved into a new oneof'),
    writer: 'syntax = "proto3";\nmessage Message {\n  float field_float = 1;\n  int32 field_with_incompatible_type_change = 2;\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  float field_float = 1;\n  oneof newOneOf {\n    sint64 field_with_incompatible_type_change = 2;\n  }\n}\n',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
  {
    source: diffExample(47, 'Detect incompatible field move between two differently-named oneofs'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a {\n    int32 field_1 = 1;\n    int32 field_2 = 2;\n  }\n  oneof oneof_b {\n    int32 field_3 = 3;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a {\n    int32 field_1 = 1;\n  }\n  oneof oneof_b {\n    int32 field_3 = 3;\n    int32 field_2 = 2;\n  }\n}\n',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(48, 'Detect incompatible move of a field from a deleted oneof into an existing oneof'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a { int32 field_a = 1; }\n  oneof oneof_b { int32 field_b = 3; }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_b { int32 field_b = 3; int32 field_a = 1; }\n}\n',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(49, 'Detect incompatible merge of two oneofs into a new oneof'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a { int32 field_a = 1; }\n  oneof oneof_b { int32 field_b = 2; }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_c { int32 field_a = 1; int32 field_b = 2; }\n}\n',
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
  },
  {
    source: diffExample(53, 'Detect incompatible type change when field moved out of a oneof to top level'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_x {\n    int32 field_a = 1;\n    int32 field_b = 2;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_x {\n    int32 field_a = 1;\n  }\n  string field_b = 2;\n}\n',
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
  },
];
