/**
 * Buf's FIELD_WIRE_COMPATIBLE_TYPE (bufbuild/buf, bufcheckserverhandle/breaking.go and the groups in
 * breaking_util.go, after protobuf's "Updating a message type" guide): a field's value written as one type can be
 * read as another only within one wire-compatible group. The judgement is directional where Buf's is: string
 * written, bytes read is fine; bytes written need not be UTF-8, so a string reader may reject them.
 */
import { someOf } from './document-bounds';
import type { FieldType, ProtoMessage } from './protobuf-shapes';

/**
 * Buf's groups. Same varint encoding: int32, int64, uint32, uint64, bool (values may be truncated, never
 * misparsed). sint32/sint64 share ZigZag; fixed32/sfixed32 and fixed64/sfixed64 share a width. An enum is a varint
 * too, but Buf keeps it apart from the integers because nothing guarantees an integer names a value of the enum.
 */
const SCALAR_GROUP: Record<string, string> = {
  int32: 'varint', int64: 'varint', uint32: 'varint', uint64: 'varint', bool: 'varint',
  sint32: 'zigzag', sint64: 'zigzag',
  fixed32: 'fixed32', sfixed32: 'fixed32',
  fixed64: 'fixed64', sfixed64: 'fixed64',
  float: 'float', double: 'double',
  string: 'string', bytes: 'bytes',
};

/** Looks up a message of one side by relative name (to compare a map with the entry message it stands for). */
export type MessageLookup = (name: string) => ProtoMessage | undefined;

/** Why a value written as `writer` cannot be read as `reader`; undefined when it can. */
export function wireTypeMismatch(reader: FieldType, writer: FieldType, readerMessages: MessageLookup, writerMessages: MessageLookup): string | undefined {
  if (reader.kind === 'unresolved' || writer.kind === 'unresolved') {
    // An imported type is known by name only: the same name is taken to be the same type.
    return nameOf(reader) === nameOf(writer) ? undefined : changed(reader, writer);
  }
  if (reader.kind === 'map' || writer.kind === 'map') return mapMismatch(reader, writer, readerMessages, writerMessages);
  const readGroup = groupOf(reader);
  const writtenGroup = groupOf(writer);
  if (readGroup !== writtenGroup) {
    if (writtenGroup === 'string' && readGroup === 'bytes') return undefined;
    const utf8 = writtenGroup === 'bytes' && readGroup === 'string' ? ' (bytes need not be valid UTF-8)' : '';
    return `${changed(reader, writer)}: different wire types${utf8}`;
  }
  if (reader.kind === 'enum' && writer.kind === 'enum') return enumMismatch(reader, writer);
  if (reader.kind === 'message' && writer.kind === 'message' && reader.name !== writer.name) return changed(reader, writer);
  return undefined;
}

/** `int64`, `enum shop.Status`, `message shop.Line`, `map<string, int32>`: a type as a problem names it. */
export function describeType(type: FieldType): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'enum':
      return `enum ${type.fullName}`;
    case 'message':
      return `${type.delimited ? 'delimited message' : 'message'} ${type.fullName}`;
    case 'map':
      return `map<${type.key}, ${describeType(type.value)}>`;
    case 'unresolved':
      return type.name;
  }
}

function groupOf(type: Exclude<FieldType, { kind: 'map' | 'unresolved' }>): string {
  if (type.kind === 'scalar') return SCALAR_GROUP[type.scalar] ?? type.scalar;
  if (type.kind === 'enum') return 'enum';
  return type.delimited ? 'group' : 'message';
}

const nameOf = (type: FieldType) => (type.kind === 'scalar' ? type.scalar : type.kind === 'map' ? describeType(type) : type.name);

const changed = (reader: FieldType, writer: FieldType) => `written as ${describeType(writer)}, read as ${describeType(reader)}`;

/**
 * Buf lets an enum field change its enum type only to one of the same short name that still has every value the
 * writer's enum had (same name, same number), so each value written is one the reader knows.
 */
function enumMismatch(reader: Extract<FieldType, { kind: 'enum' }>, writer: Extract<FieldType, { kind: 'enum' }>): string | undefined {
  if (reader.name === writer.name) return undefined;
  const shortName = (name: string) => name.slice(name.lastIndexOf('.') + 1);
  if (shortName(reader.name) !== shortName(writer.name)) return changed(reader, writer);
  const missing = missingValues(reader.values, writer.values);
  return missing.length ? `${changed(reader, writer)}, which lacks ${someOf(missing)}` : undefined;
}

/** The writer's enum values the reader's lacks, found once per pair of enums however many fields use them. */
const missingByEnums = new WeakMap<ReadonlyMap<string, number>, WeakMap<ReadonlyMap<string, number>, string[]>>();

function missingValues(read: ReadonlyMap<string, number>, written: ReadonlyMap<string, number>): string[] {
  const byWritten = missingByEnums.get(read) ?? new WeakMap<ReadonlyMap<string, number>, string[]>();
  missingByEnums.set(read, byWritten);
  let missing = byWritten.get(written);
  if (!missing) {
    missing = [...written].filter(([name, number]) => read.get(name) !== number).map(([name]) => name);
    byWritten.set(written, missing);
  }
  return missing;
}

/**
 * On the wire `map<K, V> f = N` is `repeated FEntry f = N` with `K key = 1; V value = 2;`, so a map reads another
 * map, or the entry message it stands for, when key and value are wire compatible one by one. Buf compares the
 * entry messages' names instead, which also refuses renaming a map field; that name never reaches the wire.
 */
function mapMismatch(reader: FieldType, writer: FieldType, readerMessages: MessageLookup, writerMessages: MessageLookup): string | undefined {
  const readEntry = entryOf(reader, readerMessages);
  const writtenEntry = entryOf(writer, writerMessages);
  if (!readEntry || !writtenEntry) return `${changed(reader, writer)}: different wire types`;
  const key = wireTypeMismatch(readEntry.key, writtenEntry.key, readerMessages, writerMessages);
  const value = wireTypeMismatch(readEntry.value, writtenEntry.value, readerMessages, writerMessages);
  if (key) return `${changed(reader, writer)}: the keys differ (${key})`;
  return value ? `${changed(reader, writer)}: the values differ (${value})` : undefined;
}

function entryOf(type: FieldType, messages: MessageLookup): { key: FieldType; value: FieldType } | undefined {
  if (type.kind === 'map') return { key: { kind: 'scalar', scalar: type.key }, value: type.value };
  const entry = type.kind === 'message' && !type.delimited ? messages(type.name) : undefined;
  const key = entry?.fields.get(1);
  const value = entry?.fields.get(2);
  if (!entry || !key || !value || entry.fields.size !== 2) return undefined;
  return { key: key.type, value: value.type };
}
