/**
 * Backward compatibility between two versions of a schema, as a pinned StreamConfig version is replaced
 * (contract §5.8): the NEW version must read data written with the OLD one. Each problem names the field and the
 * rule broken, so the 422 can say exactly why instead of a bare "incompatible".
 */
import { avroBackwardProblems } from './avro-compatibility';
import { jsonSchemaBackwardProblems } from './json-schema-compatibility';
import { parseSchema } from './parse-schema';
import { protobufBackwardProblems } from './protobuf-compatibility';
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
  if (oldSchema.type === 'AVRO' && newSchema.type === 'AVRO') {
    return avroBackwardProblems(oldSchema.avroType, newSchema.avroType);
  }
  if (oldSchema.type === 'PROTOBUF' && newSchema.type === 'PROTOBUF') {
    return protobufBackwardProblems(oldSchema.root, newSchema.root);
  }
  if (oldSchema.type === 'JSON_SCHEMA' && newSchema.type === 'JSON_SCHEMA') {
    return jsonSchemaBackwardProblems(oldSchema.document, newSchema.document);
  }
  return [`the schema type changed from ${oldSchema.type} to ${newSchema.type}`];
}
