/**
 * A JSON Schema document read as typed nodes, the way Confluent Schema Registry's loader (everit) reads it, so the
 * compatibility judgement can apply Confluent's rules to the same shapes: a schema with keywords of one kind is a
 * node of that kind (`type`, or inferred: `maxLength` makes a string, `properties` an object…); a schema that mixes
 * kinds (`type` with `enum`, `properties` with `oneOf`) is an implicit `allOf` of one part per kind; a list of types
 * is an `anyOf` of one part per type; `true` and `{}` accept anything, `false` nothing. Local `$ref`s
 * (`#/definitions/…`, `#/$defs/…`, `#`) are followed, their sibling keywords ignored as draft-07 and everit do; any
 * other reference is read as `{}`. Pure.
 */
import type { JsonSchemaDocument } from './types';

export type Raw = Record<string, unknown>;
export type Criterion = 'allOf' | 'anyOf' | 'oneOf';
/** Where an `allOf`/`anyOf` came from: the keyword itself, a list of types, or keywords of several kinds together. */
export type CombinedOrigin = 'keyword' | 'type-list' | 'mixed-keywords';

interface NodeBase {
  /** The keywords this node was read from (for a part of a mixed schema: only that part's keywords). */
  raw: Raw;
  /** The document the node belongs to: its children and `$ref`s resolve there. */
  doc: SchemaDocument;
}
type SimpleKind = 'empty' | 'false' | 'string' | 'boolean' | 'null' | 'object' | 'array' | 'conditional';
export type SchemaNode =
  | { [K in SimpleKind]: NodeBase & { kind: K } }[SimpleKind]
  | (NodeBase & { kind: 'number'; integer: boolean })
  | (NodeBase & { kind: 'enum'; values: unknown[] })
  | (NodeBase & { kind: 'const'; value: unknown })
  | (NodeBase & { kind: 'not'; negated: unknown })
  | (NodeBase & { kind: 'combined'; criterion: Criterion; branches: unknown[]; origin: CombinedOrigin });
export type NodeOf<K extends SchemaNode['kind']> = Extract<SchemaNode, { kind: K }>;

/** The keywords that make a schema of each kind when `type` is absent (everit's type inference). */
const FAMILIES = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  object: ['properties', 'required', 'minProperties', 'maxProperties', 'dependencies', 'dependentRequired', 'dependentSchemas',
    'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames'],
  array: ['items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'minItems', 'maxItems', 'uniqueItems', 'contains',
    'minContains', 'maxContains'],
} as const;
type Family = keyof typeof FAMILIES;
const FAMILY_OF_TYPE: Record<string, Family | undefined> = { string: 'string', number: 'number', integer: 'number', object: 'object', array: 'array' };
const CRITERIA: Criterion[] = ['allOf', 'anyOf', 'oneOf'];

type PartKind = 'ref' | 'enum' | 'const' | 'not' | Criterion | 'conditional' | 'type' | 'type-list' | Family;
interface Part { kind: PartKind; raw: Raw }

/** One schema document: turns any of its sub-schemas into a node, the same node object every time. */
export class SchemaDocument {
  private readonly nodes = new Map<Raw, SchemaNode>();
  private readonly following = new Set<string>();
  private readonly anything: SchemaNode = { kind: 'empty', raw: {}, doc: this };
  private readonly nothing: SchemaNode = { kind: 'false', raw: {}, doc: this };

  constructor(readonly root: JsonSchemaDocument) {}

  node(value: unknown): SchemaNode {
    if (value === false) return this.nothing;
    if (!isRaw(value)) return this.anything;
    let node = this.nodes.get(value);
    if (!node) {
      node = this.read(value);
      this.nodes.set(value, node);
    }
    return node;
  }

  private read(raw: Raw): SchemaNode {
    const parts = partsOf(raw);
    if (parts.length === 0) return { kind: 'empty', raw, doc: this };
    if (parts.length > 1) return { kind: 'combined', criterion: 'allOf', branches: parts.map((p) => p.raw), origin: 'mixed-keywords', raw, doc: this };
    return this.readPart(parts[0]!.kind, raw);
  }

  private readPart(kind: PartKind, raw: Raw): SchemaNode {
    const base = { raw, doc: this };
    switch (kind) {
      case 'ref': return this.follow(raw.$ref as string);
      case 'enum': return { kind: 'enum', values: Array.isArray(raw.enum) ? raw.enum : [], ...base };
      case 'const': return { kind: 'const', value: raw.const, ...base };
      case 'not': return { kind: 'not', negated: raw.not, ...base };
      case 'allOf': case 'anyOf': case 'oneOf':
        return { kind: 'combined', criterion: kind, branches: raw[kind] as unknown[], origin: 'keyword', ...base };
      case 'conditional': return { kind: 'conditional', ...base };
      case 'type-list': {
        const branches = (raw.type as unknown[]).map((type) => typedPart(raw, type));
        return { kind: 'combined', criterion: 'anyOf', branches, origin: 'type-list', ...base };
      }
      case 'type': return typedNode(raw.type, raw, this);
      case 'number': return { kind: 'number', integer: false, ...base };
      default: return { kind, ...base };
    }
  }

