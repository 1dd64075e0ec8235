/**
 * Objects in the JSON_SCHEMA judgement, by Confluent's open/closed content model. A schema's content model says
 * which properties beyond `properties` its data may carry: open (`additionalProperties` absent or `true`, no
 * `patternProperties`, `unevaluatedProperties` absent or `true`): any, with any value; closed (`false`): none;
 * partially open (a schema in `patternProperties`, `additionalProperties` or `unevaluatedProperties`): those that
 * schema accepts. So a property the reader adds is safe only if the writer's model could not already have produced it
 * with another value (closed, or covered by the partial schema), and a property the reader drops is safe only if the
 * reader's model still accepts it (open, or covered). Pure.
 */
import { finding, gather, removedMember, under, type Compare, type Finding, type RemovedMember } from './json-schema-findings';
import { limitFindings } from './json-schema-limits';
import { isRaw, type NodeOf, type Raw, type SchemaNode } from './json-schema-nodes';

type ObjectNode = NodeOf<'object'>;

export function objectFindings(compare: Compare, writer: ObjectNode, reader: ObjectNode): Finding[] {
  return [
    ...requiredFindings(writer, reader),
    ...propertyFindings(compare, writer, reader),
    ...dependencyFindings(compare, writer, reader),
    ...additionalFindings(compare, writer, reader),
    ...unevaluatedFindings(compare, writer, reader),
    ...limitFindings('object', writer.raw, reader.raw),
  ];
}

/** A property both declare that only the reader requires: old data may lack it (a default does not count as data). */
function requiredFindings(writer: ObjectNode, reader: ObjectNode): Finding[] {
  const [before, after] = [requiredOf(writer), requiredOf(reader)];
  const readerProperties = propertiesOf(reader);
  return Object.keys(propertiesOf(writer))
    .filter((name) => Object.hasOwn(readerProperties, name) && after.has(name) && !before.has(name))
    .filter((name) => !hasDefault(readerProperties[name]))
    .map((name) => finding(`.${name}`, 'REQUIRED_ATTRIBUTE_ADDED', (s) => `${s} became required`));
}

function propertyFindings(compare: Compare, writer: ObjectNode, reader: ObjectNode): Finding[] {
  const [before, after] = [propertiesOf(writer), propertiesOf(reader)];
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return gather(names, (name) => {
    if (!Object.hasOwn(after, name)) return removedProperty(compare, writer.doc.node(before[name]), reader, name);
    if (!Object.hasOwn(before, name)) return addedProperty(compare, writer, reader, name);
    return under(`.${name}`, compare(writer.doc.node(before[name]), reader.doc.node(after[name])));
  });
}

const PROPERTY: RemovedMember = { rule: 'PROPERTY', further: 'other properties', closed: 'a closed content model' };

/** Old data may carry the dropped property: the reader must still accept it through its own content model. */
function removedProperty(compare: Compare, old: SchemaNode, reader: ObjectNode, name: string): Finding[] {
  return removedMember(compare, old, isOpen(reader), () => partialSchema(reader, name), `.${name}`, PROPERTY);
}

