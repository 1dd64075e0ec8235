/** Turns ajv errors from request validation into the §7 body: one `<field>: <problem>` per violation. */
import type { ErrorObject } from 'ajv';
import { BadBodyError, BadRequestError, type HttpError, type SubError } from '../core/errors';

const SECRET_FIELD = /password|secret|token|private[-_]?key/i;

/** `/requestBody/viewers/1` → `viewers[1]`; `/requestBody/properties/segment.ms` → `properties.segment.ms`. */
export function fieldPath(instancePath: string, missing?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  // A repeated query parameter (sort=…&sort=…) is named as the parameter, not by its position.
  if (parts[0] === 'query') parts.splice(2);
  if (['requestBody', 'query', 'path', 'header', 'params'].includes(parts[0])) parts.shift();
  if (missing !== undefined) parts.push(missing);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc === '' ? p : `${acc}.${p}`), '');
}

function problem(e: ErrorObject, value: unknown): string {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'required': return 'is required';
    case 'type': return value === null ? 'must not be null' : `must be ${Array.isArray(p.type) ? p.type.join(' or ') : p.type}`;
    case 'minLength': return p.limit === 1 && value === '' ? 'must not be blank' : `size must be at least ${p.limit}`;
    case 'maxLength': return `size must be at most ${p.limit}`;
    case 'minItems': return `must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems': return `must have at most ${p.limit} items`;
    case 'pattern': return `must match "${p.pattern}"`;
    case 'enum': return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'minimum': return `must be greater than or equal to ${p.limit}`;
    case 'maximum': return `must be less than or equal to ${p.limit}`;
    case 'format': return `must be a valid ${p.format}`;
    case 'additionalProperties': return `unknown field ${p.additionalProperty}`;
    default: return e.message ?? 'is invalid';
  }
}

/**
 * `null` at a reference the document does not let be null (`Reference`, marked `x-reference`) reads as an absent
 * one: `<field>: is required` (docs/contract.md §4.1), with no rejected value, as the handlers said before the
 * document refused it. Needs ajv's `verbose` (the failing schema on the error).
 */
const isNullReference = (e: ErrorObject, value: unknown): boolean =>
  e.keyword === 'type' && value === null && (e.parentSchema as Record<string, unknown> | undefined)?.['x-reference'] === true;

function valueAt(root: Record<string, unknown>, instancePath: string): unknown {
  return instancePath.split('/').slice(1).reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as any)[k.replace(/~1/g, '/')] : undefined), root);
}

/**
 * In a oneOf/anyOf, the branch whose type fits says more than "must be <type>" from the others (a role given as
 * `{"name": "NOPE"}` is about the name, not about not being a string): such a type error is dropped when another
 * error was found at the same place or inside it.
 */
function supersededTypeError(e: ErrorObject, all: ErrorObject[]): boolean {
  if (e.keyword !== 'type') return false;
  return all.some((o) => o !== e && o.keyword !== 'type' && o.keyword !== 'oneOf' && o.keyword !== 'anyOf'
    && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)));
}

export function toValidationError(errors: ErrorObject[], request: Record<string, unknown>): HttpError {
  const bodyMissing = errors.some((e) => e.keyword === 'parse' || (e.keyword === 'required' && e.instancePath === '' && (e.params as any).missingProperty === 'requestBody'))
    || errors.some((e) => e.instancePath === '/requestBody' && e.keyword === 'type');
  if (bodyMissing) return new BadBodyError();
  // oneOf/anyOf report every branch; the branch errors say more than the summary, and repeat per branch.
  const seen = new Set<string>();
  const subErrors: SubError[] = [];
  for (const e of errors.filter((x) => !supersededTypeError(x, errors))) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const field = fieldPath(e.instancePath, e.keyword === 'required' ? (e.params as any).missingProperty : undefined);
    const value = e.keyword === 'required' ? undefined : valueAt(request, e.instancePath);
    const absent = e.keyword === 'required' || isNullReference(e, value);
    const message = absent ? 'is required' : problem(e, value);
    if (seen.has(field)) continue;
    seen.add(field);
    const sub: SubError = { field, message };
    if (!absent && !SECRET_FIELD.test(field)) sub.rejectedValue = value ?? null;
    subErrors.push(sub);
  }
  if (subErrors.length === 0) return new BadRequestError(['Request is invalid']);
  return new BadRequestError(subErrors.map((s) => `${s.field}: ${s.message}`), subErrors);
}
