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
import { firstMatch, isUnion, itemsOf, namesMatch, promotable, sameDecimal, sameKind, valuesOf, type UnionType } from './avro-matching';
import type { Incompatibility } from './compatibility-modes';
import {
  judgementBudget, MAX_JUDGED_DEPTH, MAX_LISTED_PROBLEMS, notJudgedAll, notJudgedDeeper, problemsNotListed, TOO_LARGE_RULE, type JudgementBudget,
} from './document-bounds';

type AvroType = avsc.Type;
type EnumType = avsc.types.EnumType & { default?: string };
type FixedType = avsc.types.FixedType;
type RecordType = avsc.types.RecordType;
type Field = avsc.types.Field;

/**
 * A problem found while resolving one pair, its path relative to that pair's (`.street`, `[]`, `{}` pieces, '' for
 * the pair itself), built once the full path is known: a pair's problems are then found once and placed under every
 * path the pair recurs at (a named type used by several fields).
 */
interface Found {
  at: string;
  make: (path: string) => Incompatibility;
}

/** One judgement's state. */
interface Walk {
  /** Record pairs being resolved right now, reader → writers: a recursive record stops at its own re-entry. */
  inProgress: Map<AvroType, Set<AvroType>>;
  /** Pairs resolved already, reader → writer → what was found. */
  done: Map<AvroType, Map<AvroType, Found[]>>;
  /** Pairs on the way down to the current one. */
  depth: number;
  budget: JudgementBudget;
  /** Set once a list was cut at MAX_LISTED_PROBLEMS. */
  cut: boolean;
}

/** Every reason `reader` cannot read data written with `writer`; [] when it can. `budget`: the judgement's steps left. */
export function avroReadProblems(reader: AvroType, writer: AvroType, budget = judgementBudget()): Incompatibility[] {
  const walk: Walk = { inProgress: new Map(), done: new Map(), depth: 0, budget, cut: false };
  const problems = read(reader, writer, walk).map((found) => found.make(found.at.replace(/^\./, '')));
  // Two writer branches can fail the same way at the same field; one report of it is enough. Running out of steps
  // and cutting the list are said once, at the end.
  const distinct = [...new Map(problems.filter((p) => p.rule !== TOO_LARGE_RULE).map((p) => [p.message, p])).values()];
  const unfinished = problems.some((p) => p.rule === TOO_LARGE_RULE) ? [notJudgedAll()] : [];
  return [...distinct, ...unfinished, ...(walk.cut ? [problemsNotListed()] : [])];
}

function read(reader: AvroType, writer: AvroType, walk: Walk): Found[] {
  const known = walk.done.get(reader)?.get(writer);
  if (known) return known;
  if (walk.depth >= MAX_JUDGED_DEPTH) return [{ at: '', make: notJudgedDeeper }];
  if (walk.budget.steps <= 0) return [{ at: '', make: notJudgedAll }];
  walk.depth++;
  // "if writer's is a union": any branch may have written a datum, so every branch must be readable.
  const found = isUnion(writer)
    ? collect(walk, writer.types.map((branch) => () => readOne(reader, branch, walk, writer)))
    : readOne(reader, writer, walk);
  walk.depth--;
  walk.budget.steps -= 1 + found.length;
  const byWriter = walk.done.get(reader) ?? new Map<AvroType, Found[]>();
  walk.done.set(reader, byWriter.set(writer, found));
  return found;
}

/** `writer` is not a union; `union` is the writer union it is a branch of, if any. */
function readOne(reader: AvroType, writer: AvroType, walk: Walk, union?: UnionType): Found[] {
  if (isUnion(reader)) {
    // "The first schema in the reader's union that matches the writer's schema is recursively resolved against it."
    const chosen = firstMatch(reader, writer);
    return chosen ? resolve(chosen, writer, walk) : [here((path) => missingUnionBranch(path, reader, writer, union))];
  }
  if (!sameKind(reader, writer) && !promotable(writer, reader)) return [here((path) => typeMismatch(path, reader, writer, union))];
  return resolve(reader, writer, walk);
}

