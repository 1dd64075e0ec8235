/**
 * What the JSON_SCHEMA judgement collects while it walks a (writer, reader) pair. A finding's path is relative to
 * the pair it was found in, so the judgement of one pair can be reused wherever that pair recurs (recursive and
 * shared definitions) and placed under the path of each caller.
 *
 * Paths are dotted field paths, as the other formats show them: `.name` a property, `[]` every item, `[2]` a tuple
 * position, `[*]` items past the tuple, `{}` properties not named in `properties`, `(if name)` the schema that applies
 * when property `name` is present. Keywords (`maxLength`, `required`…) are named by the rule, not by the path.
 */
import { MAX_LISTED_PROBLEMS, MAX_REASONS, NOT_LISTED_RULE, problemsNotListed } from './document-bounds';
import type { SchemaNode } from './json-schema-nodes';

export interface Finding {
  path: string;
  /** Confluent's `Difference.Type` name for the change (only names outside its STRICT compatible set occur). */
  rule: string;
  /** The message, given how the final path reads (`property 'address.street'`, `the root schema`). */
  says: (subject: string) => string;
  /** Findings (relative to this one) that explain it, for a rule that alone would not say why. */
  because?: Finding[];
}

/** Every reason a reader of `reader` may refuse data valid under `writer`; [] when it reads all of it. */
export type Compare = (writer: SchemaNode, reader: SchemaNode) => Finding[];

export const finding = (path: string, rule: string, says: (subject: string) => string, because?: Finding[]): Finding =>
  because?.length ? { path, rule, says, because } : { path, rule, says };

export const under = (piece: string, findings: Finding[]): Finding[] => findings.map((f) => ({ ...f, path: piece + f.path }));

/** Marks where a list was cut at MAX_LISTED_PROBLEMS; the judgement moves it to the end of its problems. */
export const notListed: Finding = { path: '', rule: NOT_LISTED_RULE, says: () => problemsNotListed().message };

/**
 * `findings` cut after MAX_LISTED_PROBLEMS: a shared definition used under many properties, each used under many
 * more, would otherwise multiply its findings past any size.
 */
export function capped(findings: Finding[]): Finding[] {
  return findings.length > MAX_LISTED_PROBLEMS ? [...findings.slice(0, MAX_LISTED_PROBLEMS), notListed] : findings;
}

/** What `each` finds for `items`, in order, until the list is full: the items after that are not judged. */
export function gather<T>(items: Iterable<T>, each: (item: T) => Finding[]): Finding[] {
  const found: Finding[] = [];
  for (const item of items) {
    for (const one of each(item)) {
      if (found.length === MAX_LISTED_PROBLEMS) return [...found, notListed];
      found.push(one);
    }
  }
  return found;
}

/** How a removed member (a property, a tuple item) is named: the rule prefix and its words. */
export interface RemovedMember { rule: 'PROPERTY' | 'ITEM'; further: string; closed: string }

/**
 * Old data may carry a member the new version dropped: the reader must still accept it through its content model —
 * open, partially open (`coverOf`: the schema for further members, which must read the old member's values) or closed.
 */
export function removedMember(compare: Compare, old: SchemaNode, open: boolean, coverOf: () => SchemaNode | undefined, at: string, member: RemovedMember): Finding[] {
  if (open) return [];
  const cover = coverOf();
  if (cover) {
    const problems = compare(old, cover);
    if (problems.length === 0) return [];
    return [...under(at, problems), finding(at, `${member.rule}_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL`,
      (s) => `${s} was removed and the schema for ${member.further} does not accept its old values`)];
  }
  // A member the writer declared `false` never occurs in old data.
  if (old.kind === 'false') return [];
  return [finding(at, `${member.rule}_REMOVED_FROM_CLOSED_CONTENT_MODEL`, (s) => `${s} was removed from ${member.closed}: old data that has it is refused`)];
}

/** Pair-keyed storage: the judgement memoises and detects recursion by the identity of the two nodes. */
export class PairMap<T> {
  private readonly byWriter = new Map<SchemaNode, Map<SchemaNode, T>>();

  get(writer: SchemaNode, reader: SchemaNode): T | undefined {
    return this.byWriter.get(writer)?.get(reader);
  }

  set(writer: SchemaNode, reader: SchemaNode, value: T): void {
    const byReader = this.byWriter.get(writer) ?? new Map<SchemaNode, T>();
    this.byWriter.set(writer, byReader.set(reader, value));
  }

  delete(writer: SchemaNode, reader: SchemaNode): void {
    this.byWriter.get(writer)?.delete(reader);
  }

  *entries(): Generator<[SchemaNode, SchemaNode, T]> {
    for (const [writer, byReader] of this.byWriter) for (const [reader, value] of byReader) yield [writer, reader, value];
  }
}

/** The final path of a finding (no leading dot) and its message, explanations included (MAX_REASONS at most). */
export function render(found: Finding, prefix = '', budget = { left: MAX_REASONS }): { path: string; message: string } {
  const path = (prefix + found.path).replace(/^\./, '');
  const reasons: string[] = [];
  for (const reason of found.because ?? []) {
    if (budget.left === 0) {
      reasons.push('…');
      break;
    }
    budget.left--;
    reasons.push(render(reason, prefix + found.path, budget).message);
  }
  const message = found.says(subjectOf(path));
  return { path, message: reasons.length > 0 ? `${message} (${reasons.join('; ')})` : message };
}

function subjectOf(path: string): string {
  if (path === '') return 'the root schema';
  const noun = path.endsWith(']') ? 'item' : path.endsWith('}') ? 'value' : path.endsWith(')') ? 'schema' : 'property';
  return `${noun} '${path}'`;
}
