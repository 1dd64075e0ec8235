/**
 * JSON_SCHEMA backward compatibility: every document valid under the old schema must stay valid under the new
 * one for the parts that matter to readers: no property may become required and no `type` may narrow.
 * Walks `properties` and object-form `items`, following local `$ref`s (`#/definitions/…`, `#/$defs/…`).
 */
import type { JsonSchemaDocument } from './types';

type SchemaNode = Record<string, unknown>;

interface Side {
  root: JsonSchemaDocument;
  node: unknown;
}

export function jsonSchemaBackwardProblems(oldDocument: JsonSchemaDocument, newDocument: JsonSchemaDocument): string[] {
  const old = { root: oldDocument, node: oldDocument };
  const now = { root: newDocument, node: newDocument };
  return [...new Set(walk(old, now, '', new Map()))];
}

/** `active` holds the (old, new) node pairs being walked right now, so a recursive `$ref` stops at re-entry. */
function walk(old: Side, now: Side, path: string, active: Map<SchemaNode, Set<SchemaNode>>): string[] {
  const oldNode = deref(old.root, old.node);
  const newNode = deref(now.root, now.node);
  // Boolean schemas and references we cannot follow (remote, anchors) carry no rules we can compare.
  if (!oldNode || !newNode) return [];
  const walking = active.get(oldNode) ?? new Set<SchemaNode>();
  if (walking.has(newNode)) return [];
  active.set(oldNode, walking.add(newNode));
  const problems = [
    ...narrowedType(oldNode, newNode, path),
    ...newlyRequired(oldNode, newNode, path),
    ...sharedChildren(oldNode, newNode, path).flatMap(([o, n, childPath]) =>
      walk({ root: old.root, node: o }, { root: now.root, node: n }, childPath, active),
    ),
  ];
  walking.delete(newNode);
  return problems;
}

function narrowedType(oldNode: SchemaNode, newNode: SchemaNode, path: string): string[] {
  const oldTypes = typeSet(oldNode);
  const newTypes = typeSet(newNode);
  // No `type` accepts every type: dropping it widens, adding it narrows.
  if (!newTypes) return [];
  const stillValid = (t: string) => newTypes.includes(t) || (t === 'integer' && newTypes.includes('number'));
  if (oldTypes && oldTypes.every(stillValid)) return [];
  const from = oldTypes ? oldTypes.join('|') : 'any';
  const change = `changed type from ${from} to ${newTypes.join('|')}`;
  return [path ? `property '${path}' ${change}` : `the root schema ${change}`];
}

function newlyRequired(oldNode: SchemaNode, newNode: SchemaNode, path: string): string[] {
  const before = new Set(stringList(oldNode.required));
  return stringList(newNode.required)
    .filter((name) => !before.has(name))
    .map((name) => `property '${childPath(path, name)}' became required`);
}

/** Sub-schemas present on both sides, with the path naming them in problems (`address.street`, `tags[]`). */
function sharedChildren(oldNode: SchemaNode, newNode: SchemaNode, path: string): [unknown, unknown, string][] {
  const children: [unknown, unknown, string][] = [];
  const oldProperties = asNode(oldNode.properties);
  const newProperties = asNode(newNode.properties);
  if (oldProperties && newProperties) {
    for (const name of Object.keys(newProperties)) {
      if (Object.hasOwn(oldProperties, name)) children.push([oldProperties[name], newProperties[name], childPath(path, name)]);
    }
  }
  if (asNode(oldNode.items) && asNode(newNode.items)) children.push([oldNode.items, newNode.items, `${path}[]`]);
  return children;
}

/** Follows local `$ref` chains; undefined for anything that is not an object schema in the end. */
function deref(root: JsonSchemaDocument, node: unknown): SchemaNode | undefined {
  let current = asNode(node);
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 32 || !current.$ref.startsWith('#')) return undefined;
    current = asNode(pointerTarget(root, current.$ref.slice(1)));
  }
  return current;
}

function pointerTarget(root: JsonSchemaDocument, fragment: string): unknown {
  if (fragment !== '' && !fragment.startsWith('/')) return undefined;
  const tokens = fragment === '' ? [] : fragment.slice(1).split('/');
  let target: unknown = root;
  for (const token of tokens) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    const container = asNode(target);
    if (!container || !Object.hasOwn(container, key)) return undefined;
    target = container[key];
  }
  return target;
}

function typeSet(node: SchemaNode): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  return Array.isArray(node.type) ? stringList(node.type) : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function asNode(value: unknown): SchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}

function childPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
