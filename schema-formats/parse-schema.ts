/** Dispatches an uploaded schema text to the parser of its type. */
import { parseAvroSchema } from './avro';
import { parseJsonSchema } from './json-schema';
import { parseProtobufSchema } from './protobuf';
import { SchemaParseError, type ParsedSchema, type SchemaType } from './types';

/** Parses `text` as a schema of `type` (AVRO when omitted, as the contract's `type?` defaults). Throws SchemaParseError. */
export function parseSchema(text: string, type: SchemaType = 'AVRO'): ParsedSchema {
  switch (type) {
    case 'AVRO':
      return parseAvroSchema(text);
    case 'PROTOBUF':
      return parseProtobufSchema(text);
    case 'JSON_SCHEMA':
      return parseJsonSchema(text);
    default:
      // Only reachable from untyped callers; the type is then not one of ours.
      throw new SchemaParseError(type, [`unknown schema type ${JSON.stringify(type satisfies never)}`]);
  }
}
