/**
 * OpenAPI schema → fast-check arbitrary. Everything the fuzzer sends is derived from generated/openapi.json, so a
 * new operation or field is fuzzed without anyone writing a line. Two flavours per schema node:
 *  - `valid`: what a well-behaved client could send (right types, lengths, enums, patterns, existing references)
 *    but with the nastiest legal strings (NUL, lone surrogates, RTL, emoji, SQL, traversal…);
 *  - `clean`: what a well-behaved client sends and must get back byte for byte (storable strings — emoji, RTL,
 *    SQL and LIKE wildcards, spaces —, prototype-named map keys, in-range numbers), with now and then one number
 *    JSON.parse cannot keep (`1e309`): most of these are accepted, so read-back is tested broadly;
 *  - `mixed`: the same with some nodes swapped for wrong types, edge numbers, huge strings, deep nesting,
 *    missing required and extra (`__proto__`, `constructor`) fields.
 * References are generated as `RefPick` placeholders and resolved against the live fixture pools at send time,
 * because pools change when a fuzzed DELETE succeeds.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  EDGE_NUMBERS, HOSTILE_KEYS, INEXACT_NUMBERS, NUMBER_LIKE_STRINGS, RawJson, STORABLE_KEYS, STORABLE_STRINGS, TRICKY_STRINGS, deepNesting,
} from './hostile-values';

export type Schema = Record<string, any>;
/** How hostile a generated body is; see the header. */
export type Mode = 'clean' | 'valid' | 'mixed';
export const spec = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, any>>; components: Record<string, Record<string, Schema>>;
};

export const refName = (s: Schema | undefined): string | undefined =>
  typeof s?.$ref === 'string' ? s.$ref.split('/').pop() : undefined;

/** `#/components/...` → the object; other nodes unchanged. */
export function deref<T = Schema>(node: any): T {
  let n = node;
  for (let i = 0; n && typeof n.$ref === 'string' && i < 20; i++) {
    const [, , section, name] = n.$ref.split('/');
    n = spec.components[section][name];
  }
  return n as T;
}

/**
 * How the document marks references: fields whose schema is `$ref: Reference`, `NullableReference` or `ReferenceList`. Their values
 * are normalised by the service (URI → uid), so they are fuzzed but never compared verbatim on read-back.
 */
export const isReference = (s: Schema | undefined) => ['Reference', 'NullableReference', 'ReferenceList'].includes(refName(s) ?? '');

/** allOf merged into one object schema (properties and required united); other schemas dereferenced. */
export function flatten(schema: Schema): Schema {
  const s = deref(schema);
  if (!s?.allOf) return s;
  const out: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of s.allOf.map(flatten)) {
    // A create body's second member restates its required properties by type only: keep the first's constraints.
    for (const [k, v] of Object.entries(part.properties ?? {})) out.properties[k] = { ...out.properties[k], ...(v as Schema) };
    out.required.push(...(part.required ?? []));
    if (part.additionalProperties !== undefined) out.additionalProperties = part.additionalProperties;
  }
  return out;
}

/** Whether a schema node says anything about its shape (a node with only a description does not). */
const structured = (s: Schema | undefined) => !!s && ['type', '$ref', 'oneOf', 'anyOf', 'allOf', 'properties', 'enum'].some((k) => k in s);

/**
 * Request bodies the document describes in words only (validated field by field by the handler, so that a problem
 * names its field): the shape its description gives, for the fuzzer and its fixtures. Applied only while the
 * document's own schema is unstructured.
 */
const DESCRIBED_IN_WORDS: Record<string, Schema> = {
  // "A JSON array holding one ApplicationPrincipalCreate, or that object itself" (docs/contract.md §5.11).
  'POST /application_principals': {
    oneOf: [
      { type: 'array', minItems: 1, maxItems: 1, items: { $ref: '#/components/schemas/ApplicationPrincipalCreate' } },
      { $ref: '#/components/schemas/ApplicationPrincipalCreate' },
    ],
  },
};

