/**
 * Compatibility modes (issue 45), as Confluent Schema Registry names them: which earlier versions a candidate is
 * judged against, and in which direction. BACKWARD: the candidate reads data written with the latest version;
 * FORWARD: the latest reads data written with the candidate; FULL: both; each `_TRANSITIVE` against every earlier
 * version instead of the latest only; NONE: nothing is judged. The judgement of one pair is the format's own
 * (`readProblems`: can `reader` read what `writer` wrote); this module only decides the pairs. Pure.
 */
import type { CompatibilityMode } from '../core/rules/compatibility-mode';

export { COMPATIBILITY_MODES, isCompatibilityMode, type CompatibilityMode } from '../core/rules/compatibility-mode';

/** One reason a reader cannot read a writer's data: where (a field path, `` for the root), which rule, in words. */
export interface Incompatibility {
  /** The field path in the schema, dotted (`address.street`, `items[]`, `Order.lines`); '' for the whole schema. */
  path: string;
  /** A stable rule name: the format's own suite's (Avro's `FIELD_NO_DEFAULT`, Buf's `FIELD_WIRE_COMPATIBLE_TYPE`, Confluent's JSON Schema `TYPE_NARROWED`). */
  rule: string;
  message: string;
}

/** A problem of judging `candidate` against one earlier version, with the direction it failed in. */
export interface ModeProblem extends Incompatibility {
  /** The earlier version's label (its version string, or what the caller names it). */
  against: string;
  /** `reads`: the candidate cannot read the earlier version's data (backward); `read by`: the reverse (forward). */
  direction: 'reads' | 'read by';
}

/**
 * Every problem of `candidate` under `mode` against `earlier` (oldest first; the last is the latest). `readProblems`
 * is the format's judgement of one pair.
 */
export function modeProblems<S>(mode: CompatibilityMode, candidate: S, earlier: { label: string; schema: S }[],
  readProblems: (reader: S, writer: S) => Incompatibility[]): ModeProblem[] {
  if (mode === 'NONE' || earlier.length === 0) return [];
  const against = mode.endsWith('_TRANSITIVE') ? earlier : earlier.slice(-1);
  const backward = mode.startsWith('BACKWARD') || mode.startsWith('FULL');
  const forward = mode.startsWith('FORWARD') || mode.startsWith('FULL');
  const problems: ModeProblem[] = [];
  for (const version of [...against].reverse()) {
    if (backward) problems.push(...readProblems(candidate, version.schema).map((p) => ({ ...p, against: version.label, direction: 'reads' as const })));
    if (forward) problems.push(...readProblems(version.schema, candidate).map((p) => ({ ...p, against: version.label, direction: 'read by' as const })));
  }
  return problems;
}