  /** A `$ref` is the node it points at; one that cannot be followed (remote, an anchor, a loop of `$ref`s) is `{}`. */
  private follow(ref: string): SchemaNode {
    const target = ref.startsWith('#') && !this.following.has(ref) ? pointerTarget(this.root, ref.slice(1)) : undefined;
    if (target === undefined) return this.anything;
    this.following.add(ref);
    try {
      return this.node(target);
    } finally {
      this.following.delete(ref);
    }
  }
}

/** The kinds of constraint a schema object carries, each as its own keywords (everit's schema extractors). */
function partsOf(raw: Raw): Part[] {
  const parts: Part[] = [];
  const add = (kind: PartKind, keys: readonly string[]) => {
    const picked = pick(raw, keys);
    if (Object.keys(picked).length > 0) parts.push({ kind, raw: picked });
  };
  // As draft-07 and everit: beside `$ref`, other keywords are not read.
  if (typeof raw.$ref === 'string') return [{ kind: 'ref', raw: { $ref: raw.$ref } }];
  add('enum', ['enum']);
  add('const', ['const']);
  add('not', ['not']);
  for (const criterion of CRITERIA) if (Array.isArray(raw[criterion])) add(criterion, [criterion]);
  if ('if' in raw) add('conditional', ['if', 'then', 'else']);
  if (typeof raw.type === 'string') parts.push({ kind: 'type', raw: typedPart(raw, raw.type) });
  else if (Array.isArray(raw.type)) add('type-list', ['type', ...Object.values(FAMILIES).flat()]);
  else for (const family of Object.keys(FAMILIES) as Family[]) add(family, FAMILIES[family]);
  return parts;
}

/** `type` with the keywords of that type only: everit ignores the keywords of other types. */
function typedPart(raw: Raw, type: unknown): Raw {
  const family = typeof type === 'string' ? FAMILY_OF_TYPE[type] : undefined;
  return { type, ...(family ? pick(raw, FAMILIES[family]) : {}) };
}

function typedNode(type: unknown, raw: Raw, doc: SchemaDocument): SchemaNode {
  switch (type) {
    case 'string': case 'boolean': case 'null': case 'object': case 'array': return { kind: type, raw, doc };
    case 'number': case 'integer': return { kind: 'number', integer: type === 'integer', raw, doc };
    // An unknown type name never passes ajv's meta-schema check; read it as no constraint rather than fail.
    default: return { kind: 'empty', raw, doc };
  }
}

/** How a node reads in a message: `string`, `integer`, `string|null`, `oneOf(number, string)`, `object & enum […]`. */
export function describeNode(node: SchemaNode, depth = 0): string {
  switch (node.kind) {
    case 'empty': return 'any';
    case 'false': return 'nothing';
    case 'number': return node.integer ? 'integer' : 'number';
    case 'enum': return `enum ${JSON.stringify(node.values)}`;
    case 'const': return `const ${JSON.stringify(node.value)}`;
    case 'not': return depth > 2 ? 'not' : `not(${describeNode(node.doc.node(node.negated), depth + 1)})`;
    case 'conditional': return 'if/then/else';
    case 'combined': {
      // Recursive schemas would describe themselves forever; three levels say enough.
      if (depth > 2) return node.criterion;
      const branches = node.branches.map((b) => describeNode(node.doc.node(b), depth + 1));
      if (node.origin === 'type-list') return branches.join('|');
      if (node.origin === 'mixed-keywords') return branches.join(' & ');
      return `${node.criterion}(${branches.join(', ')})`;
    }
    default: return node.kind;
  }
}

/** JSON text with object keys sorted: two values are the same JSON value exactly when these are equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRaw(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pick(raw: Raw, keys: readonly string[]): Raw {
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(raw, k)).map((k) => [k, raw[k]]));
}

function pointerTarget(root: JsonSchemaDocument, fragment: string): unknown {
  if (fragment !== '' && !fragment.startsWith('/')) return undefined;
  let target: unknown = root;
  for (const token of fragment === '' ? [] : fragment.slice(1).split('/')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRaw(target) && !Array.isArray(target)) return undefined;
    const container = target as Record<string, unknown>;
    if (!Object.hasOwn(container, key)) return undefined;
    target = container[key];
  }
  return target;
}
