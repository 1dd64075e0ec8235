/**
 * Value rules of the JSON_SCHEMA judgement, named as Confluent names them: a reader bound tighter than the writer's
 * (`MAX_LENGTH_DECREASED`, `MINIMUM_INCREASED`, a bound added where there was none…), a pattern added or changed,
 * a coarser `multipleOf`, `number` narrowed to `integer`, an `enum` narrowed or changed, another `const`. Each of
 * these lets the writer produce a value the reader refuses. Pure.
 */
import { someOf } from './document-bounds';
import { canonicalJson, type Raw } from './json-schema-nodes';
import { finding, type Finding } from './json-schema-findings';

/** `upper`: the reader may lower it (maxLength); otherwise the reader may raise it (minLength). */
interface Limit { keyword: string; rule: string; upper: boolean }

const limit = (keyword: string, rule: string, upper: boolean): Limit => ({ keyword, rule, upper });
const LIMITS = {
  string: [limit('maxLength', 'MAX_LENGTH', true), limit('minLength', 'MIN_LENGTH', false)],
  number: [limit('maximum', 'MAXIMUM', true), limit('minimum', 'MINIMUM', false),
    limit('exclusiveMaximum', 'EXCLUSIVE_MAXIMUM', true), limit('exclusiveMinimum', 'EXCLUSIVE_MINIMUM', false)],
  object: [limit('maxProperties', 'MAX_PROPERTIES', true), limit('minProperties', 'MIN_PROPERTIES', false)],
  array: [limit('maxItems', 'MAX_ITEMS', true), limit('minItems', 'MIN_ITEMS', false),
    limit('maxContains', 'MAX_CONTAINS', true), limit('minContains', 'MIN_CONTAINS', false)],
};

export function limitFindings(kind: keyof typeof LIMITS, writer: Raw, reader: Raw): Finding[] {
  return LIMITS[kind].flatMap(({ keyword, rule, upper }) => {
    const before = numberOrUndefined(writer[keyword]);
    const after = numberOrUndefined(reader[keyword]);
    if (after === undefined) return [];
    if (before === undefined) {
      return [finding('', `${rule}_ADDED`, (s) => `${s} gained ${keyword} ${after}; the old schema had no such limit`)];
    }
    if (upper ? after < before : after > before) {
      const change = upper ? 'DECREASED' : 'INCREASED';
      return [finding('', `${rule}_${change}`, (s) => `${s} ${keyword} ${change.toLowerCase()} from ${before} to ${after}`)];
    }
    return [];
  });
}

export function stringFindings(writer: Raw, reader: Raw): Finding[] {
  const findings = limitFindings('string', writer, reader);
  const [before, after] = [writer.pattern, reader.pattern];
  if (typeof after === 'string' && typeof before !== 'string') {
    findings.push(finding('', 'PATTERN_ADDED', (s) => `${s} gained pattern ${JSON.stringify(after)}`));
  } else if (typeof after === 'string' && after !== before) {
    findings.push(finding('', 'PATTERN_CHANGED', (s) => `${s} pattern changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`));
  }
  return findings;
}

export function numberFindings(writer: Raw, reader: Raw, narrowedToInteger: boolean): Finding[] {
  const findings = [...limitFindings('number', writer, reader), ...multipleOfFindings(writer.multipleOf, reader.multipleOf)];
  if (narrowedToInteger) findings.push(finding('', 'TYPE_NARROWED', (s) => `${s} changed type from number to integer`));
  return findings;
}

/** A reader `multipleOf` that the writer's is not itself a multiple of refuses some written values. */
function multipleOfFindings(beforeValue: unknown, afterValue: unknown): Finding[] {
  const [before, after] = [numberOrUndefined(beforeValue), numberOrUndefined(afterValue)];
  if (after === undefined || (before !== undefined && sameDecimal(before, after))) return [];
  if (before === undefined) return [finding('', 'MULTIPLE_OF_ADDED', (s) => `${s} gained multipleOf ${after}`)];
  if (isMultiple(before, after)) return [];
  const rule = isMultiple(after, before) ? 'MULTIPLE_OF_EXPANDED' : 'MULTIPLE_OF_CHANGED';
  return [finding('', rule, (s) => `${s} multipleOf changed from ${before} to ${after}`)];
}

export function enumFindings(writerValues: unknown[], readerValues: unknown[]): Finding[] {
  const before = new Set(writerValues.map(canonicalJson));
  const after = new Set(readerValues.map(canonicalJson));
  const lost = [...before].filter((v) => !after.has(v));
  if (lost.length === 0) return [];
  const rule = [...after].every((v) => before.has(v)) ? 'ENUM_ARRAY_NARROWED' : 'ENUM_ARRAY_CHANGED';
  return [finding('', rule, (s) => `${s} no longer allows ${someOf(lost)}`)];
}

export function constFindings(before: unknown, after: unknown): Finding[] {
  if (canonicalJson(before) === canonicalJson(after)) return [];
  return [finding('', 'ENUM_ARRAY_CHANGED', (s) => `${s} const changed from ${canonicalJson(before)} to ${canonicalJson(after)}`)];
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Decimal, not binary, arithmetic: a schema author means 0.3 to be a multiple of 0.1. */
function isMultiple(value: number, of: number): boolean {
  const scale = 10 ** Math.max(decimals(value), decimals(of));
  const [a, b] = [Math.round(value * scale), Math.round(of * scale)];
  return b !== 0 && a % b === 0;
}

function sameDecimal(a: number, b: number): boolean {
  return isMultiple(a, b) && isMultiple(b, a);
}

function decimals(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.min(Math.max(fraction - Number(exponent), 0), 15);
}
