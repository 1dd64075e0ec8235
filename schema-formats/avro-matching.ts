/**
 * The specification's _match_ (Avro 1.11/1.12, "Schema Resolution"), which picks the branch of a reader's union that
 * resolves a writer's schema, and the small questions about types it and the resolution ask: same kind, promotable,
 * names matching by unqualified name or alias, equal decimals. Pure.
 */
import type avsc from 'avsc';
import { decimalOf } from './avro-logical-types';

type AvroType = avsc.Type;
type FixedType = avsc.types.FixedType;
export type UnionType = avsc.types.UnwrappedUnionType | avsc.types.WrappedUnionType;

/**
 * A reader union's branch positions by what may match them: a named branch by its unqualified name and by each
 * alias, any other by its type name. Built once per union, so a writer branch finds its match without trying all.
 */
const unionBranches = new WeakMap<UnionType, Map<string, number[]>>();

function branchesOf(union: UnionType): Map<string, number[]> {
  let byKey = unionBranches.get(union);
  if (!byKey) {
    byKey = new Map();
    for (const [index, branch] of union.types.entries()) {
      const keys = isNamed(branch) ? [`name:${unqualified(branch.name ?? '')}`, ...(branch.aliases ?? []).map((alias) => `alias:${alias}`)] : [`type:${branch.typeName}`];
      for (const key of keys) byKey.set(key, [...(byKey.get(key) ?? []), index]);
    }
    unionBranches.set(union, byKey);
  }
  return byKey;
}

/** The first branch of `union` that matches `writer`: only branches of its name, kind or a promotion of it can. */
export function firstMatch(union: UnionType, writer: AvroType): AvroType | undefined {
  const byKey = branchesOf(union);
  const keys = isNamed(writer)
    ? [`name:${unqualified(writer.name ?? '')}`, `alias:${writer.name ?? ''}`]
    : [writer.typeName, ...(PROMOTIONS[writer.typeName] ?? [])].map((typeName) => `type:${typeName}`);
  const candidates = keys.flatMap((key) => byKey.get(key) ?? []).sort((a, b) => a - b);
  const chosen = candidates.find((index) => matches(union.types[index]!, writer));
  return chosen === undefined ? undefined : union.types[chosen];
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
export function namesMatch(reader: AvroType, writer: AvroType): boolean {
  const writerName = writer.name ?? '';
  return unqualified(reader.name ?? '') === unqualified(writerName) || (reader.aliases ?? []).includes(writerName);
}

export function sameDecimal(reader: AvroType, writer: AvroType): boolean {
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

export function promotable(writer: AvroType, reader: AvroType): boolean {
  return PROMOTIONS[writer.typeName]?.includes(reader.typeName) ?? false;
}

export function sameKind(a: AvroType, b: AvroType): boolean {
  const records = ['record', 'error'];
  return a.typeName === b.typeName || (records.includes(a.typeName) && records.includes(b.typeName));
}

function unqualified(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

export function itemsOf(type: AvroType): AvroType {
  return (type as avsc.types.ArrayType).itemsType;
}

export function valuesOf(type: AvroType): AvroType {
  return (type as avsc.types.MapType).valuesType as AvroType;
}

export function isUnion(type: AvroType): type is UnionType {
  return type.typeName.startsWith('union');
}

function isNamed(type: AvroType): boolean {
  return ['record', 'error', 'enum', 'fixed'].includes(type.typeName);
}
