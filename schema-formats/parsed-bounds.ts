/**
 * The bounds of document-bounds.ts that need the parsed document: branches and named types counted in the JSON
 * before avsc or ajv builds anything from it, and nesting measured with references written out where they are used
 * (an Avro named type, a JSON Schema local `$ref`), since a chain of references nests the parsers' and judgements'
 * recursion as deeply as brackets do. The text's own nesting is bounded already, so walking the JSON recurses little.
 * Pure.
 */
import type avsc from 'avsc';
import { MAX_BRANCHES, MAX_ENUM_VALUES, MAX_NAMED_TYPES, MAX_NESTING, MAX_REF_TARGETS } from './document-bounds';
import { SchemaParseError } from './types';

/** Throws SchemaParseError when an Avro schema's JSON has a union with too many branches, or too many named types. */
export function checkAvroJson(json: unknown): void {
  const named = { count: 0 };
  const wide = wideUnion(json, '', named);
  if (wide) throw new SchemaParseError('AVRO', [wide]);
  if (named.count > MAX_NAMED_TYPES) {
    throw new SchemaParseError('AVRO', [`${named.count} named types (records, enums, fixed); at most ${MAX_NAMED_TYPES}`]);
  }
}

const NAMED = ['record', 'error', 'enum', 'fixed'];

/** The first union with too many branches below `schema` (at field path `path`), as a problem; counts named types. */
function wideUnion(schema: unknown, path: string, named: { count: number }): string | undefined {
  if (Array.isArray(schema)) {
    if (schema.length > MAX_BRANCHES) return `${path ? `field '${path}'` : 'the schema'}: a union of ${schema.length} branches; at most ${MAX_BRANCHES}`;
    return first(schema, (branch) => wideUnion(branch, path, named));
  }
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { type, fields, items, values } = schema as Record<string, unknown>;
  if (typeof type === 'string' && NAMED.includes(type)) named.count++;
  if ((type === 'record' || type === 'error') && Array.isArray(fields)) {
    return first(fields, (field) => {
      const { name, type: fieldType } = (field ?? {}) as Record<string, unknown>;
      return wideUnion(fieldType, path ? `${path}.${String(name)}` : String(name), named);
    });
  }
  if (type === 'array') return wideUnion(items, `${path}[]`, named);
  if (type === 'map') return wideUnion(values, `${path}{}`, named);
  // `{"type": {...}}` and `{"type": [...]}` wrap a schema.
  return typeof type === 'object' ? wideUnion(type, path, named) : undefined;
}

function first<T>(items: T[], find: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const found = find(item);
    if (found) return found;
  }
  return undefined;
}

/** Throws SchemaParseError when an Avro type nests past its bound with every named type written out where it is used. */
export function checkAvroNesting(type: avsc.Type): void {
  const bound = MAX_NESTING.AVRO;
  const path = pastBound(type, bound, { children: avroChildren, levels: avroLevels });
  if (!path) return;
  const where = fieldPath(path);
  throw new SchemaParseError('AVRO', [`${where ? `field '${where}'` : 'the schema'}: nesting deeper than ${bound} levels with each named type written out where it is used`]);
}

function avroChildren(type: avsc.Type): avsc.Type[] {
  switch (type.typeName) {
    case 'record': case 'error': return (type as avsc.types.RecordType).fields.map((field) => field.type);
    case 'array': return [(type as avsc.types.ArrayType).itemsType];
    case 'map': return [(type as avsc.types.MapType).valuesType as avsc.Type];
    default: return type.typeName.startsWith('union') ? (type as avsc.types.UnwrappedUnionType).types : [];
  }
}

/** The brackets a type's JSON adds above its children: a record's object, its `fields` array and each field's object. */
function avroLevels(type: avsc.Type): number {
  switch (type.typeName) {
    case 'record': case 'error': return (type as avsc.types.RecordType).fields.length > 0 ? 3 : 2;
    case 'enum': return 2;
    case 'fixed': case 'array': case 'map': return 1;
    default: return type.typeName.startsWith('union') ? 1 : 0;
  }
}

/** `a.b[].c`, as the judgement names fields: the route through `path`, a chain of types each holding the next. */
function fieldPath(path: avsc.Type[]): string {
  const pieces = path.slice(0, -1).map((type, i) => {
    if (type.typeName === 'array') return '[]';
    if (type.typeName === 'map') return '{}';
    if (type.typeName !== 'record' && type.typeName !== 'error') return '';
    const field = (type as avsc.types.RecordType).fields.find((f) => f.type === path[i + 1]);
    return field ? `.${field.name}` : '';
  });
  return pieces.join('').replace(/^\./, '');
}

/**
 * Throws SchemaParseError when a JSON Schema has a combinator with too many branches, an `enum` with too many values,
 * too many different `$ref` targets, or nests past its bound with each local `$ref` followed. Runs on the parsed
 * JSON, before ajv compiles it.
 */
