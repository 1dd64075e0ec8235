/** Dispatches an uploaded schema text to the parser of its type. */
import { parseAvroSchema } from './avro';
import { checkText } from './document-bounds';
import { parseJsonSchema } from './json-schema';
import { parseProtobufSchema } from './protobuf';
import { isSchemaType, SchemaParseError, type ParsedSchema, type SchemaType } from './types';

/** Parses `text` as a schema of `type` (AVRO when omitted, as the contract's `type?` defaults). Throws SchemaParseError. */
export function parseSchema(text: string, type: SchemaType = 'AVRO'): ParsedSchema {
  return parsedAs(text, type, false);
}

/**
 * Parses a stored version's text to judge against it. A JSON Schema is not compiled again (it was at its upload;
 * compiling is most of the time of parsing a large one), the bounds are checked again: a version stored before them
 * may be past one, and is then refused as any document is.
 */
export function parseStoredSchema(text: string, type: SchemaType): ParsedSchema {
  return parsedAs(text, type, true);
}

function parsedAs(text: string, type: SchemaType, stored: boolean): ParsedSchema {
  // Before any parser: each of them recurses once per level of nesting.
  if (isSchemaType(type)) checkText(text, type);
  switch (type) {
    case 'AVRO':
      return parseAvroSchema(text);
    case 'PROTOBUF':
      return parseProtobufSchema(text);
    case 'JSON_SCHEMA':
      return parseJsonSchema(text, stored);
    default:
      // Only reachable from untyped callers; the type is then not one of ours.
      throw new SchemaParseError(type, [`unknown schema type ${JSON.stringify(type satisfies never)}`]);
  }
}
