/**
 * Avro schema resolution exactly as the specification states it (Avro 1.11/1.12, "Schema Resolution"): every
 * reason a reader schema cannot read data written with a writer schema, each with its field path and rule. Pure.
 *
 * avsc's resolver is not the judge here, because it departs from the specification: it compares the full names of
 * named types where the specification compares unqualified names, and it ignores decimal precision and scale. Avro
 * Java's SchemaCompatibility, which Confluent Schema Registry calls, also ignores decimals (AVRO-2078) and reads a
 * non-union writer with any compatible reader branch instead of the first matching one; here the specification wins.
 *
 * Paths: '' is the root, `address.street` a field of a field, `lines[]` the items of an array, `tags{}` the values of
 * a map, and `payload|int` the branch `int` of the writer's union at `payload` that the reader cannot read (a branch
 * is named by its type: the full name of a named type, else `null`, `int`, `array`, `map`…). A path stays plain
 * through a union whose branch is readable (`home.street` inside `["null", Address]`): field paths are what schema
 * authors edit, and the branch marker only ever ends a path.
 */
import type avsc from 'avsc';
import { decimalOf } from './avro-logical-types';
import {
  ambiguousFieldAlias,
  decimalMismatch,
  fieldNoDefault,
  fixedSizeMismatch,
  missingEnumSymbol,
  missingUnionBranch,
  nameMismatch,
  typeMismatch,
} from './avro-problems';
import type { Incompatibility } from './compatibility-modes';

type AvroType = avsc.Type;
type EnumType = avsc.types.EnumType & { default?: string };
type FixedType = avsc.types.FixedType;
type RecordType = avsc.types.RecordType;
type UnionType = avsc.types.UnwrappedUnionType | avsc.types.WrappedUnionType;
type Field = avsc.types.Field;

/** Record pairs being resolved right now, reader → writers: a recursive record stops at its own re-entry. */
type InProgress = Map<AvroType, Set<AvroType>>;

/** Every reason `reader` cannot read data written with `writer`; [] when it can. */
export function avroReadProblems(reader: AvroType, writer: AvroType): Incompatibility[] {
  const problems = read(reader, writer, '', new Map());
  // Two writer branches can fail the same way at the same field; one report of it is enough.
  return [...new Map(problems.map((p) => [p.message, p])).values()];
}

function read(reader: AvroType, writer: AvroType, path: string, inProgress: InProgress): Incompatibility[] {
  // "if writer's is a union": any branch may have written a datum, so every branch must be readable.
  if (isUnion(writer)) return writer.types.flatMap((branch) => readOne(reader, branch, path, inProgress, writer));
  return readOne(reader, writer, path, inProgress);
}

/** `writer` is not a union; `union` is the writer union it is a branch of, if any. */
function readOne(reader: AvroType, writer: AvroType, path: string, inProgress: InProgress, union?: UnionType): Incompatibility[] {
  if (isUnion(reader)) {
    // "The first schema in the reader's union that matches the writer's schema is recursively resolved against it."
    const chosen = reader.types.find((branch) => matches(branch, writer));
    return chosen ? resolve(chosen, writer, path, inProgress) : [missingUnionBranch(path, reader, writer, union)];
  }
  if (!sameKind(reader, writer) && !promotable(writer, reader)) return [typeMismatch(path, reader, writer, union)];
  return resolve(reader, writer, path, inProgress);
}

/** Both are of one kind (or the writer's promotes to the reader's): what each kind's rules find wrong. */
function resolve(reader: AvroType, writer: AvroType, path: string, inProgress: InProgress): Incompatibility[] {
  switch (writer.typeName) {
    case 'record':
    case 'error':
      return resolveRecord(reader as RecordType, writer as RecordType, path, inProgress);
    case 'enum':
      return [...nameProblems(reader, writer, path), ...symbolProblems(reader as EnumType, writer as EnumType, path)];
    case 'fixed':
      return [...nameProblems(reader, writer, path), ...sizeProblems(reader as FixedType, writer as FixedType, path), ...decimalProblems(reader, writer, path)];
    case 'array':
      return read(itemsOf(reader), itemsOf(writer), `${path}[]`, inProgress);
    case 'map':
      return read(valuesOf(reader), valuesOf(writer), `${path}{}`, inProgress);
    default:
      return decimalProblems(reader, writer, path);
  }
}

