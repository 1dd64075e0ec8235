/**
 * JSON_SCHEMA compatibility of one pair, as Confluent Schema Registry judges it (policy STRICT, its default): can a
 * reader using one schema read every document valid under another? Follows the open/closed content model (see
 * json-schema-object-diff.ts): whether a property may be added or removed depends on `additionalProperties`,
 * `patternProperties` and `unevaluatedProperties`; beside it `required`, types (`integer` is a `number`), `enum`,
 * `const`, bounds, `items`, combined schemas, `not` and local `$ref`s. Each problem names the field path (dotted, as
 * the other formats: `address.street`, `lines[].qty`, `tags[0]`, `labels{}`, '' for the root; every form is in
 * json-schema-findings.ts), Confluent's rule name (`Difference.Type`: `PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL`,
 * `TYPE_NARROWED`…) and a sentence. Pure.
 */
import type { Incompatibility } from './compatibility-modes';
import { judgementBudget, NOT_LISTED_RULE, notJudgedAll, problemsNotListed, TOO_LARGE_RULE } from './document-bounds';
import { PairJudgement } from './json-schema-diff';
import { PairMap, render, type Finding } from './json-schema-findings';
import { SchemaDocument } from './json-schema-nodes';
import type { JsonSchemaDocument } from './types';

/**
 * Every reason data valid under `writer` may be invalid under `reader`; [] when `reader` reads all of it. `budget`:
 * the steps the judgement has left.
 */
export function jsonSchemaReadProblems(reader: JsonSchemaDocument, writer: JsonSchemaDocument, budget = judgementBudget()): Incompatibility[] {
  const writerDocument = new SchemaDocument(writer);
  const readerDocument = new SchemaDocument(reader);
  let known = new PairMap<Finding[]>();
  // Each pass can only add incompatible pairs and there are finitely many, so this ends; the pass limit only keeps
  // a mistake in that reasoning from hanging a request.
  for (let pass = 1; ; pass++) {
    const judgement = new PairJudgement(known, budget);
    const findings = judgement.compare(writerDocument.node(writer), readerDocument.node(reader));
    const incompatible = judgement.incompatiblePairs();
    if (!judgement.assumedCycle || samePairs(incompatible, known) || pass === MAX_PASSES) return problemsOf(findings);
    known = incompatible;
  }
}

const MAX_PASSES = 64;

/** Backward (contract §5.8): [] when `newDocument` reads data written with `oldDocument`. */
export function jsonSchemaBackwardProblems(oldDocument: JsonSchemaDocument, newDocument: JsonSchemaDocument): string[] {
  return jsonSchemaReadProblems(newDocument, oldDocument).map((p) => p.message);
}

function problemsOf(findings: Finding[]): Incompatibility[] {
  const problems = new Map<string, Incompatibility>();
  const ends = new Set<string>();
  for (const found of findings) {
    // Running out of steps and cutting a list, anywhere below, are said once each, at the end.
    if (found.rule === TOO_LARGE_RULE || found.rule === NOT_LISTED_RULE) {
      ends.add(found.rule);
      continue;
    }
    const { path, message } = render(found);
    problems.set(`${found.rule} ${message}`, { path, rule: found.rule, message });
  }
  return [...problems.values(), ...(ends.has(TOO_LARGE_RULE) ? [notJudgedAll()] : []), ...(ends.has(NOT_LISTED_RULE) ? [problemsNotListed()] : [])];
}

function samePairs(a: PairMap<Finding[]>, b: PairMap<Finding[]>): boolean {
  const [left, right] = [[...a.entries()], [...b.entries()]];
  return left.length === right.length && left.every(([writer, reader]) => b.get(writer, reader) !== undefined);
}