/** The writer's content model decides whether old data may already hold the new property, and with what value. */
function addedProperty(compare: Compare, writer: ObjectNode, reader: ObjectNode, name: string): Finding[] {
  const at = `.${name}`;
  const raw = propertiesOf(reader)[name];
  const added = reader.doc.node(raw);
  const required = requiredOf(reader).has(name);
  if (isOpen(writer)) {
    if (added.kind === 'empty') return [];
    if (!required) {
      return [finding(at, 'OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL',
        (s) => `${s} was added to an open content model: old data may hold it with any value`)];
    }
    // Confluent's STRICT policy refuses this even with a default: old data may still hold another value.
    const rule = hasDefault(raw) ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL' : 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL';
    return [finding(at, rule, (s) => `${s} was added as required to an open content model: old data may lack it or hold any value`)];
  }
  const findings: Finding[] = [];
  const cover = partialSchema(writer, name);
  const problems = cover ? compare(cover, added) : [];
  if (problems.length > 0) {
    findings.push(...under(at, problems), finding(at, 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      (s) => `${s} was added but old data may hold it with values the old schema for other properties accepted`));
  }
  if (required && !hasDefault(raw)) {
    findings.push(finding(at, 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL', (s) => `${s} was added as required: old data lacks it`));
  }
  return findings;
}

/** `dependencies` (draft-07) and `dependentRequired`/`dependentSchemas` (2020-12): conditions the reader adds. */
function dependencyFindings(compare: Compare, writer: ObjectNode, reader: ObjectNode): Finding[] {
  const [beforeLists, afterLists] = [dependentRequired(writer.raw), dependentRequired(reader.raw)];
  const listFindings = gather(Object.entries(afterLists), ([name, after]) => {
    const before = beforeLists[name];
    const [had, has] = [new Set(before), new Set(after)];
    if (before && after.every((n) => had.has(n))) return [];
    const rule = !before ? 'DEPENDENCY_ARRAY_ADDED' : before.every((n) => has.has(n)) ? 'DEPENDENCY_ARRAY_EXTENDED' : 'DEPENDENCY_ARRAY_CHANGED';
    return [finding(`.${name}`, rule, (s) => `${s}, when present, now requires ${after.join(', ')}`)];
  });
  const [beforeSchemas, afterSchemas] = [dependentSchemas(writer.raw), dependentSchemas(reader.raw)];
  const schemaFindings = gather(Object.entries(afterSchemas), ([name, after]) => {
    if (!Object.hasOwn(beforeSchemas, name)) {
      return [finding(`.${name}`, 'DEPENDENCY_SCHEMA_ADDED', (s) => `${s}, when present, now brings a schema the object must meet`)];
    }
    return under(`(if ${name})`, compare(writer.doc.node(beforeSchemas[name]), reader.doc.node(after)));
  });
  return [...listFindings, ...schemaFindings];
}

function additionalFindings(compare: Compare, writer: ObjectNode, reader: ObjectNode): Finding[] {
  const [before, after] = [writer.raw.additionalProperties, reader.raw.additionalProperties];
  if (before !== false && after === false) {
    return [finding('', 'ADDITIONAL_PROPERTIES_REMOVED', (s) => `${s} no longer allows additional properties`)];
  }
  if (before === false || after === false) return [];
  if (!isRaw(before) && isRaw(after)) {
    return [finding('', 'ADDITIONAL_PROPERTIES_NARROWED', (s) => `${s} now constrains additional properties that were free`)];
  }
  if (isRaw(before) && isRaw(after)) return under('{}', compare(writer.doc.node(before), reader.doc.node(after)));
  return [];
}

/** `unevaluatedProperties` (2020-12), with Confluent's rules: adding it narrows, `false` removes. */
function unevaluatedFindings(compare: Compare, writer: ObjectNode, reader: ObjectNode): Finding[] {
  const [before, after] = [writer.raw.unevaluatedProperties, reader.raw.unevaluatedProperties];
  if (after === undefined) return [];
  const removed = finding('', 'UNEVALUATED_PROPERTIES_REMOVED', (s) => `${s} no longer allows unevaluated properties`);
  const narrowed = finding('', 'UNEVALUATED_PROPERTIES_NARROWED', (s) => `${s} now constrains unevaluated properties`);
  const [old, now] = [writer.doc.node(before), reader.doc.node(after)];
  if (before === undefined) return [now.kind === 'false' ? removed : narrowed];
  if (old.kind === 'false' || now.kind === 'empty') return [];
  if (now.kind === 'false') return [removed];
  if (old.kind === 'empty') return [narrowed];
  return under('{}', compare(old, now));
}

/** Open: data may carry any other property with any value. */
function isOpen(node: ObjectNode): boolean {
  const { additionalProperties, patternProperties, unevaluatedProperties } = node.raw;
  if (additionalProperties !== undefined && additionalProperties !== true) return false;
  if (isRaw(patternProperties) && Object.keys(patternProperties).length > 0) return false;
  return unevaluatedProperties === undefined || node.doc.node(unevaluatedProperties).kind === 'empty';
}

/** The schema a partially open model gives an undeclared property `name`, if any (patterns first, as Confluent). */
function partialSchema(node: ObjectNode, name: string): SchemaNode | undefined {
  const { additionalProperties, patternProperties, unevaluatedProperties } = node.raw;
  for (const [pattern, schema] of isRaw(patternProperties) ? compiled(patternProperties) : []) {
    if (pattern?.test(name)) return node.doc.node(schema);
  }
  if (isRaw(additionalProperties)) return node.doc.node(additionalProperties);
  if (additionalProperties === false || unevaluatedProperties === undefined) return undefined;
  const unevaluated = node.doc.node(unevaluatedProperties);
  return unevaluated.kind === 'false' || unevaluated.kind === 'empty' ? undefined : unevaluated;
}

/** Each pattern compiled once per `patternProperties`, however many properties it is tried on; undefined if invalid. */
const patterns = new WeakMap<Raw, [RegExp | undefined, unknown][]>();

function compiled(patternProperties: Raw): [RegExp | undefined, unknown][] {
  let found = patterns.get(patternProperties);
  if (!found) {
    found = Object.entries(patternProperties).map(([pattern, schema]) => [regExpOf(pattern), schema]);
    patterns.set(patternProperties, found);
  }
  return found;
}

function regExpOf(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function propertiesOf(node: ObjectNode): Raw {
  return isRaw(node.raw.properties) ? node.raw.properties : {};
}

function requiredOf(node: ObjectNode): Set<string> {
  return new Set(stringList(node.raw.required));
}

function hasDefault(schema: unknown): boolean {
  return isRaw(schema) && Object.hasOwn(schema, 'default');
}

function dependentRequired(raw: Raw): Record<string, string[]> {
  const lists = Object.entries({ ...(isRaw(raw.dependencies) ? raw.dependencies : {}), ...(isRaw(raw.dependentRequired) ? raw.dependentRequired : {}) })
    .filter(([, value]) => Array.isArray(value));
  return Object.fromEntries(lists.map(([name, value]) => [name, stringList(value)]));
}

function dependentSchemas(raw: Raw): Raw {
  const schemas = Object.entries({ ...(isRaw(raw.dependencies) ? raw.dependencies : {}), ...(isRaw(raw.dependentSchemas) ? raw.dependentSchemas : {}) })
    .filter(([, value]) => !Array.isArray(value));
  return Object.fromEntries(schemas);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
