/**
 * Which properties of a request body its schema does not declare. A schema is compiled once into a tree of the
 * names each object may hold (allOf members and oneOf/anyOf branches merged: a name is known when any of them
 * declares it), cached per schema object; a body is then walked against the tree, which costs one map lookup per
 * property. An object whose schema declares no properties, or allows more (`additionalProperties`, the maps such as
 * `properties` and `configs`), has no unknown keys; its values are still walked when the schema says what they are.
 * Where the schema is unsure, a name counts as known: an unknown field is reported, and in strict handling refused,
 * only when no reading of the schema declares it.
 */
import type { Schema } from '../core/spec';

/** What a body may hold at one place; undefined wherever nothing can be unknown. */
interface Shape {
  /** Declared property names, each with the shape of its value (undefined: nothing to check inside it). */
  properties: Map<string, Shape | undefined>;
  /** Any key is allowed here (a map, or an object whose schema names no properties). */
  open: boolean;
  /** The shape of a map's values. */
  values?: Shape;
  /** The shape of an array's items. */
  items?: Shape;
}

const DEPTH = 32;
const shapes = new WeakMap<Schema, Shape | null>();

const types = (schema: Schema): string[] | undefined =>
  schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
const mayBe = (schema: Schema, type: string) => types(schema)?.includes(type) ?? true;
const isSchema = (s: unknown): s is Schema => s !== null && typeof s === 'object' && !Array.isArray(s);

interface Parts { properties: Map<string, Schema[]>; open: boolean; declares: boolean; values: Schema[]; items: Schema[] }

/**
 * Gathers what `schema` says about objects and arrays, through allOf (every member applies) and oneOf/anyOf (any
 * branch may apply, so a free-form object branch leaves every key open). A member without `type` that declares no
 * properties (`{required: [a]}`) only constrains, and adds nothing.
 */
function gather(schema: Schema, parts: Parts, depth: number): void {
  if (depth > DEPTH) { parts.open = true; return; }
  if (isSchema(schema.properties)) {
    parts.declares = true;
    for (const [name, sub] of Object.entries(schema.properties)) {
      const list = parts.properties.get(name) ?? [];
      if (isSchema(sub)) list.push(sub);
      parts.properties.set(name, list);
    }
  }
  const extra = schema.additionalProperties;
  if (extra === true || isSchema(extra)) {
    parts.declares = true;
    parts.open = true;
    if (isSchema(extra)) parts.values.push(extra);
  }
  // Keys matching a pattern are declared too; which pattern a key matches is the validator's business. An object
  // closed by `additionalProperties: false` is the validator's too: it refuses the key itself.
  if (isSchema(schema.patternProperties) || extra === false) {
    parts.declares = true;
    parts.open = true;
  }
  if (isSchema(schema.items)) parts.items.push(schema.items);
  for (const member of (schema.allOf ?? []) as Schema[]) if (isSchema(member)) gather(member, parts, depth + 1);
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])] as Schema[]) {
    if (!isSchema(branch)) continue;
    const own = emptyParts();
    gather(branch, own, depth + 1);
    if (mayBe(branch, 'object')) {
      if (isFreeForm(branch, own)) parts.open = true;
      merge(parts, own);
    } else {
      parts.items.push(...own.items);
    }
  }
}

/** `{type: object}` with nothing declared: any key is allowed. */
const isFreeForm = (schema: Schema, parts: Parts) => !parts.declares && (types(schema)?.includes('object') ?? false);

const emptyParts = (): Parts => ({ properties: new Map(), open: false, declares: false, values: [], items: [] });

function merge(into: Parts, from: Parts): void {
  into.declares ||= from.declares;
  into.open ||= from.open;
  into.values.push(...from.values);
  into.items.push(...from.items);
  for (const [name, list] of from.properties) into.properties.set(name, [...(into.properties.get(name) ?? []), ...list]);
}

/** The shape of a place that any of `schemas` may describe. */
function compile(schemas: Schema[], depth: number): Shape | undefined {
  if (schemas.length === 0 || depth > DEPTH) return undefined;
  const parts = emptyParts();
  for (const s of schemas) {
    const own = emptyParts();
    gather(s, own, depth);
    if (isFreeForm(s, own)) own.open = true;
    merge(parts, own);
  }
  // Nothing here declares properties: a free-form object, or not an object at all (the validator judges its type).
  if (!parts.declares) parts.open = true;
  const properties = new Map<string, Shape | undefined>();
  for (const [name, list] of parts.properties) properties.set(name, compile(list, depth + 1));
  const values = compile(parts.values, depth + 1);
  const items = compile(parts.items, depth + 1);
  const nothingToCheck = parts.open && !values && !items && [...properties.values()].every((p) => p === undefined);
  return nothingToCheck ? undefined : { properties, open: parts.open, values, items };
}

/** The compiled shape of a (dereferenced) request body schema, once per schema object. */
function shapeOf(schema: Schema): Shape | undefined {
  let shape = shapes.get(schema);
  if (shape === undefined) {
    shape = compile([schema], 0) ?? null;
    shapes.set(schema, shape);
  }
  return shape ?? undefined;
}

/** A body position: property names and array indexes from the top. */
export type FieldPath = (string | number)[];

/** Every property of `body` that `schema` does not declare, in body order. */
export function unknownFields(schema: Schema | undefined, body: unknown): FieldPath[] {
  const found: FieldPath[] = [];
  const shape = schema && body !== null && typeof body === 'object' ? shapeOf(schema) : undefined;
  if (shape) walk(body, shape, [], found);
  return found;
}

function walk(value: unknown, shape: Shape, at: FieldPath, found: FieldPath[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (shape.items) for (let i = 0; i < value.length; i++) walk(value[i], shape.items, [...at, i], found);
    return;
  }
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    if (shape.properties.has(key)) {
      const sub = shape.properties.get(key);
      if (sub) walk(inner, sub, [...at, key], found);
    } else if (!shape.open) {
      found.push([...at, key]);
    } else if (shape.values) {
      walk(inner, shape.values, [...at, key], found);
    }
  }
}

/** `['owners', 0, 'foo']` → `owners[0].foo`, the `field` syntax of the error body (docs/contract.md §2). */
export function fieldName(path: FieldPath): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc === '' ? p : `${acc}.${p}`), '');
}

const HEADER_NAMES = 20;
const HEADER_NAME_LENGTH = 200;

/**
 * The `Ignored-Fields` header value: the field names, comma-separated, each percent-encoded (UTF-8) except
 * `A-Z a-z 0-9 - . _ ~ [ ]`, so a name never holds a comma, a space or a non-ASCII character. At most 20 names of
 * at most 200 characters are listed; the names left out are counted in a last `(N more)`.
 */
export function ignoredFieldsHeader(paths: FieldPath[]): string {
  const names: string[] = [];
  let more = 0;
  for (const path of paths) {
    const name = headerName(fieldName(path));
    if (name !== undefined && names.length < HEADER_NAMES && name.length <= HEADER_NAME_LENGTH) names.push(name);
    else more++;
  }
  if (more > 0) names.push(`(${more} more)`);
  return names.join(', ');
}

/** A field name percent-encoded for the header; undefined for a name that is not well-formed UTF-16. */
function headerName(name: string): string | undefined {
  try {
    return encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return undefined;
  }
}
