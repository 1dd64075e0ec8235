/**
 * JSON text handling shared by the AVRO and JSON_SCHEMA parsers: parse with JSON.parse (so key order and numbers
 * behave exactly as the normalised output expects) and, on failure, turn the error into `line L, column C: …`.
 */
import { parse as parseLosslessly } from 'lossless-json';
import { SchemaParseError, type SchemaType } from './types';

const POSITION = /\s*(?:in JSON\s+)?at position (\d+)(?:\s*\(line \d+ column \d+\))?/;

export function parseJsonText(schemaType: SchemaType, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SchemaParseError(schemaType, [describeJsonError(text, (error as Error).message)]);
  }
}

/** Re-serialises with 2-space indentation; JSON.parse keeps key order, which is what the contract asks for. */
export function normaliseJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** 1-based line and column of a character offset, the way editors count them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

function describeJsonError(text: string, nativeMessage: string): string {
  const native = located(text, nativeMessage);
  if (native) return native;
  // V8 omits the position for "Unexpected token" and "end of input" errors; lossless-json always reports one,
  // so its message (which then matches the position) is used instead.
  try {
    parseLosslessly(text);
  } catch (error) {
    const lossless = located(text, (error as Error).message);
    if (lossless) return lossless;
  }
  return `invalid JSON: ${nativeMessage}`;
}

function located(text: string, message: string): string | undefined {
  const match = POSITION.exec(message);
  if (!match) return undefined;
  const { line, column } = lineColumn(text, Number(match[1]));
  const bare = message.replace(POSITION, '').replace(/,\s*".*" is not valid JSON$/s, '').trim();
  return `line ${line}, column ${column}: invalid JSON: ${bare}`;
}
