/**
 * Compatibility between versions of a schema (issue 45). One pair: can `reader` read data written with `writer`,
 * by the format's own rules — AVRO the specification's schema resolution, PROTOBUF wire compatibility (Buf's WIRE
 * rules), JSON_SCHEMA the open/closed content model (Confluent's) — each problem naming the field path and the
 * rule. A mode (compatibility-modes) decides which pairs a candidate is judged on. The backward check of a pinned
 * version's replacement (contract §5.8) is the BACKWARD judgement of one pair: the NEW version reads the OLD.
 */
import { avroReadProblems } from './avro-compatibility';
import { judgementBudget } from './document-bounds';
import { modeProblems, type CompatibilityMode, type Incompatibility, type ModeProblem } from './compatibility-modes';
import { jsonSchemaReadProblems } from './json-schema-compatibility';
import { parseSchema } from './parse-schema';
import { protobufReadProblems } from './protobuf-compatibility';
import type { ParsedSchema, SchemaType } from './types';

/** [] when `newText` can read data written with `oldText`. Throws SchemaParseError if either text is invalid. */
export function backwardProblems(type: SchemaType, oldText: string, newText: string): string[] {
  const oldSchema = parseSchema(oldText, type);
  const newSchema = parseSchema(newText, type);
  if (oldText === newText) return [];
  return parsedBackwardProblems(oldSchema, newSchema);
}

/** The same judgement for already-parsed versions (both must be of one type). */
export function parsedBackwardProblems(oldSchema: ParsedSchema, newSchema: ParsedSchema): string[] {
  return readProblems(newSchema, oldSchema).map((p) => p.message);
}

/**
 * Every reason `reader` cannot read data written with `writer`; a change of format is one. `budget`: the steps the
 * judgement has left (PROTOBUF's judgement is linear in the two files and needs none).
 */
export function readProblems(reader: ParsedSchema, writer: ParsedSchema, budget = judgementBudget()): Incompatibility[] {
  if (reader.type === 'AVRO' && writer.type === 'AVRO') return avroReadProblems(reader.avroType, writer.avroType, budget);
  if (reader.type === 'PROTOBUF' && writer.type === 'PROTOBUF') return protobufReadProblems(reader.root, writer.root);
  if (reader.type === 'JSON_SCHEMA' && writer.type === 'JSON_SCHEMA') return jsonSchemaReadProblems(reader.document, writer.document, budget);
  return [{ path: '', rule: 'SCHEMA_TYPE_CHANGED', message: `the schema type changed from ${writer.type} to ${reader.type}` }];
}

/** Every problem of `candidate` under `mode` against the earlier versions (oldest first, the latest last). */
export function compatibilityProblems(mode: CompatibilityMode, candidate: ParsedSchema, earlier: { label: string; schema: ParsedSchema }[]): ModeProblem[] {
  // One budget for the whole judgement: a transitive mode's pairs share it.
  const budget = judgementBudget();
  return modeProblems(mode, candidate, earlier, (reader, writer) => readProblems(reader, writer, budget));
}
