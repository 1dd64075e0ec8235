/**
 * The problems PROTOBUF compatibility reports, one constructor per rule. Rule names are Buf's breaking-change rule
 * ids (bufbuild/buf, bufcheckserverbuild), so a problem can be looked up in Buf's documentation. Messages speak of
 * the reader and the writer rather than of old and new, so a problem reads right in both directions.
 */
import type { Incompatibility } from './compatibility-modes';
import type { Cardinality, ProtoField, ProtoMessage } from './protobuf-shapes';
import { fieldPath } from './protobuf-shapes';

export const PROTOBUF_READ_RULES = [
  'FILE_SAME_PACKAGE',
  'MESSAGE_NO_DELETE',
  'FIELD_WIRE_COMPATIBLE_TYPE',
  'FIELD_WIRE_COMPATIBLE_CARDINALITY',
  'FIELD_SAME_ONEOF',
  'FIELD_SAME_DEFAULT',
  'MESSAGE_SAME_REQUIRED_FIELDS',
] as const;

export const PROTOBUF_EVOLUTION_RULES = [
  'FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED',
  'ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED',
  'RESERVED_MESSAGE_NO_DELETE',
  'RESERVED_ENUM_NO_DELETE',
] as const;

export type ProtobufRule = (typeof PROTOBUF_READ_RULES)[number] | (typeof PROTOBUF_EVOLUTION_RULES)[number];

const problem = (path: string, rule: ProtobufRule, message: string): Incompatibility => ({ path, rule, message });

/** `'shop.Order.lines' (field 3)`: how a message names the field it is about. */
const subject = (message: ProtoMessage, field: ProtoField) => `'${fieldPath(message, field)}' (field ${field.number})`;

export function packageChanged(readPackage: string, writtenPackage: string): Incompatibility {
  const name = (pkg: string) => (pkg ? `'${pkg}'` : 'none');
  return problem('', 'FILE_SAME_PACKAGE',
    `the package is ${name(writtenPackage)} when written and ${name(readPackage)} when read: every message's full name changes`);
}

export function messageMissing(writerMessage: ProtoMessage): Incompatibility {
  return problem(writerMessage.fullName, 'MESSAGE_NO_DELETE', `message '${writerMessage.fullName}' of the writer's schema is not in the reader's`);
}

export function typeMismatch(message: ProtoMessage, field: ProtoField, reason: string): Incompatibility {
  return problem(fieldPath(message, field), 'FIELD_WIRE_COMPATIBLE_TYPE', `${subject(message, field)} is ${reason}`);
}

export function cardinalityMismatch(message: ProtoMessage, field: ProtoField, read: Cardinality, written: Cardinality): Incompatibility {
  return problem(fieldPath(message, field), 'FIELD_WIRE_COMPATIBLE_CARDINALITY',
    `${subject(message, field)} is ${written} when written and ${read} when read: not wire compatible`);
}

export function oneofMismatch(message: ProtoMessage, field: ProtoField, read?: string, written?: string): Incompatibility {
  const place = (oneof?: string) => (oneof ? `in oneof '${oneof}'` : 'outside any oneof');
  return problem(fieldPath(message, field), 'FIELD_SAME_ONEOF',
    `${subject(message, field)} is ${place(written)} when written and ${place(read)} when read`);
}

export function defaultMismatch(message: ProtoMessage, field: ProtoField, read: string, written: string): Incompatibility {
  return problem(fieldPath(message, field), 'FIELD_SAME_DEFAULT',
    `${subject(message, field)} has default ${written} when written and ${read} when read: an absent value reads differently`);
}

/** `required` is forever: data without the field fails to parse wherever it is required. */
export function requiredMismatch(message: ProtoMessage, field: ProtoField, requiredBy: 'reader' | 'writer'): Incompatibility {
  const other = requiredBy === 'reader' ? "writer's" : "reader's";
  return problem(fieldPath(message, field), 'MESSAGE_SAME_REQUIRED_FIELDS',
    `${subject(message, field)} is required in the ${requiredBy}'s schema but not in the ${other}: data without it fails to parse where it is required`);
}

export function fieldDeletedUnreserved(message: ProtoMessage, field: ProtoField): Incompatibility {
  return problem(fieldPath(message, field), 'FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED',
    `${subject(message, field)} was deleted without reserving number ${field.number}: a later field may reuse it with another type`);
}

export function enumValueDeletedUnreserved(enumName: string, number: number, names: string[]): Incompatibility {
  return problem(`${enumName}.${names[0]}`, 'ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED',
    `value ${number} (${names.join(', ')}) of enum '${enumName}' was deleted without reserving the number`);
}

export function reservedDeleted(owner: { fullName: string }, kind: 'message' | 'enum', what: string): Incompatibility {
  return problem(owner.fullName, kind === 'message' ? 'RESERVED_MESSAGE_NO_DELETE' : 'RESERVED_ENUM_NO_DELETE',
    `reserved ${what} of ${kind} '${owner.fullName}' is no longer reserved`);
}
