/**
 * What an AsyncAPI message says about the bytes of one side of a record (docs/contract.md §9): the value's payload with
 * its content type and schema format, and the key schema of the Kafka message binding.
 */
import { avroPayload } from './avro-payload';
import { parseExactJson } from './exact-json';
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

/** The simple name of an Avro value schema that is a record, else null. */
export function avroRecordName(side: Side): string | null {
  if (side.type !== 'AVRO' || !side.schema) return null;
  const schema = avroPayload(side.schema.body).schema as { type?: unknown; name?: unknown } | null;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return null;
  return schema.type === 'record' && typeof schema.name === 'string' ? schema.name : null;
}

export function valueMessage(side: Side): ValueMessage {
  const { type, schema } = side;
  switch (type) {
    case 'AVRO': {
      if (!schema) return { contentType: 'avro/binary', payload: { ...BINARY }, extensions: {} };
      const avro = avroPayload(schema.body);
      if (avro.schema === null) return { contentType: 'avro/binary', payload: { ...BINARY }, extensions: { 'x-avro-schema': schema.body } };
      return { contentType: 'avro/binary', schemaFormat: AVRO_FORMAT, payload: avro.schema, extensions: avro.loss ? { 'x-avro-schema': schema.body } : {} };
    }
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

/**
 * The `key` of the Kafka message binding, and the key's Avro text as `x-avro-key-schema` (on the message) when the
 * key schema cannot show all of it.
 */
export function keyBinding(side: Side): { key: unknown; extensions: Record<string, string> } {
  if (side.type === 'AVRO' && side.schema) {
    const avro = avroPayload(side.schema.body);
    const extensions: Record<string, string> = avro.schema === null || avro.loss ? { 'x-avro-key-schema': side.schema.body } : {};
    return { key: avro.schema ?? { ...BINARY }, extensions };
  }
  return { key: side.type === 'String' ? { type: 'string' } : { ...BINARY }, extensions: {} };
}