/** Both are of one kind (or the writer's promotes to the reader's): what each kind's rules find wrong. */
function resolve(reader: AvroType, writer: AvroType, walk: Walk): Found[] {
  switch (writer.typeName) {
    case 'record':
    case 'error':
      return resolveRecord(reader as RecordType, writer as RecordType, walk);
    case 'enum':
      return [...nameProblems(reader, writer), ...symbolProblems(reader as EnumType, writer as EnumType, walk)];
    case 'fixed':
      return [...nameProblems(reader, writer), ...sizeProblems(reader as FixedType, writer as FixedType), ...decimalProblems(reader, writer)];
    case 'array':
      return under('[]', read(itemsOf(reader), itemsOf(writer), walk));
    case 'map':
      return under('{}', read(valuesOf(reader), valuesOf(writer), walk));
    default:
      return decimalProblems(reader, writer);
  }
}

function resolveRecord(reader: RecordType, writer: RecordType, walk: Walk): Found[] {
  // Re-entering a pair already being resolved asks the same question again: it holds unless shown wrong elsewhere.
  const writers = walk.inProgress.get(reader) ?? new Set<AvroType>();
  if (writers.has(writer)) return [];
  walk.inProgress.set(reader, writers.add(writer));
  walk.budget.steps -= reader.fields.length;
  // Writer fields the reader lacks are skipped ("the writer's value for that field is ignored"): only reader fields count.
  const sources = writerFields(writer);
  const found = collect(walk, [() => nameProblems(reader, writer), ...reader.fields.map((field) => () => resolveField(field, sources, walk))]);
  writers.delete(writer);
  return found;
}

function resolveField(field: Field, byName: Map<string, { field: Field; index: number }>, walk: Walk): Found[] {
  const at = `.${field.name}`;
  // "fields are matched by name"; a reader field's aliases rename writer fields to it (specification, "Aliases").
  const sources = [...new Set([field.name, ...field.aliases])]
    .flatMap((name) => byName.get(name) ?? [])
    .sort((a, b) => a.index - b.index)
    .map((source) => source.field);
  if (sources.length > 1) return [{ at, make: (path) => ambiguousFieldAlias(path, sources.map((s) => s.name)) }];
  if (sources.length === 1) return under(at, read(field.type, sources[0]!.type, walk));
  return field.defaultValue() === undefined ? [{ at, make: fieldNoDefault }] : [];
}

function symbolProblems(reader: EnumType, writer: EnumType, walk: Walk): Found[] {
  // An unknown writer symbol reads as the reader's default; only without one is it an error.
  if (reader.default !== undefined) return [];
  walk.budget.steps -= writer.symbols.length;
  const known = new Set(reader.symbols);
  return writer.symbols.filter((symbol) => !known.has(symbol)).map((symbol) => here((path) => missingEnumSymbol(path, reader, symbol)));
}

function sizeProblems(reader: FixedType, writer: FixedType): Found[] {
  return reader.size === writer.size ? [] : [here((path) => fixedSizeMismatch(path, reader, writer))];
}

function nameProblems(reader: AvroType, writer: AvroType): Found[] {
  return namesMatch(reader, writer) ? [] : [here((path) => nameMismatch(path, reader, writer))];
}

function decimalProblems(reader: AvroType, writer: AvroType): Found[] {
  // "two schemas that are decimal logical types match if their scales and precisions match"; a decimal read as
  // plain bytes (or the reverse) is the underlying type, which needs nothing more.
  const [r, w] = [decimalOf(reader), decimalOf(writer)];
  return r && w && !sameDecimal(reader, writer) ? [here((path) => decimalMismatch(path, r, w))] : [];
}

const here = (make: (path: string) => Incompatibility): Found => ({ at: '', make });

const under = (piece: string, found: Found[]): Found[] => found.map(({ at, make }) => ({ at: piece + at, make }));

/**
 * What `parts` find, in order, up to MAX_LISTED_PROBLEMS: a shared definition used under many fields, each using
 * another under many fields, would otherwise multiply its problems past any size. Once the list is full, a part that
 * finds more ends it.
 */
function collect(walk: Walk, parts: (() => Found[])[]): Found[] {
  const found: Found[] = [];
  for (const part of parts) {
    for (const one of part()) {
      if (found.length === MAX_LISTED_PROBLEMS) {
        walk.cut = true;
        return found;
      }
      found.push(one);
    }
  }
  return found;
}

/** A writer record's fields by name, each with its position; built once per record, however often it is read. */
const fieldsByName = new WeakMap<RecordType, Map<string, { field: Field; index: number }>>();

function writerFields(writer: RecordType): Map<string, { field: Field; index: number }> {
  let byName = fieldsByName.get(writer);
  if (!byName) {
    byName = new Map(writer.fields.map((field, index) => [field.name, { field, index }]));
    fieldsByName.set(writer, byName);
  }
  return byName;
}
