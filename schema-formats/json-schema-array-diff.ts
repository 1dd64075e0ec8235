/**
 * Arrays in the JSON_SCHEMA judgement, by Confluent's open/closed content model for items. A tuple (`items: [...]`
 * in draft-07, `prefixItems` in 2020-12) names the first positions; the model says what may follow: open (no
 * `additionalItems`/2020-12 `items`, or `true`), closed (`false`) or partially open (a schema). The rules mirror those
 * of object properties: a position the reader adds must not already be written differently, a position it drops
 * must still be accepted by what follows. Pure.
 */
import { finding, gather, removedMember, under, type Compare, type Finding, type RemovedMember } from './json-schema-findings';
import { limitFindings } from './json-schema-limits';
import { isRaw, type NodeOf, type Raw, type SchemaNode } from './json-schema-nodes';

type ArrayNode = NodeOf<'array'>;

/** The item keywords of either dialect, read one way. */
interface Items {
  /** `items` as one schema for every item. */
  every?: Raw;
  tuple: unknown[];
  /** What follows the tuple: `false` closes it, a schema partially opens it. */
  rest: boolean | Raw;
  unevaluated: unknown;
}

export function arrayFindings(compare: Compare, writer: ArrayNode, reader: ArrayNode): Finding[] {
  const [before, after] = [itemsOf(writer.raw), itemsOf(reader.raw)];
  const sides: Sides = { compare, writer, reader, before, after };
  return [
    ...everyItemFindings(sides),
    ...tupleFindings(sides),
    ...restFindings(sides),
    ...unevaluatedFindings(sides),
    ...limitFindings('array', writer.raw, reader.raw),
    ...(writer.raw.uniqueItems !== true && reader.raw.uniqueItems === true
      ? [finding('', 'UNIQUE_ITEMS_ADDED', (s: string) => `${s} now requires unique items`)]
      : []),
  ];
}

interface Sides { compare: Compare; writer: ArrayNode; reader: ArrayNode; before: Items; after: Items }

function itemsOf(raw: Raw): Items {
  const { items, prefixItems, additionalItems, unevaluatedItems: unevaluated } = raw;
  if (Array.isArray(prefixItems)) return { tuple: prefixItems, rest: restOf(items), unevaluated };
  if (Array.isArray(items)) return { tuple: items, rest: restOf(additionalItems), unevaluated };
  // A boolean `items` (2020-12) opens or closes every position, as Confluent reads it.
  if (typeof items === 'boolean') return { tuple: [], rest: items, unevaluated };
  return { every: isRaw(items) ? items : undefined, tuple: [], rest: restOf(additionalItems), unevaluated };
}

function restOf(value: unknown): boolean | Raw {
  return isRaw(value) ? value : value !== false;
}

function everyItemFindings({ compare, writer, reader, before, after }: Sides): Finding[] {
  if (!after.every) return [];
  if (!before.every) return [finding('[]', 'SCHEMA_ADDED', (s) => `${s} gained a schema; the old schema let items be anything`)];
  return under('[]', compare(writer.doc.node(before.every), reader.doc.node(after.every)));
}

function tupleFindings({ compare, writer, reader, before, after }: Sides): Finding[] {
  const length = Math.max(before.tuple.length, after.tuple.length);
  return gather(Array.from({ length }, (_, index) => index), (index) => {
    const at = `[${index}]`;
    if (index >= after.tuple.length) return removedItem(compare, writer.doc.node(before.tuple[index]), reader, after, at);
    if (index >= before.tuple.length) return addedItem(compare, writer, before, reader.doc.node(after.tuple[index]), at);
    return under(at, compare(writer.doc.node(before.tuple[index]), reader.doc.node(after.tuple[index])));
  });
}

const ITEM: RemovedMember = { rule: 'ITEM', further: 'further items', closed: 'a closed tuple' };

function removedItem(compare: Compare, old: SchemaNode, reader: ArrayNode, after: Items, at: string): Finding[] {
  return removedMember(compare, old, isOpen(reader, after), () => partialSchema(reader, after), at, ITEM);
}

function addedItem(compare: Compare, writer: ArrayNode, before: Items, added: SchemaNode, at: string): Finding[] {
  if (isOpen(writer, before)) {
    if (added.kind === 'empty') return [];
    return [finding(at, 'ITEM_ADDED_TO_OPEN_CONTENT_MODEL', (s) => `${s} was added to an open tuple: old data may hold any value there`)];
  }
  const cover = partialSchema(writer, before);
  const problems = cover ? compare(cover, added) : [];
  if (problems.length === 0) return [];
  return [...under(at, problems), finding(at, 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
    (s) => `${s} was added but old data may hold values the old schema for further items accepted`)];
}

function restFindings({ compare, writer, reader, before, after }: Sides): Finding[] {
  if (before.rest !== false && after.rest === false) {
    return [finding('', 'ADDITIONAL_ITEMS_REMOVED', (s) => `${s} no longer allows items past its tuple`)];
  }
  if (before.rest === false || after.rest === false) return [];
  if (before.rest === true && isRaw(after.rest)) {
    return [finding('', 'ADDITIONAL_ITEMS_NARROWED', (s) => `${s} now constrains items past its tuple that were free`)];
  }
  if (isRaw(before.rest) && isRaw(after.rest)) return under('[*]', compare(writer.doc.node(before.rest), reader.doc.node(after.rest)));
  return [];
}

/** `unevaluatedItems` (2020-12), with the same rules as `unevaluatedProperties`. */
function unevaluatedFindings({ compare, writer, reader, before, after }: Sides): Finding[] {
  if (after.unevaluated === undefined) return [];
  const removed = finding('', 'UNEVALUATED_ITEMS_REMOVED', (s) => `${s} no longer allows unevaluated items`);
  const narrowed = finding('', 'UNEVALUATED_ITEMS_NARROWED', (s) => `${s} now constrains unevaluated items`);
  const [old, now] = [writer.doc.node(before.unevaluated), reader.doc.node(after.unevaluated)];
  if (before.unevaluated === undefined) return [now.kind === 'false' ? removed : narrowed];
  if (old.kind === 'false' || now.kind === 'empty') return [];
  if (now.kind === 'false') return [removed];
  if (old.kind === 'empty') return [narrowed];
  return under('[*]', compare(old, now));
}

function isOpen(node: ArrayNode, items: Items): boolean {
  return items.rest === true && (items.unevaluated === undefined || node.doc.node(items.unevaluated).kind === 'empty');
}

function partialSchema(node: ArrayNode, items: Items): SchemaNode | undefined {
  if (isRaw(items.rest)) return node.doc.node(items.rest);
  if (items.rest === false || items.unevaluated === undefined) return undefined;
  const unevaluated = node.doc.node(items.unevaluated);
  return unevaluated.kind === 'false' || unevaluated.kind === 'empty' ? undefined : unevaluated;
}
