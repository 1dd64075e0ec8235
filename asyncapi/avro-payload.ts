/**
 * An Avro schema in the form AsyncAPI's Avro meta-schema accepts, meaning the same: a bare primitive name becomes
 * `{type: <name>}`, a dotted `name` becomes `name` + `namespace`, a top-level `error` becomes `record` (the same
 * encoding), and an alias in the type's own namespace becomes its simple name. What has no such form — an alias in
 * another namespace, or a `$ref` attribute that AsyncAPI tools would follow as a reference — is reported, so the
 * caller can keep the uploaded text beside (or instead of) the payload.
 */
import { isJsonObject, parseExactJson } from './exact-json';
import { hasRefKey } from './json-schema-inline';

export interface AvroPayload {
  schema: unknown;
  /** Why the schema above is not the whole uploaded schema; null when it is. */
  loss: string | null;
}

const NAMED = new Set(['record', 'error', 'enum', 'fixed']);
const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Json = unknown;
const isObject = (v: unknown): v is Record<string, Json> => isJsonObject(v);

export function avroPayload(body: string): AvroPayload {
  const parsed = parseExactJson(body);
  if (hasRefKey(parsed)) return { schema: null, loss: 'it has a $ref attribute, which AsyncAPI tools would follow as a reference' };
  const losses: string[] = [];

  const type = (node: Json, namespace: string): Json => {
    if (typeof node === 'string') return node;
    if (Array.isArray(node)) return node.map((member) => type(member, namespace));
    if (!isObject(node)) return node;
    let out: Record<string, Json> = { ...node };
    let inner = namespace;
    if (NAMED.has(node.type as string) && typeof node.name === 'string') {
      const dot = node.name.lastIndexOf('.');
      if (dot >= 0) {
        inner = node.name.slice(0, dot);
        out.name = node.name.slice(dot + 1);
        out.namespace = inner;
      } else if (typeof node.namespace === 'string') {
        inner = node.namespace;
      }
      if (node.type === 'error') out.type = 'record';
      if (Array.isArray(node.aliases)) out.aliases = aliases(node.aliases, inner, String(out.name));
      if (dot >= 0) out = reorder(out);
    }
    if (Array.isArray(node.fields)) out.fields = node.fields.map((field) => (isObject(field) ? { ...field, type: type(field.type, inner) } : field));
    if ('items' in node) out.items = type(node.items, inner);
    if ('values' in node) out.values = type(node.values, inner);
    return out;
  };

  const aliases = (list: Json[], namespace: string, name: string): Json[] => list.flatMap((alias) => {
    if (typeof alias !== 'string' || SIMPLE.test(alias)) return [alias];
    const dot = alias.lastIndexOf('.');
    if (alias.slice(0, dot) === namespace) return [alias.slice(dot + 1)];
    losses.push(`alias ${alias} of ${name} is in another namespace`);
    return [];
  });

  const schema = typeof parsed === 'string' ? { type: parsed } : type(parsed, '');
  return { schema, loss: losses.length > 0 ? losses.join('; ') : null };
}

/** A namespace split off a dotted name goes right after the name: `type`, `name`, `namespace`, then the rest. */
function reorder(node: Record<string, Json>): Record<string, Json> {
  const { type, name, namespace, ...rest } = node;
  return { type, name, namespace, ...rest };
}
