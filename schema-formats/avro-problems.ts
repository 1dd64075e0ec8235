/**
 * The problems Avro schema resolution reports, one constructor per rule. Rule names follow the incompatibility
 * types of Avro Java's SchemaCompatibility (which Confluent Schema Registry reports), singular where one problem
 * names one thing. Messages speak of the reader and the writer rather than of old and new, so a problem reads
 * right in both directions: backward (the new schema reads) and forward (the old one does).
 */
import type avsc from 'avsc';
import { decimalOf, type Decimal } from './avro-logical-types';
import type { Incompatibility } from './compatibility-modes';

export const AVRO_RULES = [
  'TYPE_MISMATCH',
  'MISSING_UNION_BRANCH',
  'FIELD_NO_DEFAULT',
  'AMBIGUOUS_FIELD_ALIAS',
  'NAME_MISMATCH',
  'MISSING_ENUM_SYMBOL',
  'FIXED_SIZE_MISMATCH',
  'DECIMAL_MISMATCH',
] as const;
export type AvroRule = (typeof AVRO_RULES)[number];

type AvroType = avsc.Type;

/** `writer` (a branch of the writer union `union`, if given) is of a kind `reader` cannot read. */
export function typeMismatch(path: string, reader: AvroType, writer: AvroType, union?: AvroType): Incompatibility {
  const written = union ? `${describe(union)}, whose ${describe(writer)} branch` : `${describe(writer)} and`;
  return problem(branchPath(path, writer, union), 'TYPE_MISMATCH', `${subject(path)} is written as ${written} cannot be read as ${describe(reader)}`);
}

/** No branch of the reader's union matches `writer` (a branch of the writer union `union`, if given). */
export function missingUnionBranch(path: string, readerUnion: AvroType, writer: AvroType, union?: AvroType): Incompatibility {
  const written = union ? `${describe(union)}, whose ${describe(writer)} branch` : `${describe(writer)}, which`;
  return problem(branchPath(path, writer, union), 'MISSING_UNION_BRANCH',
    `${subject(path)} is written as ${written} matches no branch of the reader's ${describe(readerUnion)}`);
}

export function fieldNoDefault(path: string): Incompatibility {
  return problem(path, 'FIELD_NO_DEFAULT', `field '${path}' is not in the writer's record and has no default`);
}

export function ambiguousFieldAlias(path: string, writerFields: string[]): Incompatibility {
  const names = writerFields.map((name) => `'${name}'`).join(', ');
  return problem(path, 'AMBIGUOUS_FIELD_ALIAS', `field '${path}' matches ${writerFields.length} fields of the writer's record by its name and aliases: ${names}`);
}

export function nameMismatch(path: string, reader: AvroType, writer: AvroType): Incompatibility {
  const [from, to] = [writer.name ?? '', reader.name ?? ''];
  return problem(path, 'NAME_MISMATCH',
    `${writer.typeName} '${from}' cannot be read as '${to}': the unqualified names differ and the reader's aliases do not include '${from}'${at(path)}`);
}

export function missingEnumSymbol(path: string, reader: AvroType, symbol: string): Incompatibility {
  return problem(path, 'MISSING_ENUM_SYMBOL', `enum '${reader.name ?? ''}' has no symbol '${symbol}' and no default to read it as${at(path)}`);
}

export function fixedSizeMismatch(path: string, reader: avsc.types.FixedType, writer: avsc.types.FixedType): Incompatibility {
  return problem(path, 'FIXED_SIZE_MISMATCH', `fixed '${writer.name ?? ''}' is written with ${writer.size} bytes but read with ${reader.size}${at(path)}`);
}

export function decimalMismatch(path: string, reader: Decimal, writer: Decimal): Incompatibility {
  return problem(path, 'DECIMAL_MISMATCH',
    `${subject(path)} is written as ${decimal(writer)} and read as ${decimal(reader)}: decimals resolve only with equal precision and scale`);
}

function problem(path: string, rule: AvroRule, message: string): Incompatibility {
  return { path, rule, message };
}

/** A writer union's branch ends the path: `payload|int`, `home|com.acme.Address`. */
function branchPath(path: string, writer: AvroType, union: AvroType | undefined): string {
  return union ? `${path}|${isNamed(writer) ? writer.name ?? '' : writer.typeName}` : path;
}

function subject(path: string): string {
  return path ? `field '${path}'` : 'the schema';
}

function at(path: string): string {
  return path ? ` (field '${path}')` : '';
}

/** A type as a message shows it: `int`, `record com.acme.Address`, `union<null, string>`, `bytes decimal(4, 2)`. */
function describe(type: AvroType): string {
  if (type.typeName.startsWith('union')) return `union<${(type as avsc.types.UnwrappedUnionType).types.map(describe).join(', ')}>`;
  if (type.typeName === 'array') return `array<${describe((type as avsc.types.ArrayType).itemsType)}>`;
  if (type.typeName === 'map') return `map<${describe((type as avsc.types.MapType).valuesType as AvroType)}>`;
  const base = isNamed(type) ? `${type.typeName} ${type.name ?? ''}` : type.typeName;
  const annotation = decimalOf(type);
  return annotation ? `${base} ${decimal(annotation)}` : base;
}

function decimal({ precision, scale }: Decimal): string {
  return `decimal(${precision}, ${scale})`;
}

function isNamed(type: AvroType): boolean {
  return ['record', 'error', 'enum', 'fixed'].includes(type.typeName);
}
