/**
 * Requests whose parameters the OpenAPI validator cannot refuse, told apart cheaply: every parameter is a string
 * whose only constraints are lengths, no query or header parameter is required, and (checked per request) no query
 * parameter is given and each path value's length is surely within bounds. For those the adapter skips the
 * validator's request parse and parameter check: a request without a body goes straight to its handler, a JSON body
 * meets the validator's own compiled body check alone (server/app). A value that might break a bound, a query
 * string, or any other operation goes through the whole validator as before, so every refusal and its message stay
 * the validator's.
 */
export interface DeclaredParameter { in?: string; name?: string; required?: boolean; schema?: Record<string, unknown> }

/** true: the path values cannot fail validation. */
export type PlainCheck = (pathValues: Record<string, unknown>) => boolean;

const ANNOTATIONS = new Set(['type', 'description', 'example', 'examples', 'title']);
const LENGTHS = new Set(['minLength', 'maxLength']);

export function plainCheckOf(parameters: (DeclaredParameter | undefined)[]): PlainCheck | undefined {
  const bounds: { name: string; min: number; max: number }[] = [];
  for (const p of parameters) {
    const schema = p?.schema ?? {};
    if (!p || schema.type !== 'string') return undefined;
    const keys = Object.keys(schema);
    if (p.in === 'path' && p.name !== undefined && keys.every((k) => ANNOTATIONS.has(k) || LENGTHS.has(k))) {
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      bounds.push({ name: p.name, min, max });
    } else if ((p.in === 'query' || p.in === 'header') && !p.required && keys.every((k) => ANNOTATIONS.has(k))) {
      // a query value is looked at per request (none given); a header is always a string
    } else {
      return undefined;
    }
  }
  // Ajv counts code points: at most the UTF-16 length, at least half of it.
  return (values) => bounds.every(({ name, min, max }) => {
    const v = values[name];
    return typeof v === 'string' && v.length <= max && Math.ceil(v.length / 2) >= min;
  });
}
