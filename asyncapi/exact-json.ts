/**
 * Schema texts hold numbers (Avro defaults, JSON Schema bounds) that a JavaScript number would round. They are
 * parsed so that every number a double holds exactly stays a number and every other one keeps its digits, and the
 * YAML writer prints those digits unchanged: the document never shows a value the user did not write.
 */
import { isSafeNumber, parse } from 'lossless-json';

/** A JSON number a double cannot hold exactly, kept as its text. */
export class ExactNumber {
  constructor(readonly text: string) {}
}

/** A JSON object (not an array, not an exact number). */
export const isJsonObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ExactNumber);

export function parseExactJson(text: string): unknown {
  return parse(text, null, (digits) => (isSafeNumber(digits) ? Number(digits) : new ExactNumber(digits)));
}

/** An integer from its decimal text (validated elsewhere), exact whatever its size. */
export function exactInteger(digits: string): number | ExactNumber {
  return isSafeNumber(digits) ? Number(digits) : new ExactNumber(digits);
}