export function checkJsonSchemaDocument(document: Record<string, unknown>): void {
  const wide = wideList(document, '', new Set());
  if (wide) throw new SchemaParseError('JSON_SCHEMA', [wide]);
  const bound = MAX_NESTING.JSON_SCHEMA;
  const path = pastBound<object>(document, bound, { children: (node) => jsonChildren(document, node), levels: () => 1 });
  if (!path) return;
  const at = pointerOf(document, path.at(-1)!, '') || '/';
  throw new SchemaParseError('JSON_SCHEMA', [`${at}: nesting deeper than ${bound} levels with each $ref followed (one level for the $ref, then those of the schema it points to)`]);
}

/** The bounded lists of a JSON Schema: what they hold, and how many of it at most. */
const LISTS: Record<string, { of: string; bound: number }> = {
  oneOf: { of: 'branches', bound: MAX_BRANCHES },
  anyOf: { of: 'branches', bound: MAX_BRANCHES },
  allOf: { of: 'branches', bound: MAX_BRANCHES },
  enum: { of: 'values', bound: MAX_ENUM_VALUES },
};

/**
 * The first combinator with too many branches, `enum` with too many values, or `$ref` past the distinct targets a
 * document may have, as a problem. `refs`: the distinct `$ref`s met so far.
 */
function wideList(value: unknown, pointer: string, refs: Set<string>): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = `${pointer}/${escapePointer(key)}`;
    const list = Object.hasOwn(LISTS, key) ? LISTS[key] : undefined;
    if (list && Array.isArray(child) && child.length > list.bound) return `${at}: ${child.length} ${list.of}; at most ${list.bound}`;
    if (key === '$ref' && typeof child === 'string' && refs.add(child).size > MAX_REF_TARGETS) {
      return `${at}: more than ${MAX_REF_TARGETS} different $ref targets in the document`;
    }
    const found = wideList(child, at, refs);
    if (found) return found;
  }
  return undefined;
}

/** Members of an object or array, and the target of a local `$ref` it holds. */
function jsonChildren(root: Record<string, unknown>, node: object): object[] {
  const children = Object.values(node).filter((child): child is object => typeof child === 'object' && child !== null);
  const ref = (node as { $ref?: unknown }).$ref;
  const target = typeof ref === 'string' ? localTarget(root, ref) : undefined;
  return typeof target === 'object' && target !== null ? [...children, target] : children;
}

/** What a local `$ref` (`#`, `#/definitions/a`) points to in `root`; undefined for any other reference. */
function localTarget(root: Record<string, unknown>, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const token of ref === '#' ? [] : ref.slice(2).split('/')) {
    const key = decodedToken(token);
    if (key === undefined || typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return undefined;
    target = (target as Record<string, unknown>)[key];
  }
  return target;
}

function decodedToken(token: string): string | undefined {
  try {
    return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    // A malformed escape resolves to nothing; ajv then names the reference it cannot resolve.
    return undefined;
  }
}

/** The JSON pointer of `node` inside `value`, found by identity. */
function pointerOf(value: unknown, node: object, pointer: string): string | undefined {
  if (value === node) return pointer;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = pointerOf(child, node, `${pointer}/${escapePointer(key)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** How a parsed document nests: a node's children (what a reference points to among them) and the levels it adds. */
interface Nesting<T> {
  children(node: T): T[];
  levels(node: T): number;
}

/**
 * The path from `root` to the first node past `bound` levels, or undefined. A node already on the path (recursion)
 * is not entered again, and a node's depth is measured once and remembered, so shared definitions cost nothing more
 * where they are used again: linear in the document. Every node with children adds a level, so the recursion stops
 * at the bound.
 */
function pastBound<T>(root: T, bound: number, nesting: Nesting<T>): T[] | undefined {
  const depths = new Map<T, number>();
  const deepestChild = new Map<T, T>();
  const onPath = new Set<T>();
  let found: T[] | undefined;
  const deepestPath = (node: T, budget: number): T[] => {
    const path = [node];
    for (let left = budget - nesting.levels(node), next = deepestChild.get(node); left >= 0 && next !== undefined; next = deepestChild.get(next)) {
      path.push(next);
      left -= nesting.levels(next);
    }
    return path;
  };
  const visit = (node: T, above: number): number => {
    const own = nesting.levels(node);
    const known = depths.get(node);
    if (known !== undefined || above + own > bound) {
      if (above + (known ?? own) > bound) found = [...onPath, ...deepestPath(node, bound - above)];
      return known ?? own;
    }
    onPath.add(node);
    let below = 0;
    for (const child of nesting.children(node)) {
      if (onPath.has(child)) continue;
      const depth = visit(child, above + own);
      if (found) return 0;
      if (depth > below) {
        below = depth;
        deepestChild.set(node, child);
      }
    }
    onPath.delete(node);
    depths.set(node, own + below);
    return own + below;
  };
  visit(root, 0);
  return found;
}
