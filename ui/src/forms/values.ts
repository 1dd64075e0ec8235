/**
 * What a form holds and how its text becomes a request body. A form keeps what the person typed, exactly; turning it
 * into a body never alters a value: text the body cannot carry (a number that is not one) is refused here with a
 * message naming the field, in the shape of the API's own sub-errors, so both appear in the same place.
 */

export type Value = string | boolean | string[];
export type Values = Record<string, Value>;

/** A field's refusal, before any request: shown exactly like the §7 body's sub-errors. */
export class FormRefusal extends Error {
  constructor(readonly subErrors: { field: string; message: string }[]) {
    super('Some fields need another value');
  }
}

export function textOf(values: Values, field: string): string {
  const v = values[field];
  return typeof v === 'string' ? v : '';
}

export function listOf(values: Values, field: string): string[] {
  const v = values[field];
  return Array.isArray(v) ? v : [];
}

export function flagOf(values: Values, field: string): boolean {
  return values[field] === true;
}

/** Text as typed, or null when the person left it empty (an optional field cleared). */
export function optionalText(values: Values, field: string): string | null {
  const v = textOf(values, field);
  return v.trim() === '' ? null : v;
}

/**
 * A whole number typed in a field, or undefined when empty. Anything else (`12a`, `1.5`, `1e3`) is refused rather
 * than rounded or cut: the API never sees a value the person did not type.
 */
export function wholeNumber(values: Values, field: string, label: string): number | undefined {
  const v = textOf(values, field).trim();
  if (v === '') return undefined;
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
    throw new FormRefusal([{ field, message: `${label} must be a whole number; "${v}" is not one` }]);
  }
  return Number(v);
}

/** One entry per non-empty line (bootstrap servers, URLs), each trimmed. */
export function lines(values: Values, field: string): string[] {
  return textOf(values, field).split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** The fields whose value differs from what was loaded: a PATCH sends only what the person changed. */
export function changedFields(loaded: Values, now: Values): Set<string> {
  const changed = new Set<string>();
  for (const field of new Set([...Object.keys(loaded), ...Object.keys(now)])) {
    if (JSON.stringify(loaded[field] ?? null) !== JSON.stringify(now[field] ?? null)) changed.add(field);
  }
  return changed;
}

/** `body` with only the keys in `fields` (the changed ones): a PATCH that leaves the rest as it is. */
export function only<T extends object>(body: T, fields: Set<string>): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => fields.has(k))) as Partial<T>;
}

/**
 * "line 3, column 12: …" at the start of a parser's message (the API's schema checks say where the text breaks):
 * the position, so the editor can put the cursor there.
 */
export function positionOf(message: string): { line: number; column: number } | undefined {
  const match = /^(?:[A-Za-z]+: )?line (\d+)(?:, column (\d+))?:/.exec(message);
  return match ? { line: Number(match[1]), column: match[2] ? Number(match[2]) : 1 } : undefined;
}

/** The character offset of a 1-based line and column in `text`, clamped to the text. */
export function offsetOf(text: string, { line, column }: { line: number; column: number }): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return Math.min(offset + column - 1, end === -1 ? text.length : end);
}
