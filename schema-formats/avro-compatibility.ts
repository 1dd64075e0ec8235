/**
 * AVRO backward compatibility ("new reader, old data"). avsc's schema resolution is the authority on whether the
 * new schema can read the old one; avsc only reports the first failure, tersely, so the walk below explains every
 * concrete reason (field by field, nested paths included) for a refusal message that says exactly why.
 */
import avsc from 'avsc';

type AvroType = avsc.Type;
type ArrayType = avsc.types.ArrayType;
type EnumType = avsc.types.EnumType & { default?: string };
type FixedType = avsc.types.FixedType;
type MapType = avsc.types.MapType;
type RecordType = avsc.types.RecordType;
type UnionType = avsc.types.UnwrappedUnionType | avsc.types.WrappedUnionType;

export function avroBackwardProblems(oldType: AvroType, newType: AvroType): string[] {
  const problems = [...new Set(explain(newType, oldType, '', new Set()))];
  if (problems.length > 0) return problems;
  // Only reached if avsc refuses for a reason the walk does not model; its own message is still better than none.
  const failure = resolutionFailure(newType, oldType);
  return failure === undefined ? [] : [`Avro schema resolution failed: ${failure}`];
}

function resolutionFailure(reader: AvroType, writer: AvroType): string | undefined {
  try {
    reader.createResolver(writer);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Reasons why `reader` cannot read data written as `writer`; [] when avsc can resolve them. */
function explain(reader: AvroType, writer: AvroType, path: string, seen: Set<string>): string[] {
  if (resolutionFailure(reader, writer) === undefined) return [];
  // A writer union is readable only if every one of its branches is.
  const writerBranches = isUnion(writer) ? writer.types : [writer];
  return writerBranches.flatMap((branch) => {
    if (resolutionFailure(reader, branch) === undefined) return [];
    const counterpart = counterpartOf(reader, branch);
    if (!counterpart) return [typeChanged(path, writer, reader)];
    return explainSameKind(counterpart, branch, path, seen);
  });
}

/** The reader type (or reader union branch) that old data of `writer`'s kind would be read into, if any. */
function counterpartOf(reader: AvroType, writer: AvroType): AvroType | undefined {
  const candidates = (isUnion(reader) ? reader.types : [reader]).filter((t) => sameKind(t, writer));
  return candidates.find((t) => !isNamed(t) || hasCompatibleName(t, writer)) ?? candidates[0];
}

function explainSameKind(reader: AvroType, writer: AvroType, path: string, seen: Set<string>): string[] {
  switch (writer.typeName) {
    case 'record':
    case 'error':
      return explainRecord(reader as RecordType, writer as RecordType, path, seen);
    case 'enum':
      return [...renamed(reader, writer, path), ...lostSymbols(reader as EnumType, writer as EnumType, path)];
    case 'fixed':
      return [...renamed(reader, writer, path), ...resized(reader as FixedType, writer as FixedType, path)];
    case 'array':
      return explain((reader as ArrayType).itemsType, (writer as ArrayType).itemsType, `${path}[]`, seen);
    case 'map':
      return explain((reader as MapType).valuesType as AvroType, (writer as MapType).valuesType as AvroType, `${path}{}`, seen);
    default:
      // Primitives of the same kind always resolve; a failure here would have been a different kind.
      return [];
  }
}

function explainRecord(reader: RecordType, writer: RecordType, path: string, seen: Set<string>): string[] {
  // `seen` holds the records being walked right now: a recursive record (a list, a tree) stops at its own
  // re-entry, while the same record used by two sibling fields is still explained under both paths.
  const pair = `${reader.name ?? ''}|${writer.name ?? ''}`;
  if (seen.has(pair)) return [];
  seen.add(pair);
  const problems = renamed(reader, writer, path);
  for (const field of reader.fields) {
    const fieldPath = path ? `${path}.${field.name}` : field.name;
    const old = writer.fields.find((w) => [field.name, ...field.aliases].includes(w.name));
    if (old) problems.push(...explain(field.type, old.type, fieldPath, seen));
    else if (field.defaultValue() === undefined) problems.push(`field '${fieldPath}' was added without a default`);
  }
  seen.delete(pair);
  return problems;
}

function lostSymbols(reader: EnumType, writer: EnumType, path: string): string[] {
  // With a default, the reader maps unknown symbols to it, so nothing is lost on read.
  if (reader.default !== undefined) return [];
  return writer.symbols
    .filter((symbol) => !reader.symbols.includes(symbol))
    .map((symbol) => `enum '${reader.name ?? ''}' lost symbol '${symbol}'${atField(path)}`);
}

function resized(reader: FixedType, writer: FixedType, path: string): string[] {
  if (reader.size === writer.size) return [];
  return [`fixed '${reader.name ?? ''}' changed size from ${writer.size} to ${reader.size}${atField(path)}`];
}

function renamed(reader: AvroType, writer: AvroType, path: string): string[] {
  if (hasCompatibleName(reader, writer)) return [];
  const old = writer.name ?? '';
  return [`${writer.typeName} '${old}' was renamed to '${reader.name ?? ''}' without listing '${old}' in its aliases${atField(path)}`];
}

/** Avro name matching as avsc does it: the writer's full name must be the reader's name or one of its aliases. */
function hasCompatibleName(reader: AvroType, writer: AvroType): boolean {
  if (!writer.name) return true;
  return [reader.name, ...(reader.aliases ?? [])].includes(writer.name);
}

function typeChanged(path: string, writer: AvroType, reader: AvroType): string {
  const change = `from ${describe(writer)} to ${describe(reader)}`;
  return path ? `field '${path}' changed type ${change}` : `the top-level type changed ${change}`;
}

function describe(type: AvroType): string {
  if (isUnion(type)) return `union<${type.types.map(describe).join(', ')}>`;
  if (type.typeName === 'array') return `array<${describe((type as ArrayType).itemsType)}>`;
  if (type.typeName === 'map') return `map<${describe((type as MapType).valuesType as AvroType)}>`;
  return isNamed(type) ? `${type.typeName} ${type.name ?? ''}` : type.typeName;
}

function atField(path: string): string {
  return path ? ` (field '${path}')` : '';
}

function sameKind(a: AvroType, b: AvroType): boolean {
  const records = ['record', 'error'];
  return a.typeName === b.typeName || (records.includes(a.typeName) && records.includes(b.typeName));
}

function isNamed(type: AvroType): boolean {
  return ['record', 'error', 'enum', 'fixed'].includes(type.typeName);
}

function isUnion(type: AvroType): type is UnionType {
  return type.typeName.startsWith('union');
}
