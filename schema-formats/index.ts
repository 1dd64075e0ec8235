/**
 * Entry point of the schema-formats module: parse an uploaded schema of any supported type, and judge whether a
 * new version can read data written with an older one. Pure code: no HTTP, no database.
 */
export { parseSchema, parseStoredSchema } from './parse-schema';
export { backwardProblems, compatibilityProblems, parsedBackwardProblems, readProblems } from './compatibility';
export { COMPATIBILITY_MODES, isCompatibilityMode, modeProblems } from './compatibility-modes';
export {
  judgedTextTooLarge, MAX_BRANCHES, MAX_ENUM_VALUES, MAX_JUDGED_DEPTH, MAX_JUDGED_STEPS, MAX_JUDGED_TEXT, MAX_LISTED_PROBLEMS,
  MAX_MESSAGE_STATEMENTS, MAX_NAMED_TYPES, MAX_NAMED_VALUES, MAX_NESTING, MAX_REASONS, MAX_REF_TARGETS,
} from './document-bounds';
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
