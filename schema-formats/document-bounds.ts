/**
 * Bounds on an uploaded schema document and on one compatibility judgement. The parsers (avsc, protobufjs, ajv) and
 * the judgements recurse once per level of nesting, protobufjs spends time squared in the fields of one message,
 * ajv in the values of one `enum` and in the `$ref` targets of a document, avsc compiles code for every named type,
 * and a judgement pairs every combinator branch with every branch of the other side; so a document past these
 * bounds is refused (SchemaParseError, a 400) before any of that work starts. Schemas written by hand or generated
 * from a data model stay well inside them, and at each bound the recursion still has several times the stack it
 * needs. The text is checked here; what needs the parsed JSON (or the avsc types, with named types written out where
 * they are used) in parsed-bounds.ts.
 *
 * What only pathological pairs of versions reach is bounded inside the judgement: how deep it follows two recursive
 * schemas into each other, how many steps it takes, how many problems it lists. Where it stops, that counts as a
 * problem, so a version it could not judge completely is never taken as compatible. Pure.
 */
import type { Incompatibility } from './compatibility-modes';
import { lineColumn } from './json-text';
import { SchemaParseError, type SchemaType } from './types';

/**
 * Levels of `{` and `[` (AVRO, JSON_SCHEMA; PROTOBUF: `{`) a text may nest, outside strings and comments. The same
 * count applies with references written out: an Avro named type where it is used, a JSON Schema `$ref` as the schema
 * it points to. PROTOBUF's is protoc's own limit on nested messages, which protobufjs enforces too.
 */
export const MAX_NESTING: Readonly<Record<SchemaType, number>> = { AVRO: 256, JSON_SCHEMA: 64, PROTOBUF: 32 };

/** Branches of one Avro union or JSON Schema `oneOf`/`anyOf`/`allOf`: a judgement tries each against each. */
export const MAX_BRANCHES = 100;

/** Values of one JSON Schema `enum`: ajv's checks of an `enum` take time squared in its values. */
export const MAX_ENUM_VALUES = 1000;

/** Different `$ref` targets of one JSON Schema document: ajv compiles each apart, in time squared in their number. */
export const MAX_REF_TARGETS = 1000;

/** Named types (records, enums, fixed) of one Avro document: avsc compiles code for each. */
export const MAX_NAMED_TYPES = 1000;

/** Statements ending in `;` (fields, options, reserved) in one Protobuf message, its oneofs' included. */
export const MAX_MESSAGE_STATEMENTS = 500;

/** Text of earlier versions one judgement reads (a transitive mode reads every earlier version), in characters. */
export const MAX_JUDGED_TEXT = 8 * 1024 * 1024;

/** Pairs of types one judgement follows into each other before it stops; only recursive schemas can go this deep. */
export const MAX_JUDGED_DEPTH = 256;

/** Problems one judgement of a pair lists; shared definitions used in many places can otherwise multiply them. */
export const MAX_LISTED_PROBLEMS = 1000;

/**
 * Steps one judgement (a candidate against every version its mode names, both ways) takes: each pair of types
 * compared counts one, and one more for each problem it passes up. Nested combinators and definitions shared by
 * many properties multiply the pairs to compare; past this many, what is left is not judged.
 */
export const MAX_JUDGED_STEPS = 500_000;

/** The steps a judgement has left; one budget is shared by every pair of the judgement. */
export interface JudgementBudget {
  steps: number;
}

export const judgementBudget = (): JudgementBudget => ({ steps: MAX_JUDGED_STEPS });

/**
 * Reasons one JSON_SCHEMA problem gives for a combinator branch no branch reads: explanations nest, and inside shared
 * definitions the same explanation recurs under every property that uses them, so without a bound they multiply.
 */
export const MAX_REASONS = 100;

/** Values (enum values, symbols) one problem names; past that it says how many more there are. */
export const MAX_NAMED_VALUES = 20;

const MIB = 1024 * 1024;

/** Throws SchemaParseError when `text` is past a bound of its type; linear in the text, before any parser runs. */
export function checkText(text: string, type: SchemaType): void {
  const past = type === 'PROTOBUF' ? protobufPastBounds(text) : jsonPastBound(text, MAX_NESTING[type]);
  if (!past) return;
  const { line, column } = lineColumn(text, past.offset);
  throw new SchemaParseError(type, [`line ${line}, column ${column}: ${past.problem}`]);
}

interface Past {
  offset: number;
  problem: string;
}

const tooDeep = (offset: number, bound: number, brackets: string): Past => ({ offset, problem: `nesting deeper than ${bound} levels of ${brackets}` });

/** The first `{` or `[` past `bound` levels, outside JSON strings. */
function jsonPastBound(text: string, bound: number): Past | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i, '"');
    else if (c === '{' || c === '[') {
      if (++depth > bound) return tooDeep(i, bound, "'{' and '['");
    } else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

/** A block of a .proto file: a message (its fields count), a oneof (its fields count for its message), or other. */
interface Block {
  kind: 'message' | 'oneof' | 'other';
  name: string;
  statements: number;
}

