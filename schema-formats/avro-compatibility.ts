/**
 * AVRO compatibility of two versions. The judgement of one pair is Avro schema resolution as the specification
 * states it (avro-resolution.ts); the backward check ("new reader, old data") is that judgement with the new
 * version reading, its reasons as sentences for the 422 body.
 */
import type avsc from 'avsc';
import { avroReadProblems } from './avro-resolution';

export { avroReadProblems } from './avro-resolution';
export { AVRO_RULES, type AvroRule } from './avro-problems';

/** [] when `newType` can read data written with `oldType`; else every reason, field paths included. */
export function avroBackwardProblems(oldType: avsc.Type, newType: avsc.Type): string[] {
  return avroReadProblems(newType, oldType).map((p) => p.message);
}
