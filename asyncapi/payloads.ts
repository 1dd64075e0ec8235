/**
 * What an AsyncAPI message says about the bytes of one side of a record (CONTRACT §9): the value's payload with
 * its content type and schema format, and the key schema of the Kafka message binding.
 */
import { ExactNumber, parseExactJson } from './exact-json';
import { inlineLocalRefs } from './json-schema-inline';

/** A stream side: its key/value type and, for the schema types, the pinned (else latest) version's text. */
export interface Side {
  type: string;
  schema: { version: string; body: string } | null;
}

export interface ValueMessage {
  contentType: string;
  schemaFormat?: string;
  payload: unknown;
  /** `x-json-schema` / `x-protobuf-schema`: the schema text when the payload cannot carry it. */
  extensions: Record<string, string>;
}

export const AVRO_FORMAT = 'application/vnd.apache.avro;version=1.9.0';
export const JSON_SCHEMA_FORMAT = 'application/schema+json;version=draft-07';
const BINARY = { type: 'string', format: 'binary' };

/** An Avro schema as a JSON value, a bare primitive name as the equivalent `{type: <name>}` object. */
export function avroObject(body: string): unknown {
  const parsed = parseExactJson(body);
  return typeof parsed === 'string' ? { type: parsed } : parsed;
}

/** The simple name of an Avro value schema that is a record, else null. */
export function avroRecordName(side: Side): string | null {
  if (side.type !== 'AVRO' || !side.schema) return null;
  const parsed = avroObject(side.schema.body) as { type?: unknown; name?: unknown };
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof ExactNumber) return null;
  if (parsed.type !== 'record' || typeof parsed.name !== 'string') return null;
  const simple = parsed.name.split('.').pop()!;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(simple) ? simple : null;
}

export function valueMessage(side: Side): ValueMessage {
  const { type, schema } = side;
  switch (type) {
    case 'AVRO':
      return schema
        ? { contentType: 'avro/binary', schemaFormat: AVRO_FORMAT, payload: avroObject(schema.body), extensions: {} }
        : { contentType: 'avro/binary', payload: { ...BINARY }, extensions: {} };
    case 'JSON_SCHEMA': {
      if (!schema) return { contentType: 'application/json', payload: {}, extensions: {} };
      const inlined = inlineLocalRefs(parseExactJson(schema.body));
      return inlined.ok
        ? { contentType: 'application/json', schemaFormat: JSON_SCHEMA_FORMAT, payload: inlined.schema, extensions: {} }
        : { contentType: 'application/json', schemaFormat: JSON_SCHEMA_FORMAT, payload: { type: 'object' }, extensions: { 'x-json-schema': schema.body } };
    }
    case 'PROTOBUF':
      return { contentType: 'application/x-protobuf', payload: { ...BINARY }, extensions: schema ? { 'x-protobuf-schema': schema.body } : {} };
    case 'JSON':
      return { contentType: 'application/json', payload: {}, extensions: {} };
    case 'String':
      return { contentType: 'text/plain', payload: { type: 'string' }, extensions: {} };
    case 'Xml':
      return { contentType: 'application/xml', payload: { type: 'string' }, extensions: {} };
    default:
      return { contentType: 'application/octet-stream', payload: { ...BINARY }, extensions: {} };
  }
}

/** The `key` of the Kafka message binding. */
export function keySchema(side: Side): unknown {
  if (side.type === 'AVRO' && side.schema) return avroObject(side.schema.body);
  if (side.type === 'String') return { type: 'string' };
  return { ...BINARY };
}
