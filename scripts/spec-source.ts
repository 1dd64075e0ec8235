/**
 * Merges the hand-written split spec in openapi/ into one OpenAPI document. Files are merged in name order;
 * inside them, references are written as they will read in the bundle (`#/components/schemas/Cluster`).
 * Path items written as `x-associations` are expanded from openapi/templates/associations.yaml (see
 * `expandAssociations`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

type Doc = Record<string, any>;

const readYaml = (file: string): Doc => (yaml.load(readFileSync(file, 'utf8')) as Doc) ?? {};
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => path.join(dir, f));

function mergeInto(target: Doc, source: Doc, where: string): void {
  for (const [key, value] of Object.entries(source)) {
    if (key in target) throw new Error(`${where}: '${key}' is defined twice`);
    target[key] = value;
  }
}

export function loadSpec(root = 'openapi'): Doc {
  const doc = readYaml(path.join(root, 'openapi.yaml'));
  doc.components ??= {};
  for (const kind of ['parameters', 'responses', 'schemas', 'headers']) {
    const file = path.join(root, 'components', `${kind}.yaml`);
    doc.components[kind] ??= {};
    try { mergeInto(doc.components[kind], readYaml(file), file); } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  for (const file of yamlFiles(path.join(root, 'schemas'))) mergeInto(doc.components.schemas, readYaml(file), file);
  doc.paths = {};
  let template: Doc | undefined;
  const associationTemplate = (): Doc => (template ??= readYaml(path.join(root, 'templates', 'associations.yaml')));
  for (const file of yamlFiles(path.join(root, 'paths'))) {
    mergeInto(doc.paths, expandPaths(readYaml(file), file, associationTemplate), file);
  }
  return doc;
}

/** The path items of one paths/*.yaml file, in order, with every `x-associations` item expanded in place. */
export function expandPaths(items: Doc, file: string, template: () => Doc): Doc {
  const out: Doc = {};
  for (const [key, item] of Object.entries<Doc>(items)) {
    const expanded = item && typeof item === 'object' && 'x-associations' in item
      ? expandAssociations(key, item, `${file}: ${key}`, template())
      : { [key]: item };
    mergeInto(out, expanded, file);
  }
  return out;
}

/** Operation names of `x-associations`: where each one sits in the template (and in the expansion). */
export const ASSOCIATION_OPERATIONS = {
  get: ['association', 'get'],
  put: ['association', 'put'],
  post: ['association', 'post'],
  patch: ['association', 'patch'],
  delete: ['association', 'delete'],
  getMember: ['member', 'get'],
  deleteMember: ['member', 'delete'],
} as const;
export type AssociationOperation = keyof typeof ASSOCIATION_OPERATIONS;

const ASSOCIATION_KEYS = ['tag', 'noun', 'name', 'rels', 'example', 'target', 'operations', 'overrides'];

/**
 * Expands the path item `<collection>/{id}/{rel}: { x-associations: {...} }` into the association endpoints of a
 * resource, from the template (openapi/templates/associations.yaml, whose `${…}` placeholders are listed there):
 * `<collection>/{id}/{rel}` with the template's `association` operations and, when getMember or deleteMember is
 * listed, `<collection>/{id}/{rel}/{propertyId}` with its `member` operations. Keys of `x-associations`:
 *
 * - `tag` (required): the operations' tag.
 * - `noun` (required, PascalCase): the noun in operationIds (`getEnvironmentAssociation`).
 * - `name`: the noun in summaries with its article; default `noun` in lower-case words after `a`/`an`
 *   (`StreamConfig` → `a stream config`).
 * - `rels` (required): the description of the `rel` path parameter; its `backquoted` names are the parameter's
 *   `enum`, the associations the resource has.
 * - `example`: the example of `rel`; default the first `backquoted` name in `rels`.
 * - `target`: the collection of the example target URIs; default `<collection>`.
 * - `operations`: which of get, put, post, patch, delete, getMember, deleteMember exist; default all seven.
 * - `overrides`: per operation name, a JSON merge patch (RFC 7386: objects merge key by key, `null` removes a
 *   key, anything else replaces) applied to the template's operation, for the texts and bodies of one resource.
 *
 * Anything else in the path item, an unknown key or operation name, or a missing required key is an error
 * naming `where`.
 */
