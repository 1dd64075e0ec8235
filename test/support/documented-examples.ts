/**
 * The request examples the bundled OpenAPI document gives, one entry per example: a body example of a media type
 * (its `example`, each of its `examples`, else the body schema's own `example`, through `$ref` and `allOf`), with
 * the operation's parameter examples (`example`, the first of `examples`, else the parameter schema's `example`).
 * Read from generated/openapi.json, so an operation that gains an example is picked up without a change here.
 */
import { deref, spec, type Schema } from '../../core/spec';

export interface DocumentedParameter { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required: boolean; schema: Schema; example?: unknown }

export interface DocumentedExample {
  operationId: string;
  method: string;
  /** The path template, e.g. `/groups/{id}`. */
  template: string;
  parameters: DocumentedParameter[];
  /** Absent for an operation documented by its parameter examples only. */
  body?: { mediaType: string; label: string; value: unknown; schema: Schema };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** A parameter's documented example: `example`, the first of `examples`, else its schema's. */
function parameterExample(p: Schema): unknown {
  if (p.example !== undefined) return p.example;
  const first = Object.values<Schema>(p.examples ?? {})[0];
  if (first !== undefined) return deref(first).value;
  return schemaExample(p.schema);
}

/**
 * A schema's own `example`; where it has none, the examples of its `allOf` members (objects merged in order, as
 * the members' properties are), so `GroupCreate: allOf [GroupFields, {required}]` shows GroupFields' example.
 */
export function schemaExample(node: unknown): unknown {
  const schema = deref(node) as Schema | undefined;
  if (!schema || typeof schema !== 'object') return undefined;
  if (schema.example !== undefined) return schema.example;
  const parts = ((schema.allOf ?? []) as Schema[]).map(schemaExample).filter((e) => e !== undefined);
  if (parts.length === 0) return undefined;
  if (parts.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
  return parts[0];
}

/** The body examples of one media type: its `example`, each of its `examples`, else its schema's. */
function mediaExamples(media: Schema): Array<{ label: string; value: unknown }> {
  if (media.example !== undefined) return [{ label: 'example', value: media.example }];
  if (media.examples) return Object.entries<Schema>(media.examples).map(([name, e]) => ({ label: `examples.${name}`, value: deref(e).value }));
  const own = schemaExample(media.schema);
  return own === undefined ? [] : [{ label: 'schema example', value: own }];
}

function parametersOf(item: Schema, op: Schema): DocumentedParameter[] {
  const byKey = new Map<string, Schema>();
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(raw) as Schema;
    byKey.set(`${p.in} ${p.name}`, p);
  }
  return [...byKey.values()].map((p) => ({
    name: p.name, in: p.in, required: p.required === true, schema: deref(p.schema ?? {}), example: parameterExample(p),
  }));
}

/** Every operation of the document with what it documents: its body examples, and whether it has any. */
export function documentedOperations(): Array<{ operationId: string; method: string; template: string; hasBody: boolean; examples: DocumentedExample[] }> {
  const out = [];
  for (const [template, item] of Object.entries<Schema>(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const parameters = parametersOf(item, op);
      const base = { operationId: op.operationId as string, method: method.toUpperCase(), template, parameters };
      const content = (deref(op.requestBody)?.content ?? {}) as Record<string, Schema>;
      const examples: DocumentedExample[] = [];
      for (const [mediaType, media] of Object.entries(content)) {
        for (const { label, value } of mediaExamples(media)) examples.push({ ...base, body: { mediaType, label, value, schema: deref(media.schema ?? {}) } });
      }
      // Without a body example, the parameter examples are the operation's request example.
      if (examples.length === 0 && parameters.some((p) => p.example !== undefined)) examples.push(base);
      out.push({ operationId: base.operationId, method: base.method, template, hasBody: op.requestBody !== undefined, examples });
    }
  }
  return out;
}