/** The JSON request body of an operation: its declared media types, schema and example. */
export function requestBodyOf(method: string, template: string): { types: string[]; schema: Schema; example: unknown } | undefined {
  const op = spec.paths[template]?.[method.toLowerCase()];
  const content = deref(op?.requestBody)?.content as Record<string, { schema: Schema; example?: unknown }> | undefined;
  if (!content) return undefined;
  const media = content['application/json'] ?? Object.values(content)[0];
  const declared = media.schema;
  const schema = structured(deref(declared)) ? declared : DESCRIBED_IN_WORDS[`${method.toUpperCase()} ${template}`] ?? declared;
  return { types: Object.keys(content), schema, example: media.example };
}

/** The object a body schema describes: itself, or the object alternative (or array items) of a oneOf/anyOf. */
export function objectSchemaOf(schema: Schema): Schema {
  const s = deref(schema);
  const alternatives: Schema[] | undefined = s?.oneOf ?? s?.anyOf;
  if (!alternatives) return schema;
  const object = alternatives.find((a) => flatten(a)?.properties);
  if (object) return object;
  const array = alternatives.map((a) => deref(a)).find((a) => a?.type === 'array');
  return array?.items ?? {};
}

/** Whether a body schema's client sends a one-element array of its object (the Terraform provider's principal POST). */
export function sendsArray(schema: Schema, example?: unknown): boolean {
  const s = deref(schema);
  return Array.isArray(example) || (!!(s?.oneOf ?? s?.anyOf)?.[0] && deref((s.oneOf ?? s.anyOf)[0])?.type === 'array');
}

/** The example object of a body: the media type's (first element of an array one), the schema's or an allOf part's. */
export function exampleOf(schema: Schema, mediaExample?: unknown): Record<string, unknown> {
  const fromMedia = Array.isArray(mediaExample) ? mediaExample[0] : mediaExample;
  if (fromMedia && typeof fromMedia === 'object') return fromMedia as Record<string, unknown>;
  const object = deref(objectSchemaOf(schema));
  const parts: Schema[] = [object, ...((object?.allOf ?? []) as Schema[]).map((p) => deref(p))];
  return (parts.find((p) => p?.example && typeof p.example === 'object')?.example ?? {}) as Record<string, unknown>;
}

/** A reference to be filled with a uid of `collection` (or a hostile variant of it) when the request is sent. */
export class RefPick {
  constructor(readonly collection: string | undefined, readonly index: number,
    readonly form: 'uid' | 'uri' | 'otherUri' | 'dashed' | 'upper' | 'foreign' | 'unknown' | 'malformed') {}
}

/**
 * The collection a reference field points into (docs/contract.md §4.1): owners/viewers/groups → groups; people → users;
 * `…Id` fields of an access request → their collection; otherwise the field name pluralised (instance →
 * instances, clusters → clusters).
 */
const REFERENCE_TARGETS: Record<string, string> = {
  owners: 'groups', viewers: 'groups', groups: 'groups',
  members: 'users', managers: 'users', resourceManagers: 'users', users: 'users',
  keySchema: 'schemas', valueSchema: 'schemas', schema: 'schemas',
  keySchemaVersion: 'schema_versions', valueSchemaVersion: 'schema_versions',
  confidentiality: 'confidentialities', integrity: 'integrities', supportTier: 'support_tiers',
  // Access requests (the Terraform provider's field names) and the access rows' own references.
  applicationId: 'applications', streamId: 'streams', environmentId: 'environments',
  application: 'applications', stream: 'streams', environment: 'environments',
  applicationAccessGrant: 'application_access_grants', grants: 'application_access_grants',
};

export function refTarget(field: string): string {
  if (Object.hasOwn(REFERENCE_TARGETS, field)) return REFERENCE_TARGETS[field];
  return field.endsWith('s') ? field : `${field}s`;
}

/** An object with exactly these own properties — `__proto__` included as an ordinary key, never a prototype. */
export function ownObject(entries: Array<[string, unknown]>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 6, maxLength: 6 });

/** Fits a string into [min, max] UTF-16 units (cutting may split a pair: one more lone surrogate to survive). */
const fit = (s: string, min = 0, max = 100_000) => (s.length > max ? s.slice(0, max) : s.padEnd(min, 'x'));

