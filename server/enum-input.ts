/**
 * docs/contract.md §4.3: enum input is matched ignoring case, spaces, `_` and `-`, and emitted exactly as the spec
 * spells it. Before validation, every string at an enum position of the request schema is replaced by its
 * canonical spelling; values that match nothing are left for the validator to reject.
 */
import type { Schema } from '../core/spec';

const loose = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');

function canonical(schema: Schema, value: string): string {
  if (!Array.isArray(schema.enum)) return value;
  const hit = (schema.enum as unknown[]).find((e) => typeof e === 'string' && loose(e) === loose(value));
  return typeof hit === 'string' ? hit : value;
}

/** Flattens allOf/oneOf/anyOf so property schemas can be found wherever the document put them. */
function branches(schema: Schema): Schema[] {
  return [schema, ...((schema.allOf ?? []) as Schema[]), ...((schema.oneOf ?? []) as Schema[]), ...((schema.anyOf ?? []) as Schema[])];
}

export function normaliseEnums(schema: Schema | undefined, value: unknown, depth = 0): unknown {
  if (!schema || depth > 12) return value;
  if (typeof value === 'string') {
    for (const b of branches(schema)) {
      const c = canonical(b, value);
      if (c !== value) return c;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items = branches(schema).map((b) => b.items).find(Boolean) as Schema | undefined;
    return items ? value.map((v) => normaliseEnums(items, v, depth + 1)) : value;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const b of branches(schema)) {
      for (const [key, propSchema] of Object.entries<Schema>(b.properties ?? {})) {
        if (key in out) out[key] = normaliseEnums(propSchema, out[key], depth + 1);
      }
    }
    return out;
  }
  return value;
}
