/**
 * Merges the hand-written split spec in openapi/ into one OpenAPI document. Files are merged in name order;
 * inside them, references are written as they will read in the bundle (`#/components/schemas/Cluster`).
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
  for (const file of yamlFiles(path.join(root, 'paths'))) mergeInto(doc.paths, readYaml(file), file);
  return doc;
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
