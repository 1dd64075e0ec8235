/**
 * Shared vocabulary of the schema-formats module: which formats exist, what a successful parse yields and how a
 * failed one is reported. Pure types plus one error class; no parser is imported at runtime here.
 */
import type { Type as AvroType } from 'avsc';
import type { Root as ProtobufRoot, Type as ProtobufMessage } from 'protobufjs';

export const SCHEMA_TYPES = ['AVRO', 'PROTOBUF', 'JSON_SCHEMA'] as const;

export type SchemaType = (typeof SCHEMA_TYPES)[number];

/** The two JSON Schema dialects ajv is asked to understand (contract §5.9). */
export type JsonSchemaDialect = 'draft-07' | '2020-12';

export type JsonSchemaDocument = Record<string, unknown>;

interface ParsedSchemaBase {
  /** Names the Schema resource: AVRO `namespace.name`, JSON_SCHEMA `title`, PROTOBUF first message, qualified. */
  fullName: string;
  /** What check-parse returns: AVRO/JSON_SCHEMA re-serialised with 2-space indent, PROTOBUF trimmed. */
  normalised: string;
}

export interface ParsedAvroSchema extends ParsedSchemaBase {
  type: 'AVRO';
  /** Parsed form for compatibility: the avsc type, which can build resolvers against another version. */
  avroType: AvroType;
}

export interface ParsedProtobufSchema extends ParsedSchemaBase {
  type: 'PROTOBUF';
  /** Parsed form for compatibility: every message of the file hangs off this root. */
  root: ProtobufRoot;
  /** The message that gave the fullName. */
  message: ProtobufMessage;
}

export interface ParsedJsonSchema extends ParsedSchemaBase {
  type: 'JSON_SCHEMA';
  /** Parsed form for compatibility: the schema document itself (local `$ref`s are resolved against it). */
  document: JsonSchemaDocument;
  dialect: JsonSchemaDialect;
}

export type ParsedSchema = ParsedAvroSchema | ParsedProtobufSchema | ParsedJsonSchema;

/**
 * Thrown for any text that is not a usable schema of the requested type. `problems` are the parser's own
 * messages, prefixed with a position (`line 3, column 12: …`, or a JSON pointer such as `/properties/id/type: …`)
 * whenever the parser reports one, so the 400 body can point the uploader at the exact spot.
 */
export class SchemaParseError extends Error {
  readonly problems: string[];
  readonly schemaType: SchemaType;

  constructor(schemaType: SchemaType, problems: string[]) {
    super(`Invalid ${schemaType} schema: ${problems.join('; ')}`);
    this.name = 'SchemaParseError';
    this.schemaType = schemaType;
    this.problems = problems;
  }
}

export function isSchemaType(value: unknown): value is SchemaType {
  return typeof value === 'string' && (SCHEMA_TYPES as readonly string[]).includes(value);
}
