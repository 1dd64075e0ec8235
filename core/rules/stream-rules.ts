/** Rules of one stream between its fields (docs/contract.md §5.7), as pure functions. */
import type { SubError } from '../errors';

/** Key and value types whose data is described by a schema of the same type. */
export const SCHEMA_TYPES = new Set(['AVRO', 'PROTOBUF', 'JSON_SCHEMA']);

export interface StreamShape {
  keyType: string | null;
  valueType: string | null;
  /** The type of the referenced schema; undefined when no schema is referenced. */
  keySchemaType?: string | null;
  valueSchemaType?: string | null;
  confidentiality: string | null;
  integrity: string | null;
  /** The tenant sets `dataClassificationEnabled`. */
  classificationRequired: boolean;
}

function schemaProblem(side: 'key' | 'value', type: string | null, schemaType: string | null | undefined): SubError | null {
  const field = `${side}Schema`;
  if (type && SCHEMA_TYPES.has(type)) {
    if (schemaType === undefined) return { field, message: `is required when ${side}Type is ${type}` };
    if (schemaType !== type) return { field, message: `must be a schema of type ${type} (it is ${schemaType ?? 'unknown'})` };
    return null;
  }
  return schemaType === undefined ? null : { field, message: `must be empty when ${side}Type is ${type ?? 'unset'}` };
}

/** Every problem of a stream's field combination, each naming its field. */
export function streamProblems(s: StreamShape): SubError[] {
  const problems = [schemaProblem('key', s.keyType, s.keySchemaType), schemaProblem('value', s.valueType, s.valueSchemaType)]
    .filter((p): p is SubError => p !== null);
  if (s.classificationRequired) {
    if (!s.confidentiality) problems.push({ field: 'confidentiality', message: 'is required: the tenant classifies its data' });
    if (!s.integrity) problems.push({ field: 'integrity', message: 'is required: the tenant classifies its data' });
  }
  return problems;
}
