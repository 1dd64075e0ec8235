/**
 * A PROTOBUF schema as the compatibility rules see it: plain data about what reaches the wire. Messages and enums
 * are keyed by their name relative to the package, so a renamed package still pairs `a.Order` with `b.Order` (the
 * package change is judged once, on its own); fields are keyed by number, the only thing the wire carries.
 * This is the one module that reads protobufjs' reflection objects, including its resolution of edition features
 * (presence, message encoding), so the rules themselves work on data and never on the library.
 */
import * as protobuf from 'protobufjs';
import { qualifiedName } from './protobuf';

/** Buf's cardinalities: optional covers both explicit and implicit presence, which share one wire form. */
export type Cardinality = 'optional' | 'required' | 'repeated' | 'map';

/** Named types carry `name` (relative to the package, for comparing) and `fullName` (for showing). */
export type FieldType =
  | { kind: 'scalar'; scalar: string }
  | { kind: 'enum'; name: string; fullName: string; values: ReadonlyMap<string, number>; firstValue: number }
  /** `delimited`: a proto2 group or an edition's DELIMITED encoding, framed by tags instead of a length. */
  | { kind: 'message'; name: string; fullName: string; delimited: boolean }
  | { kind: 'map'; key: string; value: FieldType }
  /** A type from an import: protobufjs parses one file, so only the name as written is known. */
  | { kind: 'unresolved'; name: string };

export interface ProtoField {
  number: number;
  name: string;
  cardinality: Cardinality;
  type: FieldType;
  /** The oneof the field belongs to; the synthetic oneof of a proto3 `optional` field does not count. */
  oneof?: string;
  /** `[default = …]` as protobufjs parsed it (enum defaults are value names); undefined when not declared. */
  declaredDefault?: unknown;
}

/** Reserved numbers as inclusive ranges (`max` is 536870911), and reserved names. */
export interface Reserved {
  ranges: [number, number][];
  names: string[];
}

export interface ProtoMessage {
  /** Relative to the package: `Order`, `Order.Line`. */
  name: string;
  /** Package-qualified, for paths in problems: `shop.Order.Line`. */
  fullName: string;
  /** The enclosing message's relative name, for nested messages. */
  parent?: string;
  fields: ReadonlyMap<number, ProtoField>;
  reserved: Reserved;
}

export interface ProtoEnum {
  name: string;
  fullName: string;
  /** Value name → number (aliases share a number). */
  values: ReadonlyMap<string, number>;
  reserved: Reserved;
}

export interface ProtoFile {
  /** '' when the file declares no package. */
  packageName: string;
  /** In declaration order, nested messages right after their parent. */
  messages: ReadonlyMap<string, ProtoMessage>;
  enums: ReadonlyMap<string, ProtoEnum>;
}

