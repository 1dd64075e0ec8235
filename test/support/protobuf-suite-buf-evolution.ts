/**
 * Cases from Buf's breaking-change tests for the WIRE rules that judge a lineage (previous → current) rather than
 * a reader/writer pair: deleted fields and enum values must have their numbers reserved, and reservations stay.
 * Texts as in Buf's testdata/breaking/{previous,current}/breaking_<rule>/1.proto, one message or enum a case.
 */
import { proto3, testdata } from './protobuf-suite-buf';

export interface EvolutionCase {
  source: string;
  previous: string;
  current: string;
  compatible: boolean;
  rule?: string;
  problems?: number;
}

const fieldDelete = (detail: string) =>
  testdata('breaking_field_no_delete_unless_number_reserved', 'FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED', detail);
const valueDelete = (detail: string) =>
  testdata('breaking_enum_value_no_delete_unless_number_reserved', 'ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED', detail);
const reservedMessage = (detail: string) => testdata('breaking_reserved_message_no_delete', 'RESERVED_MESSAGE_NO_DELETE', detail);

const oneTwoThree = '  int32 one = 1;\n  int32 two = 2;\n  int32 three = 3;';
const reservations = '  reserved 4 to 5, 100 to 200;\n  reserved 300, 301, 1000 to max;\n  reserved "foo", "bar";\n  reserved "baz";';

export const BUF_EVOLUTION_CASES: EvolutionCase[] = [
  {
    source: fieldDelete('message Two: field 3 deleted and reserved, field 2 deleted unreserved'),
    previous: proto3(`message Two {\n${oneTwoThree}\n}`),
    current: proto3('message Two {\n  reserved 3 ;\n\n  int32 one = 1;\n}'),
    compatible: false,
    rule: 'FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED',
    problems: 1,
  },
  {
    source: fieldDelete('message Three: fields 2 and 3 deleted, nothing reserved'),
    previous: proto3(`message Three {\n${oneTwoThree}\n}`),
    current: proto3('message Three {\n  int32 one = 1;\n}'),
    compatible: false,
    rule: 'FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED',
    problems: 2,
  },
  {
    source: fieldDelete('message Ten: deleted fields covered by reserved 2 to 3 and 5 to max'),
    previous: proto3('message Ten {\n  int32 one = 1;\n  int32 two = 2;\n  int32 three = 3;\n  int32 four = 4;\n  int32 five = 5;\n  int32 six = 6;\n}'),
    current: proto3('message Ten {\n  reserved 2 to 3;\n  reserved 5 to max;\n  int32 one = 1;\n  int32 four = 4;\n}'),
    compatible: true,
  },
  {
    source: fieldDelete('message Three.Eight: a field renamed, none deleted'),
    previous: proto3(`message Three {\n  message Eight {\n${oneTwoThree}\n  }\n}`),
    current: proto3('message Three {\n  message Eight {\n    int32 one = 1;\n    int32 changed_name = 2;\n    int32 three = 3;\n  }\n}'),
    compatible: true,
  },
  {
    source: valueDelete('enum Two: value 2 deleted under reserved 2 to 6, value 1 deleted unreserved'),
    previous: proto3('enum Two {\n  TWO_UNSPECIFIED = 0;\n  TWO_ONE = 1;\n  TWO_TWO = 2;\n}'),
    current: proto3('enum Two {\n  reserved 2 to 6;\n\n  TWO_UNSPECIFIED = 0;\n}'),
    compatible: false,
    rule: 'ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED',
    problems: 1,
  },
  {
    source: valueDelete('enum Eleven: the aliased number 1 deleted'),
    previous: proto3('enum Eleven {\n  option allow_alias = true;\n  ELEVEN_UNSPECIFIED = 0;\n  ELEVEN_ONE = 1;\n  ELEVEN_TWO = 1;\n}'),
    current: proto3('enum Eleven {\n  ELEVEN_UNSPECIFIED = 0;\n}'),
    compatible: false,
    rule: 'ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED',
    problems: 1,
  },
  {
    source: valueDelete('enum Ten: aliases kept'),
    previous: proto3('enum Ten {\n  option allow_alias = true;\n  TEN_UNSPECIFIED = 0;\n  TEN_ONE = 1;\n  TEN_TWO = 1;\n}'),
    current: proto3('enum Ten {\n  option allow_alias = true;\n  TEN_UNSPECIFIED = 0;\n  TEN_ONE = 1;\n  TEN_TWO = 1;\n}'),
    compatible: true,
  },
  {
    source: reservedMessage('message Two: ranges 4 to 5, 301, 1000 to max and names "bar", "baz" no longer reserved'),
    previous: proto3(`message Two {\n${reservations}\n${oneTwoThree}\n}`),
    current: proto3(`message Two {\n  reserved 100 to 250;\n  reserved 300;\n  reserved "foo";\n${oneTwoThree}\n}`),
    compatible: false,
    rule: 'RESERVED_MESSAGE_NO_DELETE',
    problems: 5,
  },
  {
    source: reservedMessage('message Three.Four.Six: 100 to 200 widened to 100 to 250'),
    previous: proto3(`message Three {\n  message Four {\n    message Six {\n${reservations}\n${oneTwoThree}\n    }\n  }\n}`),
    current: proto3(`message Three {\n  message Four {\n    message Six {\n  reserved 4 to 5, 100 to 250;\n  reserved 300, 301, 1000 to max;\n  reserved "foo", "bar";\n  reserved "baz";\n${oneTwoThree}\n    }\n  }\n}`),
    compatible: true,
  },
];
