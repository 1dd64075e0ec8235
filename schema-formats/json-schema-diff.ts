/**
 * The JSON_SCHEMA pair judgement after Confluent Schema Registry's `SchemaDiff` (json-schema-provider): walks a
 * writer node and a reader node together and keeps the differences outside Confluent's STRICT compatible set (its
 * default policy), i.e. the reasons some data valid under the writer is refused by the reader.
 *
 * Recursion: a pair met again while it is still being compared is assumed compatible (the greatest fixed point), and
 * each pair is compared once and its findings reused. A pair found incompatible may have been assumed compatible
 * inside a cycle, so the caller repeats the comparison, seeded with the incompatible pairs, until they stop changing
 * (Confluent's fixpoint; a comparison that assumed nothing is exact after one pass). Pure.
 */
import { arrayFindings } from './json-schema-array-diff';
import { combinedFindings, unionResolves } from './json-schema-combined-diff';
import { MAX_JUDGED_DEPTH, NOT_JUDGED_RULE, notJudgedAll, notJudgedFurther, TOO_LARGE_RULE, type JudgementBudget } from './document-bounds';
import { capped, finding, PairMap, type Finding } from './json-schema-findings';
import { constFindings, enumFindings, numberFindings, stringFindings } from './json-schema-limits';
import { describeNode, type NodeOf, type Raw, type SchemaNode } from './json-schema-nodes';
import { objectFindings } from './json-schema-object-diff';

export class PairJudgement {
  private readonly done = new PairMap<Finding[]>();
  private readonly active = new PairMap<true>();
  /** Pairs on the way down to the one being compared. */
  private depth = 0;
  /** Set once a cycle was assumed compatible: only then may another pass change the answer. */
  assumedCycle = false;

  constructor(private readonly knownIncompatible: PairMap<Finding[]>, private readonly budget: JudgementBudget) {}

  readonly compare = (writer: SchemaNode, reader: SchemaNode): Finding[] => {
    const done = this.done.get(writer, reader);
    if (done) return done;
    if (this.active.get(writer, reader)) {
      const known = this.knownIncompatible.get(writer, reader);
      if (known) return known;
      this.assumedCycle = true;
      return [];
    }
    // Only two recursive schemas whose cycles differ in length lead this deep; what lies below is not known.
    if (this.depth >= MAX_JUDGED_DEPTH) return [finding('', NOT_JUDGED_RULE, notJudgedFurther)];
    if (this.budget.steps <= 0) return [finding('', TOO_LARGE_RULE, () => notJudgedAll().message)];
    this.active.set(writer, reader, true);
    this.depth++;
    try {
      const findings = capped(this.judge(writer, reader));
      this.budget.steps -= 1 + findings.length + membersOf(writer.raw) + membersOf(reader.raw);
      this.done.set(writer, reader, findings);
      return findings;
    } finally {
      this.active.delete(writer, reader);
      this.depth--;
    }
  };

  /** The pairs this pass found incompatible, to seed the next pass. */
  incompatiblePairs(): PairMap<Finding[]> {
    const pairs = new PairMap<Finding[]>();
    for (const [writer, reader, findings] of this.done.entries()) if (findings.length > 0) pairs.set(writer, reader, findings);
    return pairs;
  }

  private judge(writer: SchemaNode, reader: SchemaNode): Finding[] {
    if (unionResolves(this.compare, writer, reader)) return [];
    if (writer.kind !== reader.kind) return kindChanged(writer, reader);
    const same = <K extends SchemaNode['kind']>(node: SchemaNode) => node as NodeOf<K>;
    switch (writer.kind) {
      case 'string': return stringFindings(writer.raw, reader.raw);
      case 'number': return numberFindings(writer.raw, reader.raw, !writer.integer && same<'number'>(reader).integer);
      case 'enum': return enumFindings(writer.values, same<'enum'>(reader).values);
      case 'const': return constFindings(writer.value, same<'const'>(reader).value);
      case 'combined': return combinedFindings(this.compare, writer, same<'combined'>(reader));
      case 'not': return this.notFindings(writer, same<'not'>(reader));
      case 'object': return objectFindings(this.compare, writer, same<'object'>(reader));
      case 'array': return arrayFindings(this.compare, writer, same<'array'>(reader));
      default: return [];
    }
  }

  /** `not` reverses the direction: the reader may exclude less than the writer, never more. */
  private notFindings(writer: NodeOf<'not'>, reader: NodeOf<'not'>): Finding[] {
    const excluded = this.compare(reader.doc.node(reader.negated), writer.doc.node(writer.negated));
    if (excluded.length === 0) return [];
    return [finding('', 'NOT_TYPE_EXTENDED', (s) => `${s} excludes more with not: ${describeNode(reader)} instead of ${describeNode(writer)}`)];
  }
}

/** What judging a node iterates: the members of its keywords' values (properties, tuple items, branches, values). */
function membersOf(raw: Raw): number {
  let members = 0;
  for (const value of Object.values(raw)) if (typeof value === 'object' && value !== null) members += Object.keys(value).length;
  return members;
}

function kindChanged(writer: SchemaNode, reader: SchemaNode): Finding[] {
  // `false` was never written, and `true`/`{}` reads anything.
  if (writer.kind === 'false' || reader.kind === 'empty') return [];
  // Kafka Connect marks its bytes encodings `connect.type: bytes`; Confluent reads one as the other.
  if (writer.raw['connect.type'] === 'bytes' && reader.raw['connect.type'] === 'bytes') return [];
  return [finding('', 'TYPE_CHANGED', (s) => `${s} changed type from ${describeNode(writer)} to ${describeNode(reader)}`)];
}

