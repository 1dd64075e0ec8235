/**
 * Entry point of the schema-formats module: parse an uploaded schema of any supported type, and judge whether a
 * new version can read data written with an older one. Pure code: no HTTP, no database.
 */
export { parseSchema } from './parse-schema';
export { backwardProblems, compatibilityProblems, parsedBackwardProblems, readProblems } from './compatibility';
export { COMPATIBILITY_MODES, isCompatibilityMode, modeProblems } from './compatibility-modes';
export type { CompatibilityMode, Incompatibility, ModeProblem } from './compatibility-modes';
export { SCHEMA_TYPES, SchemaParseError, isSchemaType } from './types';
export type {
  JsonSchemaDialect,
  JsonSchemaDocument,
  ParsedAvroSchema,
  ParsedJsonSchema,
  ParsedProtobufSchema,
  ParsedSchema,
  SchemaType,
} from './types';
