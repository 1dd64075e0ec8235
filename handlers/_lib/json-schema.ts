/** OpenAPI 3.0 schema objects as standalone JSON Schema (the `/profile` JSON Schema representation). */
const OPENAPI_ONLY = new Set(['example', 'examples', 'discriminator', 'xml', 'externalDocs', 'nullable']);

/**
 * An OpenAPI schema as plain draft-07: `allOf` merged into one object (so `properties` names every field, the
 * common ones included), `nullable` as a `null` type, OpenAPI-only keywords dropped. Input is dereferenced.
 */
export function toDraft07(schema: any): any {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(toDraft07);
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map(toDraft07);
    const { allOf: _allOf, ...rest } = schema;
    return toDraft07({
      ...rest,
      type: 'object',
      properties: Object.assign({}, ...parts.map((p: any) => p.properties ?? {}), rest.properties ?? {}),
      required: [...new Set(parts.flatMap((p: any) => p.required ?? []).concat(rest.required ?? []))],
    });
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (OPENAPI_ONLY.has(k)) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([n, p]) => [n, toDraft07(p)])) : toDraft07(v);
  }
  if (schema.nullable === true && typeof schema.type === 'string') out.type = [schema.type, 'null'];
  return out;
}