/**
 * The first `{` past the nesting bound, or `;` past the statements of one message, outside .proto strings and
 * comments. The words a statement starts with tell what a block is: `message Name {`, `oneof name {`,
 * `optional group Name = 1 {`, `extend Name {` hold fields; `enum`, `service`, `rpc` and option values do not.
 */
function protobufPastBounds(text: string): Past | undefined {
  const blocks: Block[] = [];
  let words: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") i = stringEnd(text, i, c);
    else if (c === '/' && text[i + 1] === '/') i = endOf(text.indexOf('\n', i), text);
    else if (c === '/' && text[i + 1] === '*') i = endOf(text.indexOf('*/', i + 2) + 1, text);
    else if (IDENTIFIER_START.test(c)) {
      const end = identifierEnd(text, i);
      if (words.length < 3) words.push(text.slice(i, end));
      i = end - 1;
    } else if (c === '{') {
      if (blocks.length === MAX_NESTING.PROTOBUF) return tooDeep(i, MAX_NESTING.PROTOBUF, "'{'");
      blocks.push(blockOf(words));
      words = [];
    } else if (c === '}') {
      blocks.pop();
      words = [];
    } else if (c === ';') {
      const message = owner(blocks);
      if (message?.kind === 'message' && ++message.statements > MAX_MESSAGE_STATEMENTS) {
        return { offset: i, problem: `message ${message.name} has more than ${MAX_MESSAGE_STATEMENTS} fields, options and reserved statements` };
      }
      words = [];
    }
  }
  return undefined;
}

/** The innermost block that is not a oneof: a oneof's fields are its message's. */
function owner(blocks: Block[]): Block | undefined {
  for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.kind !== 'oneof') return blocks[i];
  return undefined;
}

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[\w.]/;

function identifierEnd(text: string, start: number): number {
  let end = start + 1;
  while (end < text.length && IDENTIFIER_PART.test(text[end]!)) end++;
  return end;
}

function blockOf(words: string[]): Block {
  const [first, second] = words;
  if (first === 'message' || first === 'extend') return { kind: 'message', name: second ?? '', statements: 0 };
  if (first === 'oneof') return { kind: 'oneof', name: second ?? '', statements: 0 };
  const group = words.indexOf('group');
  if (group >= 0) return { kind: 'message', name: words[group + 1] ?? '', statements: 0 };
  return { kind: 'other', name: first ?? '', statements: 0 };
}

/** The offset of the quote closing the string opened at `start` (or the text's end: the parser reports that). */
function stringEnd(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

const endOf = (found: number, text: string) => (found < 0 ? text.length : found);

/**
 * `names` for a problem's sentence: a definition with many values, shared by many fields, would otherwise repeat all
 * of them in the problem of every field.
 */
export function someOf(names: string[]): string {
  if (names.length <= MAX_NAMED_VALUES) return names.join(', ');
  return `${names.slice(0, MAX_NAMED_VALUES).join(', ')} and ${names.length - MAX_NAMED_VALUES} more`;
}

/** Why one judgement would read too much text of earlier versions (their lengths), or undefined. */
export function judgedTextTooLarge(lengths: number[]): string | undefined {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total <= MAX_JUDGED_TEXT) return undefined;
  // Rounded up, so a total just past the bound never reads as equal to it.
  const mib = (Math.ceil((total / MIB) * 10) / 10).toFixed(1);
  return `the versions to judge against total ${mib} MiB, more than the ${MAX_JUDGED_TEXT / MIB} MiB one judgement reads`;
}

/** What a judgement says where it stops following two versions into each other (`subject`: what it stops at). */
export function notJudgedFurther(subject: string): string {
  return `${subject} is not judged further: the two versions nest into each other deeper than ${MAX_JUDGED_DEPTH} levels there`;
}

export const NOT_JUDGED_RULE = 'NESTING_TOO_DEEP_TO_JUDGE';

/** Where a judgement stops following two versions into each other; counted as a problem, since nothing below is known. */
export function notJudgedDeeper(path: string): Incompatibility {
  return { path, rule: NOT_JUDGED_RULE, message: notJudgedFurther(path ? `field '${path}'` : 'the schema') };
}

export const TOO_LARGE_RULE = 'TOO_LARGE_TO_JUDGE';

/** Ends the problems of a judgement that ran out of steps: since the rest is not known, it counts as a problem. */
export function notJudgedAll(): Incompatibility {
  return { path: '', rule: TOO_LARGE_RULE, message: `not judged completely: judging takes more than the ${MAX_JUDGED_STEPS} steps one judgement may take` };
}

export const NOT_LISTED_RULE = 'MORE_PROBLEMS_NOT_LISTED';

/** Ends a list cut at MAX_LISTED_PROBLEMS. */
export function problemsNotListed(): Incompatibility {
  return { path: '', rule: NOT_LISTED_RULE, message: `more than ${MAX_LISTED_PROBLEMS} problems; only the first ${MAX_LISTED_PROBLEMS} are listed` };
}

/** `problems`, cut after MAX_LISTED_PROBLEMS with problemsNotListed at the end. */
export function listed(problems: Incompatibility[]): Incompatibility[] {
  return problems.length > MAX_LISTED_PROBLEMS ? [...problems.slice(0, MAX_LISTED_PROBLEMS), problemsNotListed()] : problems;
}
