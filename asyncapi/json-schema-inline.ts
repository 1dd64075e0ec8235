/**
 * A JSON Schema made self-contained for an AsyncAPI message payload: every local `$ref` replaced by what it points
 * to, `$schema`/`$id` and the root's `definitions`/`$defs` dropped. An AsyncAPI parser resolves any `$ref` left in a
 * payload against the AsyncAPI document itself (a `#/definitions/…` there is an error, a remote one a download), so
 * a schema that cannot be inlined completely (recursive, remote or dangling references, or one that would grow
 * too large) is reported as such and never half-inlined.
 */
import { ExactNumber, isJsonObject } from './exact-json';

export type Inlined = { ok: true; schema: unknown } | { ok: false; reason: string };

/** Nodes an inlined schema may have; shared definitions referenced from many places multiply. */
export const MAX_INLINED_NODES = 50_000;

const ROOT_ONLY = new Set(['$schema', '$id', 'definitions', '$defs']);

class NotInlinable extends Error {}

type Json = null | boolean | number | string | ExactNumber | Json[] | { [key: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> => isJsonObject(v);

/** RFC 6901 pointer (after the `#`, URI-decoded) into the document, or undefined when it leads nowhere. */
function resolvePointer(document: Json, fragment: string): Json | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === '') return document;
  if (!decoded.startsWith('/')) return undefined;
  let node: Json | undefined = document;
  for (const raw of decoded.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(token)) node = node[Number(token)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMAS = new Set([
  'items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames',
  'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
]);

/**
 * Whether a `$ref` key is left anywhere: in data (`const`, `enum`, `default`, `examples`), unknown keywords, or as a
 * property name. AsyncAPI parsers treat every `$ref` key as a reference, whatever its place or value.
 */
export function hasRefKey(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasRefKey);
  if (!isObject(node)) return false;
  return Object.prototype.hasOwnProperty.call(node, '$ref') || Object.values(node).some(hasRefKey);
}

export function inlineLocalRefs(document: unknown): Inlined {
  const root = document as Json;
  let nodes = 0;
  const count = () => {
    nodes += 1;
    if (nodes > MAX_INLINED_NODES) throw new NotInlinable(`it would have more than ${MAX_INLINED_NODES} nodes once its references are inlined`);
  };
  /** A schema position: its `$ref` is followed, its subschemas walked, every other keyword copied as it is. */
  const schema = (node: Json, expanding: Json[], rebased = false): Json => {
    count();
    if (!isObject(node)) return node;
    // Below a nested $id, `#…` means that resource, not the document: such references are not followed.
    const below = rebased || (node !== top && typeof node.$id === 'string');
    const ref = node.$ref;
    if (typeof ref === 'string') {
      if (below) throw new NotInlinable(`$ref ${ref} is below a nested $id`);
      if (!ref.startsWith('#')) throw new NotInlinable(`$ref ${ref} is not local to the schema`);
      const target = resolvePointer(root, ref.slice(1));
      if (target === undefined) throw new NotInlinable(`$ref ${ref} points to nothing`);
      if (target === root || expanding.includes(target)) throw new NotInlinable(`it is recursive ($ref ${ref})`);
      const resolved = schema(target, [...expanding, target]);
      const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref'));
      if (Object.keys(siblings).length === 0) return resolved;
      // Keywords beside a $ref apply together with it (2019-09 and later): the target joins their allOf.
      const { allOf, ...rest } = keywords(siblings, expanding, below);
      return { allOf: [resolved, ...(Array.isArray(allOf) ? allOf : [])], ...rest };
    }
    return keywords(node, expanding, below);
  };
  const keywords = (node: Record<string, Json>, expanding: Json[], rebased: boolean): Record<string, Json> => Object.fromEntries(Object.entries(node).map(([key, value]) => {
    const sub = (v: Json) => schema(v, expanding, rebased);
    if (SCHEMA_MAPS.has(key) && isObject(value)) return [key, Object.fromEntries(Object.entries(value).map(([name, v]) => [name, sub(v)]))];
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return [key, value.map(sub)];
    if (key === 'items' && Array.isArray(value)) return [key, value.map(sub)];
    if (SCHEMAS.has(key)) return [key, sub(value)];
    if (key === 'dependencies' && isObject(value)) {
      return [key, Object.fromEntries(Object.entries(value).map(([name, v]) => [name, Array.isArray(v) ? v : sub(v)]))];
    }
    return [key, value];
  }));
  const top = isObject(root) ? Object.fromEntries(Object.entries(root).filter(([key]) => !ROOT_ONLY.has(key))) : root;
  try {
    const inlined = schema(top, []);
    if (hasRefKey(inlined)) return { ok: false, reason: 'a $ref key is left outside a schema position (data or a property name)' };
    return { ok: true, schema: inlined };
  } catch (error) {
    if (error instanceof NotInlinable) return { ok: false, reason: error.message };
    throw error;
  }
}