export function expandAssociations(pathKey: string, item: Doc, where: string, template: Doc): Doc {
  const fail = (message: string): never => { throw new Error(`${where}: x-associations: ${message}`); };
  const extra = Object.keys(item).filter((k) => k !== 'x-associations');
  if (extra.length > 0) fail(`the path item may hold nothing else (found ${extra.join(', ')})`);
  if (!isMap(item['x-associations'])) fail('expected a mapping');
  const spec: Doc = item['x-associations'];
  const unknownKeys = Object.keys(spec).filter((k) => !ASSOCIATION_KEYS.includes(k));
  if (unknownKeys.length > 0) fail(`unknown key(s) ${unknownKeys.join(', ')} (expected ${ASSOCIATION_KEYS.join(', ')})`);
  const match = /^(\/.+)\/\{id\}\/\{rel\}$/.exec(pathKey);
  if (!match) fail("the path must end in '/{id}/{rel}'");
  const collection = match![1].slice(1);
  for (const key of ['tag', 'noun', 'rels']) {
    if (typeof spec[key] !== 'string' || spec[key] === '') fail(`'${key}' is required (a string)`);
  }
  for (const key of ['name', 'example', 'target']) {
    if (key in spec && (typeof spec[key] !== 'string' || spec[key] === '')) fail(`'${key}' must be a non-empty string`);
  }
  const noun: string = spec.noun;
  if (!/^[A-Z][A-Za-z0-9]*$/.test(noun)) fail(`'noun' must be PascalCase (got '${noun}')`);
  const known = Object.keys(ASSOCIATION_OPERATIONS);
  const operations: string[] = spec.operations ?? known;
  if (!Array.isArray(operations) || operations.length === 0) fail(`'operations' must be a non-empty list of ${known.join(', ')}`);
  for (const op of operations) {
    if (!known.includes(op)) fail(`unknown operation '${op}' (expected one of ${known.join(', ')})`);
  }
  if (new Set(operations).size !== operations.length) fail("'operations' lists an operation twice");
  const overrides: Doc = spec.overrides ?? {};
  if (!isMap(overrides)) fail("'overrides' must be a mapping");
  for (const op of Object.keys(overrides)) {
    if (!operations.includes(op)) fail(`'overrides' names '${op}', which is not among the operations`);
  }
  const example = spec.example ?? /`([^`]+)`/.exec(spec.rels)?.[1];
  if (!example) fail("'rels' names no `association`: give 'example'");
  const relNames = [...spec.rels.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const words = noun.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const vars: Record<string, string> = {
    tag: spec.tag,
    Noun: noun,
    a_noun: spec.name ?? `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`,
    rels: spec.rels,
    relExample: example,
    target: spec.target ?? collection,
  };
  const out: Doc = {};
  for (const [part, at] of [['association', pathKey], ['member', `${pathKey}/{propertyId}`]] as const) {
    const ops = operations.filter((op) => ASSOCIATION_OPERATIONS[op as AssociationOperation][0] === part);
    if (ops.length === 0) continue;
    const section: Doc = template[part] ?? fail(`the template has no '${part}'`);
    const pathItem: Doc = { parameters: section.parameters };
    for (const op of ops) {
      const method = ASSOCIATION_OPERATIONS[op as AssociationOperation][1];
      const operation = section[method] ?? fail(`the template has no '${part}.${method}'`);
      pathItem[method] = op in overrides ? mergePatch(operation, overrides[op]) : operation;
    }
    const filled = fillPlaceholders(pathItem, vars, where);
    filled.parameters = filled.parameters?.map((p: Doc) => (p.in === 'path' && p.name === 'rel' ? { ...p, schema: { ...p.schema, enum: relNames } } : p));
    out[at] = filled;
  }
  return out;
}

const isMap = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch; returns a new value and leaves both arguments alone. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return patch;
  const result: Doc = isMap(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** A deep copy of `node` with `${name}` in every string replaced by `vars[name]`. */
function fillPlaceholders(node: unknown, vars: Record<string, string>, where: string): any {
  if (typeof node === 'string') {
    return node.replace(/\$\{(\w+)\}/g, (_, name: string) => {
      if (!(name in vars)) throw new Error(`${where}: x-associations: the template uses an unknown placeholder \${${name}}`);
      return vars[name];
    });
  }
  if (Array.isArray(node)) return node.map((x) => fillPlaceholders(x, vars, where));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fillPlaceholders(v, vars, where)]));
  }
  return node;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

export interface OperationInfo { operationId: string; method: string; path: string; tag: string }

export function operationsOf(doc: Doc): OperationInfo[] {
  const ops: OperationInfo[] = [];
  for (const [p, item] of Object.entries<Doc>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) ops.push({ operationId: op.operationId, method, path: p, tag: op.tags?.[0] ?? '' });
    }
  }
  return ops;
}

/** House rules on top of Redocly's: what makes the document usable as the product's public face. */
export function houseRules(doc: Doc): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [p, item] of Object.entries<Doc>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const at = `${method.toUpperCase()} ${p}`;
      if (!op.operationId) problems.push(`${at}: no operationId`);
      else if (!/^[a-z][A-Za-z0-9]*$/.test(op.operationId)) problems.push(`${at}: operationId '${op.operationId}' is not camelCase`);
      else if (seen.has(op.operationId)) problems.push(`${at}: operationId '${op.operationId}' used twice`);
      seen.add(op.operationId);
      if (!op.description) problems.push(`${at}: no description`);
      if (!op.tags?.length) problems.push(`${at}: no tag`);
      const codes = Object.keys(op.responses ?? {});
      if (!codes.some((c) => c.startsWith('4') || c.startsWith('5'))) problems.push(`${at}: lists no error response`);
      if (!hasExample(doc, op)) problems.push(`${at}: no example on its success response or request body`);
    }
  }
  return problems;
}

function hasExample(doc: Doc, op: Doc): boolean {
  const bodies: Doc[] = [];
  for (const [code, r] of Object.entries<Doc>(op.responses ?? {})) {
    if (code.startsWith('2')) bodies.push(...Object.values<Doc>(deref(doc, r).content ?? {}));
  }
  if (op.requestBody) bodies.push(...Object.values<Doc>(deref(doc, op.requestBody).content ?? {}));
  if (bodies.length === 0) return true; // 204-only operations have nothing to exemplify
  return bodies.some((m) => m.example !== undefined || m.examples !== undefined || schemaHasExample(doc, m.schema, 0));
}

function schemaHasExample(doc: Doc, schema: Doc | undefined, depth: number): boolean {
  if (!schema || depth > 4) return false;
  const s = deref(doc, schema);
  if (s.example !== undefined) return true;
  return [...(s.allOf ?? []), ...(s.oneOf ?? [])].some((x: Doc) => schemaHasExample(doc, x, depth + 1));
}

function deref(doc: Doc, node: Doc): Doc {
  let n = node;
  for (let i = 0; n && n.$ref && i < 10; i++) {
    n = n.$ref.slice(2).split('/').reduce((acc: Doc, k: string) => acc?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return n ?? {};
}
