/**
 * JSON_SCHEMA schemas: a JSON object that ajv accepts as draft-07 or 2020-12 (chosen by `$schema`), with a
 * `title` that names the Schema.
 */
import Ajv, { type ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkJsonSchemaDocument } from './parsed-bounds';
import { normaliseJson, parseJsonText } from './json-text';
import { SchemaParseError, type JsonSchemaDialect, type JsonSchemaDocument, type ParsedJsonSchema } from './types';

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** `compiled`: the document was compiled by ajv when it was uploaded (a stored version), so it is not compiled again. */
export function parseJsonSchema(text: string, compiled = false): ParsedJsonSchema {
  const json = parseJsonText('JSON_SCHEMA', text);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SchemaParseError('JSON_SCHEMA', ['/: a JSON Schema must be a JSON object']);
  }
  const document = json as JsonSchemaDocument;
  // Before ajv compiles it: ajv recurses into every `$ref` and takes time squared in `enum` values and `$ref` targets.
  checkJsonSchemaDocument(document);
  const dialect = dialectOf(document);
  const problems = [...(compiled ? [] : compileProblems(document, dialect)), ...titleProblems(document)];
  if (problems.length > 0) throw new SchemaParseError('JSON_SCHEMA', problems);
  return { type: 'JSON_SCHEMA', fullName: document.title as string, normalised: normaliseJson(document), document, dialect };
}

function dialectOf(document: JsonSchemaDocument): JsonSchemaDialect {
  const declared = document.$schema;
  if (declared === undefined) return 'draft-07';
  if (typeof declared === 'string' && DRAFT_07.test(declared)) return 'draft-07';
  if (typeof declared === 'string' && DRAFT_2020_12.test(declared)) return '2020-12';
  throw new SchemaParseError('JSON_SCHEMA', [
    `/$schema: unsupported dialect ${JSON.stringify(declared)}; use draft-07 or 2020-12`,
  ]);
}

function titleProblems(document: JsonSchemaDocument): string[] {
  const { title } = document;
  if (title === undefined) return ['/title: title is required: it names the schema'];
  // A non-string title is already a meta-schema problem; only a blank one is ours to report.
  if (typeof title === 'string' && title.trim() === '') return ['/title: title must not be blank: it names the schema'];
  return [];
}

// One validator per dialect: building one compiles its meta-schema, which costs tens of milliseconds.
const validators: Partial<Record<JsonSchemaDialect, Ajv>> = {};

// The compiled code only shows that the schema compiles; it never validates data. So ajv neither copies a `$ref`'s
// target into every place that refers to it (a definition used under thousands of properties would be compiled
// thousands of times) nor optimises the code, which would take longer than compiling it; and compiling does not check
// the meta-schema again, since it only runs once validateSchema has.
const OPTIONS = { strict: false, allErrors: true, inlineRefs: false, code: { optimize: false }, validateSchema: false };

function validatorFor(dialect: JsonSchemaDialect): Ajv {
  validators[dialect] ??= dialect === '2020-12' ? new Ajv2020(OPTIONS) : new Ajv(OPTIONS);
  return validators[dialect];
}

function compileProblems(document: JsonSchemaDocument, dialect: JsonSchemaDialect): string[] {
  const ajv = validatorFor(dialect);
  if (!ajv.validateSchema(document)) return metaSchemaProblems(ajv.errors ?? []);
  try {
    ajv.compile(document);
    return [];
  } catch (error) {
    return [compileErrorProblem(document, error as Error & { missingRef?: string })];
  } finally {
    // Forget the uploaded schema (meta-schemas stay): ajv would otherwise keep every upload in memory and refuse
    // the next upload that reuses an `$id`.
    ajv.removeSchema();
  }
}

function metaSchemaProblems(errors: ErrorObject[]): string[] {
  const problems = errors.map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
  return [...new Set(problems)];
}

/** Ajv names the unresolved reference but not where it sits; the JSON pointer of that `$ref` is found here. */
function compileErrorProblem(document: JsonSchemaDocument, error: Error & { missingRef?: string }): string {
  const at = error.missingRef === undefined ? undefined : refLocation(document, error.missingRef, '');
  return `${at ?? '/'}: ${error.message}`;
}

function refLocation(node: unknown, ref: string, pointer: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record.$ref === 'string' && (record.$ref === ref || record.$ref === `#${ref.split('#')[1] ?? ''}`)) {
    return `${pointer}/$ref`;
  }
  for (const [key, child] of Object.entries(record)) {
    const found = refLocation(child, ref, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found) return found;
  }
  return undefined;
}