function resolveRecord(reader: RecordType, writer: RecordType, path: string, inProgress: InProgress): Incompatibility[] {
  // Re-entering a pair already being resolved asks the same question again: it holds unless shown wrong elsewhere.
  const writers = inProgress.get(reader) ?? new Set<AvroType>();
  if (writers.has(writer)) return [];
  inProgress.set(reader, writers.add(writer));
  // Writer fields the reader lacks are skipped ("the writer's value for that field is ignored"): only reader fields count.
  const problems = [...nameProblems(reader, writer, path), ...reader.fields.flatMap((field) => resolveField(field, writer, path, inProgress))];
  writers.delete(writer);
  return problems;
}

function resolveField(field: Field, writer: RecordType, path: string, inProgress: InProgress): Incompatibility[] {
  const fieldPath = path ? `${path}.${field.name}` : field.name;
  // "fields are matched by name"; a reader field's aliases rename writer fields to it (specification, "Aliases").
  const sources = writer.fields.filter((w) => w.name === field.name || field.aliases.includes(w.name));
  if (sources.length > 1) return [ambiguousFieldAlias(fieldPath, sources.map((s) => s.name))];
  if (sources.length === 1) return read(field.type, sources[0].type, fieldPath, inProgress);
  return field.defaultValue() === undefined ? [fieldNoDefault(fieldPath)] : [];
}

function symbolProblems(reader: EnumType, writer: EnumType, path: string): Incompatibility[] {
  // An unknown writer symbol reads as the reader's default; only without one is it an error.
  if (reader.default !== undefined) return [];
  return writer.symbols.filter((symbol) => !reader.symbols.includes(symbol)).map((symbol) => missingEnumSymbol(path, reader, symbol));
}

function sizeProblems(reader: FixedType, writer: FixedType, path: string): Incompatibility[] {
  return reader.size === writer.size ? [] : [fixedSizeMismatch(path, reader, writer)];
}

function nameProblems(reader: AvroType, writer: AvroType, path: string): Incompatibility[] {
  return namesMatch(reader, writer) ? [] : [nameMismatch(path, reader, writer)];
}

function decimalProblems(reader: AvroType, writer: AvroType, path: string): Incompatibility[] {
  // "two schemas that are decimal logical types match if their scales and precisions match"; a decimal read as
  // plain bytes (or the reverse) is the underlying type, which needs nothing more.
  const [r, w] = [decimalOf(reader), decimalOf(writer)];
  return r && w && !sameDecimal(reader, writer) ? [decimalMismatch(path, r, w)] : [];
}

/** The specification's _match_, which picks the reader union's branch for a writer's schema. */
function matches(reader: AvroType, writer: AvroType): boolean {
  if (isUnion(reader) || isUnion(writer)) return true;
  if (!sameKind(reader, writer)) return promotable(writer, reader);
  switch (writer.typeName) {
    case 'array':
      return matches(itemsOf(reader), itemsOf(writer));
    case 'map':
      return matches(valuesOf(reader), valuesOf(writer));
    case 'fixed':
      return (reader as FixedType).size === (writer as FixedType).size && namesMatch(reader, writer) && sameDecimal(reader, writer);
    case 'record':
    case 'error':
    case 'enum':
      return namesMatch(reader, writer);
    default:
      return sameDecimal(reader, writer);
  }
}

/**
 * Named types match by unqualified name, or when one of the reader's aliases is the writer's full name: avsc keeps
 * aliases qualified relative to the reader's namespace, as the specification qualifies them ("Aliases").
 */
function namesMatch(reader: AvroType, writer: AvroType): boolean {
  const writerName = writer.name ?? '';
  return unqualified(reader.name ?? '') === unqualified(writerName) || (reader.aliases ?? []).includes(writerName);
}

function sameDecimal(reader: AvroType, writer: AvroType): boolean {
  const [r, w] = [decimalOf(reader), decimalOf(writer)];
  return !r || !w || (r.precision === w.precision && r.scale === w.scale);
}

/** int → long, float, double; long → float, double; float → double; string ↔ bytes. */
const PROMOTIONS: Record<string, string[]> = {
  int: ['long', 'float', 'double'],
  long: ['float', 'double'],
  float: ['double'],
  string: ['bytes'],
  bytes: ['string'],
};

function promotable(writer: AvroType, reader: AvroType): boolean {
  return PROMOTIONS[writer.typeName]?.includes(reader.typeName) ?? false;
}

function sameKind(a: AvroType, b: AvroType): boolean {
  const records = ['record', 'error'];
  return a.typeName === b.typeName || (records.includes(a.typeName) && records.includes(b.typeName));
}

function unqualified(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function itemsOf(type: AvroType): AvroType {
  return (type as avsc.types.ArrayType).itemsType;
}

function valuesOf(type: AvroType): AvroType {
  return (type as avsc.types.MapType).valuesType as AvroType;
}

function isUnion(type: AvroType): type is UnionType {
  return type.typeName.startsWith('union');
}