/** Legal but nasty strings for a plain string field, mostly made unique so unique names do not all collide. */
function plainString(s: Schema, field: string, mode: Mode = 'valid'): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 100_000, 100_000);
  if (mode === 'clean') {
    return fc.tuple(fc.constantFrom(...STORABLE_STRINGS), hex).map(([t, h]) => fit(/email/i.test(field) ? `c-${h}@example.com` : `${t} ${h}`, min, max));
  }
  if (/email/i.test(field)) {
    return fc.tuple(fc.constantFrom('a', 'x.y', "o'brien", 'ünï', 'a+b', 'NUL\u0000'), hex)
      .map(([l, h]) => fit(`${l}-${h}@example.com`, min, max));
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...TRICKY_STRINGS), hex).map(([t, h]) => fit(`${t} ${h}`, min, max)) },
    { weight: 2, arbitrary: fc.constantFrom(...TRICKY_STRINGS).map((t) => fit(t, min, max)) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 40) }) },
    // 100 KB where the schema allows it (else the longest legal string): column limits, truncation.
    { weight: 1, arbitrary: fc.constantFrom('a', 'é', '🚀', '\u0000').map((c) => fit(c.repeat(Math.ceil(max / c.length)), min, max)) },
  );
}

function validString(s: Schema, field: string, mode: Mode): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum.filter((v: unknown) => v !== null));
  if (s.pattern) {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? 255;
    return fc.stringMatching(new RegExp(s.pattern), { size: 'small' })
      .filter((v) => v.length >= min && v.length <= max);
  }
  return plainString(s, field, mode);
}

function validNumber(s: Schema, mode: Mode): fc.Arbitrary<unknown> {
  const min = s.minimum ?? -1_000_000;
  const max = s.maximum ?? 1_000_000;
  const whole = fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
  const inRange = fc.oneof({ weight: 5, arbitrary: whole }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
  // The one hostile value of a clean body: a literal JSON.parse cannot keep, in an otherwise acceptable request.
  return mode === 'clean' ? fc.oneof({ weight: 8, arbitrary: inRange }, { weight: 1, arbitrary: fc.constantFrom(...INEXACT_NUMBERS) }) : inRange;
}

/** Anything of the wrong kind for a node: other JSON types, JSON.parse-breaking numbers, sizes, nesting. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, '', [], {}, [null], { href: 'x' }, 'x'.repeat(102_400)),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.constantFrom(...NUMBER_LIKE_STRINGS),
  fc.constantFrom(...TRICKY_STRINGS),
  fc.constantFrom(deepNesting(10_000, 'array'), deepNesting(2_000, 'object')),
  fc.constantFrom(...HOSTILE_KEYS).map((k) => ownObject([[k, 'v']])),
);

const refForms = fc.constantFrom<RefPick['form']>('uid', 'uid', 'uid', 'uri', 'otherUri', 'dashed', 'upper',
  'foreign', 'unknown', 'malformed');

function refArb(collection: string, mode: Mode): fc.Arbitrary<RefPick> {
  if (mode === 'clean') return fc.nat(1000).map((i) => new RefPick(collection, i, 'uid'));
  const forms = mode === 'mixed' ? refForms : fc.constantFrom<RefPick['form']>('uid', 'uid', 'uri', 'otherUri', 'dashed', 'upper');
  return fc.tuple(fc.nat(1000), forms).map(([i, form]) => new RefPick(collection, i, form));
}

/** String maps (`properties`, `settings`): ordinary keys plus prototype-piercing ones, values legal strings. */
function mapArb(s: Schema, mode: Mode): fc.Arbitrary<unknown> {
  const valueSchema = deref(s.additionalProperties);
  const key = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('cleanup.policy', 'segment.ms', 'theme', 'k'), hex).map(([k, h]) => `${k}.${h}`) },
    { weight: 2, arbitrary: fc.constantFrom(...(mode === 'clean' ? STORABLE_KEYS : HOSTILE_KEYS)) },
  );
  const value = valueSchema?.enum
    ? fc.constantFrom(...valueSchema.enum)
    : fc.oneof({ weight: 6, arbitrary: plainString({ maxLength: 200 }, 'value', mode) }, { weight: mode === 'clean' ? 0 : 1, arbitrary: fc.constant(null) });
  const entries = fc.uniqueArray(fc.tuple(key, mode === 'mixed' ? fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: wrongValue }) : value), {
    maxLength: 5, selector: ([k]) => k,
  });
  return entries.map(ownObject);
}

