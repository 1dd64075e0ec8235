/**
 * Query parameters whose values the document lists (`enum`, or an array of them) take their values as the service
 * always has, before the validator compares them with the list: matched ignoring case, spaces, `_` and `-` (as
 * bodies, server/enum-input), an array's values comma-joined or repeated, and a blank value meaning no value. Values
 * that match nothing are left for the validator to refuse, naming the parameter.
 */
import { matchEnum } from '../core/rules/loose-enum';
import type { DeclaredParameter } from './plain-parameters';

export interface QueryEnum { name: string; values: string[]; many: boolean }

/** The enum query parameters of an operation (dereferenced), or undefined when it has none. */
export function queryEnumsOf(parameters: (DeclaredParameter | undefined)[]): QueryEnum[] | undefined {
  const found: QueryEnum[] = [];
  for (const p of parameters) {
    if (p?.in !== 'query' || p.name === undefined) continue;
    const schema = p.schema ?? {};
    const items = schema.type === 'array' ? (schema.items as Record<string, unknown> | undefined) : undefined;
    const values = (items ?? schema).enum;
    if (Array.isArray(values)) found.push({ name: p.name, values: values.filter((v) => typeof v === 'string'), many: items !== undefined });
  }
  return found.length > 0 ? found : undefined;
}

/** `query` with the values of `enums` in their canonical spelling; a new object, `query` is left alone. */
export function normaliseQueryEnums(enums: QueryEnum[], query: Record<string, unknown>): Record<string, unknown> {
  const out = { ...query };
  for (const { name, values, many } of enums) {
    const given = out[name];
    if (given === undefined) continue;
    const raw = ([] as unknown[]).concat(given).map(String);
    const parts = (many ? raw.flatMap((v) => v.split(',')) : raw).map((v) => v.trim()).filter((v) => v !== '');
    const canonical = parts.map((v) => matchEnum(values, v) ?? v);
    if (canonical.length === 0) delete out[name];
    else out[name] = many || canonical.length > 1 ? canonical : canonical[0];
  }
  return out;
}
