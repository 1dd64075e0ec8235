/**
 * Confluent Schema Registry's SchemaDiff examples (see protobuf-suite-confluent.ts) whose verdict is not ours,
 * because Buf's WIRE rules say otherwise and those are followed (protobuf-compatibility.ts says why).
 * `confluent` is Confluent's verdict; `compatible` and `rule` are ours; `why` names the rule that decides.
 */
import type { ReadCase } from './protobuf-suite-buf';
import { diffExample } from './protobuf-suite-confluent';

export interface DisagreementCase extends ReadCase {
  confluent: boolean;
  why: string;
}

export const CONFLUENT_DISAGREEMENTS: DisagreementCase[] = [
  {
    source: diffExample(12, 'Detect field number type to enum change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n}\nenum Status {\n    ACTIVE = 0;\n    INACTIVE = 1;\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    why: 'Buf\'s FIELD_WIRE_COMPATIBLE_TYPE keeps enums apart from integers: nothing guarantees an integer written names a value of the enum',
  },
  {
    source: diffExample(13, 'Detect enum type to field number change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    Status test_int = 2;\n}\nenum Status {\n    ACTIVE = 0;\n    INACTIVE = 1;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    int32 test_int = 2;\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_TYPE',
    why: 'Buf\'s FIELD_WIRE_COMPATIBLE_TYPE keeps enums apart from integers, in both directions',
  },
  {
    source: diffExample(17, 'Detect compatible field to oneof change'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    oneof new_oneof {\n        string test_string2 = 2;\n        int32 other_id = 3;\n}\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    why: 'Buf\'s FIELD_SAME_ONEOF: an existing field moved into a oneof',
  },
  {
    source: diffExample(20, 'Detect incompatible remove field from oneof'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n        int32 other_id = 3;\n}\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    oneof new_oneof {\n    string test_string = 1;\n    string test_string2 = 2;\n}\n}',
    confluent: false,
    compatible: true,
    why: 'a deleted field, in a oneof or not, is readable (the reader skips it); Buf only asks that its number be reserved, a lineage rule',
  },
  {
    source: diffExample(21, 'Detect compatible move field to oneof'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    string test_string2 = 2;\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    oneof new_oneof {\n    string test_string2 = 2;\n}\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    why: 'Buf\'s FIELD_SAME_ONEOF: an existing field moved into a oneof, even a new one of its own',
  },
  {
    source: diffExample(29, 'Detect compatible field label change for message'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    optional Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    string test_string = 1;\n    repeated Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    why: 'Buf\'s FIELD_WIRE_COMPATIBLE_CARDINALITY: optional and repeated are different wire cardinalities',
  },
  {
    source: diffExample(30, 'Detect compatible field label change for string'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    optional string test_string = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    repeated string test_string = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    why: 'Buf\'s FIELD_WIRE_COMPATIBLE_CARDINALITY: optional and repeated are different wire cardinalities, for strings too',
  },
  {
    source: diffExample(31, 'Detect compatible field label change for bytes'),
    writer: 'syntax = "proto3";\nmessage TestMessage {\n    optional bytes test_bytes = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    reader: 'syntax = "proto3";\nmessage TestMessage {\n    repeated bytes test_bytes = 1;\n    Status test_status = 2;\n    message Status {\n    string test_string = 1;\n    }\n}',
    confluent: true,
    compatible: false,
    rule: 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    why: 'Buf\'s FIELD_WIRE_COMPATIBLE_CARDINALITY: optional and repeated are different wire cardinalities, for bytes too',
  },
  {
    source: diffExample(46, 'Detect compatible oneof rename with identical fields'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oldOneOf {\n    float field_float = 1;\n    int32 field_int = 2;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof renamedOneOf {\n    float field_float = 1;\n    int32 field_int = 2;\n  }\n}\n',
    confluent: true,
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    why: 'Buf\'s FIELD_SAME_ONEOF compares oneof names: renaming the oneof moves its fields to another oneof',
  },
  {
    source: diffExample(50, 'Detect compatible move of a single field into a new singleton oneof from a surviving oneof'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a { int32 field_a = 1; int32 field_b = 2; }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_a { int32 field_b = 2; }\n  oneof oneof_b { int32 field_a = 1; }\n}\n',
    confluent: true,
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    why: 'Buf\'s FIELD_SAME_ONEOF: a field moved from one oneof to another',
  },
  {
    source: diffExample(52, 'Detect compatible move field out of a oneof to top level'),
    writer: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_x {\n    int32 field_a = 1;\n    int32 field_b = 2;\n  }\n}\n',
    reader: 'syntax = "proto3";\nmessage Message {\n  oneof oneof_x {\n    int32 field_a = 1;\n  }\n  int32 field_b = 2;\n}\n',
    confluent: true,
    compatible: false,
    rule: 'FIELD_SAME_ONEOF',
    why: 'Buf\'s FIELD_SAME_ONEOF: a field moved out of its oneof',
  },
];
