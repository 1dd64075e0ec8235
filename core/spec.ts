/** The bundled OpenAPI document, loaded once, with helpers to read dereferenced schemas from it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './project-root';

export type Schema = Record<string, any>;

const file = path.join(projectRoot, 'generated', 'openapi.json');
// The text is parsed and let go: only the parsed document stays in memory.
export const spec: Schema = JSON.parse(readFileSync(file, 'utf8'));

export function resolveRef(ref: string): Schema {
  return ref.slice(2).split('/').reduce((acc: Schema, key) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

/** The schema with `$ref`s replaced (cycles stop at depth 64, which our schemas never reach). */
export function deref(node: unknown, depth = 0): any {
  if (depth > 64 || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => deref(n, depth + 1));
  const obj = node as Schema;
  if (typeof obj.$ref === 'string') return deref(resolveRef(obj.$ref), depth + 1);
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, deref(v, depth + 1)]));
}

export function operationById(operationId: string): Schema | undefined {
  for (const item of Object.values<Schema>(spec.paths)) {
    for (const op of Object.values<Schema>(item)) {
      if (op && typeof op === 'object' && op.operationId === operationId) return op;
    }
  }
  return undefined;
}
