/**
 * Buf's WIRE rules that guard a lineage of versions rather than one reader/writer pair: a field or enum value
 * deleted from `current` must have its number reserved, and what `previous` reserved stays reserved. No bytes
 * written with `previous` become unreadable by `current` when they break; what breaks is the next version that
 * reuses the number with another type, against data still written with `previous`. So these rules take the
 * order of versions (`previous` → `current`), which a reader/writer judgement does not know.
 */
import type * as protobuf from 'protobufjs';
import type { Incompatibility } from './compatibility-modes';
import * as problems from './protobuf-problems';
import { protoFile, type ProtoEnum, type ProtoMessage, type Reserved } from './protobuf-shapes';

export function protobufEvolutionProblems(previous: protobuf.Root, current: protobuf.Root): Incompatibility[] {
  const before = protoFile(previous);
  const after = protoFile(current);
  const found: Incompatibility[] = [];
  for (const message of before.messages.values()) {
    const now = after.messages.get(message.name);
    if (now) found.push(...deletedFields(message, now), ...reservedDeleted(message.reserved, now, 'message'));
  }
  for (const enumType of before.enums.values()) {
    const now = after.enums.get(enumType.name);
    if (now) found.push(...deletedValues(enumType, now), ...reservedDeleted(enumType.reserved, now, 'enum'));
  }
  return found;
}

function deletedFields(previous: ProtoMessage, current: ProtoMessage): Incompatibility[] {
  const reserved = sortedRanges(current.reserved);
  return [...previous.fields.values()]
    .filter((field) => !current.fields.has(field.number) && !covered(field.number, field.number, reserved))
    .map((field) => problems.fieldDeletedUnreserved(current, field));
}

function deletedValues(previous: ProtoEnum, current: ProtoEnum): Incompatibility[] {
  const kept = new Set(current.values.values());
  const reserved = sortedRanges(current.reserved);
  const deleted = new Map<number, string[]>();
  for (const [name, number] of previous.values) {
    if (!kept.has(number) && !covered(number, number, reserved)) deleted.set(number, [...(deleted.get(number) ?? []), name]);
  }
  return [...deleted].map(([number, names]) => problems.enumValueDeletedUnreserved(current.fullName, number, names));
}

/** Buf's RESERVED_*_NO_DELETE: every number and name `previous` reserved is still reserved (ranges may merge). */
function reservedDeleted(previous: Reserved, current: ProtoMessage | ProtoEnum, kind: 'message' | 'enum'): Incompatibility[] {
  const reserved = sortedRanges(current.reserved);
  const ranges = previous.ranges
    .filter(([start, end]) => !covered(start, end, reserved))
    .map(([start, end]) => (start === end ? `number ${start}` : `range ${start} to ${end}`));
  const kept = new Set(current.reserved.names);
  const names = previous.names.filter((name) => !kept.has(name)).map((name) => `name '${name}'`);
  return [...ranges, ...names].map((what) => problems.reservedDeleted(current, kind, what));
}

/** Reserved ranges merged where they overlap or touch, in order: each number then needs one binary search. */
function sortedRanges(reserved: Reserved): [number, number][] {
  const merged: [number, number][] = [];
  for (const [from, to] of [...reserved.ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Whether `start`..`end` lies within one of `ranges` (merged and sorted, so adjacent ranges count as one). */
function covered(start: number, end: number, ranges: [number, number][]): boolean {
  let [low, high] = [0, ranges.length - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [from, to] = ranges[middle]!;
    if (start < from) high = middle - 1;
    else if (start > to) low = middle + 1;
    else return end <= to;
  }
  return false;
}
