/**
 * AVRO schemas: the uploaded text must be JSON and a valid Avro schema for avsc, with a named top type whose
 * qualified name becomes the Schema's fullName.
 */
import avsc from 'avsc';
import { keepLogicalType } from './avro-logical-types';
import { checkAvroJson, checkAvroNesting } from './parsed-bounds';
import { normaliseJson, parseJsonText } from './json-text';
import { SchemaParseError, type ParsedAvroSchema } from './types';

type AvroSchemaJson = Parameters<typeof avsc.Type.forSchema>[0];

const NAMED_TOP_TYPES = new Set(['record', 'error', 'enum', 'fixed']);

export function parseAvroSchema(text: string): ParsedAvroSchema {
  const json = parseJsonText('AVRO', text);
  // Before avsc builds anything: it compiles code for every named type, and the judgement tries union branches.
  checkAvroJson(json);
  const avroType = toAvroType(json);
  checkAvroNesting(avroType);
  if (!NAMED_TOP_TYPES.has(avroType.typeName) || !avroType.name) {
    throw new SchemaParseError('AVRO', [
      `a named type is required at the top level (record, enum or fixed), got ${avroType.typeName}: its name becomes the schema's fullName`,
    ]);
  }
  return { type: 'AVRO', fullName: avroType.name, normalised: normaliseJson(json), avroType };
}

/** The avsc type of any Avro schema (named at the top or not), logical-type annotations kept for resolution. */
export function toAvroType(json: unknown): avsc.Type {
  try {
    // Anonymous named types are invalid Avro; avsc only accepts them for convenience, other registries would not.
    return avsc.Type.forSchema(json as AvroSchemaJson, { noAnonymousTypes: true, typeHook: keepLogicalType });
  } catch (error) {
    throw new SchemaParseError('AVRO', [(error as Error).message]);
  }
}
