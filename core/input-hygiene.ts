/**
 * Input that a database or JSON cannot keep exactly is refused before anything reads it, so a value is either
 * stored as sent or refused with 400 naming the field — the same on every database:
 * - NUL characters (PostgreSQL text cannot hold them; the drivers differ in what they do instead),
 * - unpaired UTF-16 surrogates (not Unicode; UTF-8 columns would keep U+FFFD instead),
 * - numbers a double cannot hold exactly (`1e309` → Infinity → null, `9007199254740993` → …992),
 * - nesting deeper than any document of this API (walks elsewhere recurse).
 */
import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import type { SubError } from './errors';

export const MAX_DEPTH = 64;

const SURROGATE = /\p{Cs}/u;

/** Why a string cannot be kept exactly, or null. */
export function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (SURROGATE.test(s)) return 'must not contain unpaired surrogates (not valid Unicode)';
  return null;
}

/** Whether a JSON number literal reads back as written: exact as a double, integers within ±(2^53 − 1). */
export function isExactNumber(literal: string): boolean {
  if (!isSafeNumber(literal)) return false;
  const value = Number(literal);
  return !Number.isInteger(value) || Number.isSafeInteger(value);
}

const NUMBER_MESSAGE = 'must be a number a double holds exactly (integers within ±9007199254740991)';
const TOO_DEEP = `must not nest deeper than ${MAX_DEPTH} levels`;

/** `a`, `a.b`, `a[1]` — the notation of validation errors. */
function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Strings, keys and depth of a parsed JSON value; `root` names the value itself (e.g. a query parameter). */
export function valueProblems(value: unknown, root = ''): SubError[] {
  const problems: SubError[] = [];
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const p = stringProblem(v);
      if (p) problems.push({ field: path || 'body', message: p });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      problems.push({ field: path || 'body', message: TOO_DEEP });
      continue;
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, x] = entries[i];
      if (typeof key === 'string') {
        const p = stringProblem(key);
        if (p) { problems.push({ field: child(path, key), message: `field name ${p}` }); continue; }
      }
      stack.push([x, child(path, key), depth + 1]);
    }
  }
  return problems;
}

/**
 * Number literals of a JSON text that would not read back as written. The fast path scans the literals of an
 * already parsed text (strings are skipped whole); only when one is inexact is the text parsed again, losslessly,
 * to name the fields.
 */
export function numberProblems(text: string): SubError[] {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  let inexact = false;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    if (m[0].charCodeAt(0) !== 34 && !isExactNumber(m[0])) { inexact = true; break; }
  }
  if (!inexact) return [];
  const problems: SubError[] = [];
  const stack: Array<[unknown, string, number]> = [[parseLossless(text), '', 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) continue;
    if ((v as { isLosslessNumber?: boolean }).isLosslessNumber) {
      const literal = String((v as { value: string }).value);
      if (!isExactNumber(literal)) problems.push({ field: path || 'body', message: NUMBER_MESSAGE, rejectedValue: literal });
      continue;
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [key, x] of entries) stack.push([x, child(path, key), depth + 1]);
  }
  return problems.sort((a, b) => a.field.localeCompare(b.field));
}

/** Every reason a parsed JSON body cannot be kept exactly; its numbers are re-read only at a sane depth. */
export function jsonProblems(value: unknown, text: string): SubError[] {
  const problems = valueProblems(value);
  return problems.some((p) => p.message === TOO_DEEP) ? problems : [...problems, ...numberProblems(text)];
}