/** The body arbitrary of one schema. `field` is the property name the node sits at (references, e-mail hints). */
export function schemaArb(schema: Schema, mode: Mode, field = '', depth = 0): fc.Arbitrary<unknown> {
  const node = valueArb(schema, mode, field, depth);
  if (mode !== 'mixed' || depth === 0) return node;
  return fc.oneof({ weight: 7, arbitrary: node }, { weight: 1, arbitrary: wrongValue });
}

function valueArb(schema: Schema, mode: Mode, field: string, depth: number): fc.Arbitrary<unknown> {
  if (isReference(schema)) {
    const one = refArb(refTarget(field), mode);
    const ref = deref(schema);
    if (ref.type === 'array') return fc.array(one, { maxLength: 3 });
    return mode === 'mixed' ? fc.oneof({ weight: 8, arbitrary: one }, { weight: 1, arbitrary: fc.constantFrom(null, '') }) : one;
  }
  const s = flatten(schema);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((a: Schema) => schemaArb(a, mode, field, depth + 1)));
  const base = ((): fc.Arbitrary<unknown> => {
    switch (s.type) {
      case 'string': return validString(s, field, mode);
      case 'integer': case 'number': return validNumber(s, mode);
      case 'boolean': return fc.boolean();
      case 'array': return fc.array(schemaArb(s.items ?? {}, mode, field, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, 3) });
      case 'object': return s.properties ? objectArb(s, mode, depth) : mapArb(s, mode);
      default: return fc.constantFrom<unknown>('x', 1, null);
    }
  })();
  return s.nullable && mode !== 'clean' ? fc.oneof({ weight: 6, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) }) : base;
}

const EXTRA_FIELDS = fc.constantFrom<[string, unknown]>(['__proto__', { polluted: true }], ['constructor', { prototype: { x: 1 } }],
  ['_links', { self: { href: 'http://evil/x' } }], ['uid', '0'.repeat(32)], ['tenantUid', 'f'.repeat(32)], ['version', 99],
  ['created_at', '1970-01-01T00:00:00'], ['unknownField', 'x'], ['toString', 'x'], ['__proto__', 'str']);

function objectArb(s: Schema, mode: Mode, depth: number): fc.Arbitrary<unknown> {
  const required = new Set<string>(s.required ?? []);
  const props = Object.entries(s.properties as Record<string, Schema>).map(([name, p]) => {
    const value = schemaArb(p, mode, name, depth + 1);
    // Optional fields present about half the time; required ones always (mixed mode drops some later).
    return required.has(name)
      ? value.map((v) => [name, v] as [string, unknown])
      : fc.option(value, { freq: 2 }).map((v) => (v === null ? undefined : [name, v] as [string, unknown]));
  });
  const base = fc.tuple(...props).map((es) => es.filter((e): e is [string, unknown] => e !== undefined));
  if (mode !== 'mixed') return base.map(ownObject);
  return fc.tuple(base, fc.array(EXTRA_FIELDS, { maxLength: 2 }), fc.nat(8)).map(([es, extra, drop]) => {
    // drop < required count removes that required field: "missing field" requests.
    const req = es.filter(([k]) => required.has(k));
    const kept = drop < req.length ? es.filter(([k]) => k !== req[drop][0]) : es;
    return ownObject([...kept, ...extra]);
  });
}

/** JSON text of a generated value; RawJson fragments verbatim, RefPick already resolved by `resolve`. */
export function toJson(v: unknown, resolve: (r: RefPick) => string | null): string {
  if (v instanceof RawJson) return v.text;
  if (v instanceof RefPick) return JSON.stringify(resolve(v));
  if (Array.isArray(v)) return `[${v.map((x) => toJson(x, resolve)).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${toJson((v as Record<string, unknown>)[k], resolve)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The same value with RefPicks resolved and RawJson numbers turned into what JSON.parse makes of them. */
export function concrete(v: unknown, resolve: (r: RefPick) => string | null): unknown {
  if (v instanceof RawJson) {
    try { return JSON.parse(v.text); } catch { return v; }
  }
  if (v instanceof RefPick) return resolve(v);
  if (Array.isArray(v)) return v.map((x) => concrete(x, resolve));
  if (v && typeof v === 'object') {
    return ownObject(Object.keys(v).map((k) => [k, concrete((v as Record<string, unknown>)[k], resolve)]));
  }
  return v;
}
