/**
 * PROTOBUF compatibility of one pair: can a consumer holding `reader` read the bytes a producer wrote with `writer`?
 * Kafka records carry the binary encoding, so the rules are Buf's WIRE category (bufbuild/buf, V2 rule set),
 * not WIRE_JSON: field and enum value names and json_name never reach the binary wire, so renaming them is fine.
 * Where Buf's WIRE category says nothing, Confluent Schema Registry's ProtobufSchema (SchemaDiff) is followed:
 * a message of the writer's schema missing from the reader's is refused (MESSAGE_REMOVED), because Schema
 * Registry's serializers and `Any` find a message by its full name.
 *
 * Where Buf and Confluent disagree, Buf's WIRE rules win: an enum is not an integer (FIELD_WIRE_COMPATIBLE_TYPE),
 * optional and repeated differ for every type (FIELD_WIRE_COMPATIBLE_CARDINALITY), and any change of a field's
 * oneof, renames included, is refused (FIELD_SAME_ONEOF); Confluent accepts these. A field deleted from a oneof
 * is readable like any deleted field, which Confluent refuses (ONEOF_FIELD_REMOVED).
 *
 * Buf's rules that guard a lineage rather than a pair (a deleted field or enum value must have its number
 * reserved; reserved ranges stay reserved) are in protobuf-evolution.ts: taken as reader/writer rules they would
 * refuse every field added to a writer, which a reader simply skips.
 */
import type * as protobuf from 'protobufjs';
import type { Incompatibility } from './compatibility-modes';
import { listed } from './document-bounds';
import * as problems from './protobuf-problems';
import { protoFile, type Cardinality, type FieldType, type ProtoField, type ProtoFile, type ProtoMessage } from './protobuf-shapes';
import { wireTypeMismatch, type MessageLookup } from './protobuf-wire-types';

export function protobufReadProblems(reader: protobuf.Root, writer: protobuf.Root): Incompatibility[] {
  const read = protoFile(reader);
  const written = protoFile(writer);
  const messages = lookups(read, written);
  const found: Incompatibility[] = [];
  if (read.packageName !== written.packageName) found.push(problems.packageChanged(read.packageName, written.packageName));
  for (const writerMessage of written.messages.values()) {
    const readerMessage = read.messages.get(writerMessage.name);
    if (readerMessage) found.push(...messageProblems(readerMessage, writerMessage, messages));
    // A nested message goes with its parent: only the outermost missing message is reported.
    else if (!writerMessage.parent || read.messages.has(writerMessage.parent)) found.push(problems.messageMissing(writerMessage));
  }
  return listed(found);
}

/** The backward check of a replaced version (contract §5.8): the new version reads data written with the old. */
export function protobufBackwardProblems(oldRoot: protobuf.Root, newRoot: protobuf.Root): string[] {
  return protobufReadProblems(newRoot, oldRoot).map((problem) => problem.message);
}

interface Lookups {
  reader: MessageLookup;
  writer: MessageLookup;
}

const lookups = (read: ProtoFile, written: ProtoFile): Lookups => ({
  reader: (name) => read.messages.get(name),
  writer: (name) => written.messages.get(name),
});

function messageProblems(reader: ProtoMessage, writer: ProtoMessage, messages: Lookups): Incompatibility[] {
  const found: Incompatibility[] = [];
  for (const writerField of writer.fields.values()) {
    const readerField = reader.fields.get(writerField.number);
    if (readerField) found.push(...fieldProblems(reader, readerField, writerField, messages));
  }
  return [...found, ...requiredFieldProblems(reader, writer)];
}

/** One field number present on both sides: Buf's WIRE field rules. */
function fieldProblems(message: ProtoMessage, reader: ProtoField, writer: ProtoField, messages: Lookups): Incompatibility[] {
  const found: Incompatibility[] = [];
  const typeReason = wireTypeMismatch(reader.type, writer.type, messages.reader, messages.writer);
  if (typeReason) found.push(problems.typeMismatch(message, reader, typeReason));
  if (CARDINALITY_GROUP[reader.cardinality] !== CARDINALITY_GROUP[writer.cardinality]) {
    found.push(problems.cardinalityMismatch(message, reader, reader.cardinality, writer.cardinality));
  }
  // Buf compares oneof names: a field moved into, out of or between oneofs changes which fields clear each other.
  if (reader.oneof !== writer.oneof) found.push(problems.oneofMismatch(message, reader, reader.oneof, writer.oneof));
  const readDefault = defaultOf(reader);
  const writtenDefault = defaultOf(writer);
  if (readDefault && writtenDefault && !sameDefault(readDefault.value, writtenDefault.value)) {
    found.push(problems.defaultMismatch(message, reader, readDefault.shown, writtenDefault.shown));
  }
  return found;
}

/**
 * Buf's wire cardinality groups (cardinality.go): explicit and implicit presence share one encoding, a map is a
 * repeated entry message; optional, required and repeated are told apart (packed and unpacked repeated fields
 * are not: parsers accept both).
 */
const CARDINALITY_GROUP: Record<Cardinality, number> = { optional: 1, required: 2, repeated: 3, map: 3 };

/**
 * Buf's MESSAGE_SAME_REQUIRED_FIELDS, in both directions as Buf and Confluent (REQUIRED_FIELD_ADDED / _REMOVED)
 * both judge it: "required is forever", since whichever side requires the field fails on the other side's data.
 */
function requiredFieldProblems(reader: ProtoMessage, writer: ProtoMessage): Incompatibility[] {
  const requiredOnlyIn = (side: ProtoMessage, other: ProtoMessage) =>
    [...side.fields.values()].filter((field) => field.cardinality === 'required' && other.fields.get(field.number)?.cardinality !== 'required');
  return [
    ...requiredOnlyIn(writer, reader).map((field) => problems.requiredMismatch(reader, field, 'writer')),
    ...requiredOnlyIn(reader, writer).map((field) => problems.requiredMismatch(reader, field, 'reader')),
  ];
}

interface FieldDefault {
  value: number | string;
  shown: string;
}

/**
 * Buf's FIELD_SAME_DEFAULT: the value an absent singular scalar reads as, declared or implied (zero, or an enum's
 * first value). Undefined when the field cannot have a default; both zero counts as unchanged.
 */
function defaultOf(field: ProtoField): FieldDefault | undefined {
  if (field.cardinality === 'repeated' || field.cardinality === 'map') return undefined;
  const declared = field.declaredDefault;
  const value = valueOf(field.type, declared);
  if (value === undefined) return undefined;
  return { value, shown: declared === undefined ? `${JSON.stringify(value)} (implied)` : JSON.stringify(declared) };
}

function valueOf(type: FieldType, declared: unknown): number | string | undefined {
  if (type.kind === 'enum') return typeof declared === 'string' ? (type.values.get(declared) ?? declared) : type.firstValue;
  if (type.kind !== 'scalar') return undefined;
  if (type.scalar === 'string' || type.scalar === 'bytes') return typeof declared === 'string' ? declared : '';
  if (typeof declared === 'boolean') return declared ? 1 : 0;
  return typeof declared === 'number' ? declared : Number(declared ?? 0);
}

function sameDefault(read: number | string, written: number | string): boolean {
  const isZero = (value: number | string) => value === 0 || value === '';
  if (isZero(read) && isZero(written)) return true;
  if (typeof read === 'number' && typeof written === 'number' && Number.isNaN(read) && Number.isNaN(written)) return true;
  return read === written;
}
