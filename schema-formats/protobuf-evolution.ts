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
  return [...previous.fields.values()]
    .filter((field) => !current.fields.has(field.number) && !isReserved(field.number, current.reserved))
    .map((field) => problems.fieldDeletedUnreserved(current, field));
}

function deletedValues(previous: ProtoEnum, current: ProtoEnum): Incompatibility[] {
  const kept = new Set(current.values.values());
  const deleted = new Map<number, string[]>();
  for (const [name, number] of previous.values) {
    if (!kept.has(number) && !isReserved(number, current.reserved)) deleted.set(number, [...(deleted.get(number) ?? []), name]);
  }
  return [...deleted].map(([number, names]) => problems.enumValueDeletedUnreserved(current.fullName, number, names));
}

/** Buf's RESERVED_*_NO_DELETE: every number and name `previous` reserved is still reserved (ranges may merge). */
function reservedDeleted(previous: Reserved, current: ProtoMessage | ProtoEnum, kind: 'message' | 'enum'): Incompatibility[] {
  const ranges = previous.ranges
    .filter(([start, end]) => !covered(start, end, current.reserved.ranges))
    .map(([start, end]) => (start === end ? `number ${start}` : `range ${start} to ${end}`));
  const names = previous.names.filter((name) => !current.reserved.names.includes(name)).map((name) => `name '${name}'`);
  return [...ranges, ...names].map((what) => problems.reservedDeleted(current, kind, what));
}

const isReserved = (number: number, reserved: Reserved) => covered(number, number, reserved.ranges);

/** Whether `start`..`end` lies within the union of `ranges`, adjacent ranges counting as one. */
function covered(start: number, end: number, ranges: [number, number][]): boolean {
  let next = start;
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (from > next) break;
    if (to >= next) next = to + 1;
    if (next > end) return true;
  }
  return next > end;
}