const SCALARS = new Set([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

// What protobufjs keeps beside its typed API: the edition a root was parsed in and each field's resolved features.
interface WithEdition { _edition?: string | null }
interface WithFeatures { _features?: { message_encoding?: string } }

export function protoFile(root: protobuf.Root): ProtoFile {
  // Presence and message encoding come from edition features, which protobufjs resolves lazily (on first
  // encode); resolving them here needs no type lookups, so imports that cannot be loaded do not get in the way.
  root._resolveFeaturesRecursive((root as WithEdition)._edition ?? 'proto2');
  const packageName = packageOf(root);
  const relative = (object: protobuf.ReflectionObject) => relativeName(qualifiedName(object), packageName);
  const messages = new Map<string, ProtoMessage>();
  const enums = new Map<string, ProtoEnum>();
  const visit = (namespace: protobuf.NamespaceBase) => {
    for (const nested of namespace.nestedArray) {
      if (nested instanceof protobuf.Type) messages.set(relative(nested), messageOf(nested, relative));
      if (nested instanceof protobuf.Enum) enums.set(relative(nested), enumOf(nested, relative));
      if (nested instanceof protobuf.Namespace) visit(nested);
    }
  };
  visit(root);
  return { packageName, messages, enums };
}

/** `shop.Order.lines`: where a field is, for a problem's path. */
export const fieldPath = (message: ProtoMessage, field: ProtoField) => `${message.fullName}.${field.name}`;

/** The package is the chain of plain namespaces above the first declaration; messages and services are not. */
function packageOf(root: protobuf.Root): string {
  const parts: string[] = [];
  let namespace: protobuf.NamespaceBase = root;
  for (;;) {
    const next = namespace.nestedArray.find(isPackagePart);
    if (!next) return parts.join('.');
    parts.push(next.name);
    namespace = next;
  }
}

function isPackagePart(object: protobuf.ReflectionObject): object is protobuf.Namespace {
  return object instanceof protobuf.Namespace && !(object instanceof protobuf.Type) && !(object instanceof protobuf.Service);
}

function relativeName(fullName: string, packageName: string): string {
  return packageName && fullName.startsWith(`${packageName}.`) ? fullName.slice(packageName.length + 1) : fullName;
}

function messageOf(type: protobuf.Type, relative: (object: protobuf.ReflectionObject) => string): ProtoMessage {
  const fields = type.fieldsArray
    // Extension fields that protobufjs copies into the extended message are not the message's own fields.
    .filter((field) => !field.declaringField && !field.extend)
    .map((field) => fieldOf(field, relative))
    .sort((a, b) => a.number - b.number);
  return {
    name: relative(type),
    fullName: qualifiedName(type),
    parent: type.parent instanceof protobuf.Type ? relative(type.parent) : undefined,
    fields: new Map(fields.map((field) => [field.number, field])),
    reserved: reservedOf(type.reserved),
  };
}

function fieldOf(field: protobuf.Field, relative: (object: protobuf.ReflectionObject) => string): ProtoField {
  const oneof = field.partOf && !field.options?.proto3_optional ? field.partOf.name : undefined;
  const declaredDefault: unknown = field.options?.default;
  return { number: field.id, name: field.name, cardinality: cardinalityOf(field), type: typeOf(field, relative), oneof, declaredDefault };
}

function cardinalityOf(field: protobuf.Field): Cardinality {
  if (field instanceof protobuf.MapField) return 'map';
  if (field.repeated) return 'repeated';
  return field.required ? 'required' : 'optional';
}

function typeOf(field: protobuf.Field, relative: (object: protobuf.ReflectionObject) => string): FieldType {
  const valueType = namedType(field, field.type, relative);
  return field instanceof protobuf.MapField ? { kind: 'map', key: field.keyType, value: valueType } : valueType;
}

function namedType(field: protobuf.Field, type: string, relative: (object: protobuf.ReflectionObject) => string): FieldType {
  if (SCALARS.has(type)) return { kind: 'scalar', scalar: type };
  const found = field.parent?.lookup(type, [protobuf.Type, protobuf.Enum]);
  if (found instanceof protobuf.Type) {
    const delimited = (field as WithFeatures)._features?.message_encoding === 'DELIMITED';
    return { kind: 'message', name: relative(found), fullName: qualifiedName(found), delimited };
  }
  if (found instanceof protobuf.Enum) {
    const values = valuesOf(found);
    return { kind: 'enum', name: relative(found), fullName: qualifiedName(found), values, firstValue: values.values().next().value ?? 0 };
  }
  return { kind: 'unresolved', name: type.replace(/^\./, '') };
}

/** An enum's values, read once per enum however many fields use it. */
const enumValues = new WeakMap<protobuf.Enum, ReadonlyMap<string, number>>();

function valuesOf(enumType: protobuf.Enum): ReadonlyMap<string, number> {
  let values = enumValues.get(enumType);
  if (!values) {
    values = new Map(Object.entries(enumType.values));
    enumValues.set(enumType, values);
  }
  return values;
}

function enumOf(enumType: protobuf.Enum, relative: (object: protobuf.ReflectionObject) => string): ProtoEnum {
  return {
    name: relative(enumType),
    fullName: qualifiedName(enumType),
    values: valuesOf(enumType),
    reserved: reservedOf(enumType.reserved),
  };
}

function reservedOf(reserved: (number[] | string)[] | undefined): Reserved {
  const ranges: [number, number][] = [];
  const names: string[] = [];
  for (const entry of reserved ?? []) {
    if (typeof entry === 'string') names.push(entry);
    else ranges.push([entry[0], entry[1] ?? entry[0]]);
  }
  return { ranges, names };
}
