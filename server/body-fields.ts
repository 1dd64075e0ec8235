/**
 * Unknown body fields made visible (docs/contract.md §1.5): named in `Ignored-Fields`, or, under
 * `Prefer: handling=strict`, refused as validation errors. `Preference-Applied` echoes the handling asked for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorObject } from 'ajv';
import type { Schema } from '../core/spec';
import { handlingOf } from './prefer';
import { ignoredFieldsHeader, unknownFields, type FieldPath } from './unknown-fields';

const pointer = (path: FieldPath) => path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * Checks a body read for an operation that declares one. Returns the refusals for the validator's errors (strict
 * handling and unknown fields), else undefined; the refusals then come where validation errors come (after the
 * target's 404, 403 and 412), in the same body.
 */
export function checkBodyFields(req: IncomingMessage, res: ServerResponse, schema: Schema | undefined, body: unknown): ErrorObject[] | undefined {
  const handling = handlingOf(req.headers.prefer);
  if (handling) res.setHeader('Preference-Applied', `handling=${handling}`);
  const unknown = unknownFields(schema, body);
  if (unknown.length === 0) return undefined;
  if (handling !== 'strict') {
    res.setHeader('Ignored-Fields', ignoredFieldsHeader(unknown));
    return undefined;
  }
  return unknown.map((path) => ({
    keyword: 'unknownField', instancePath: `/requestBody${pointer(path)}`, schemaPath: '', params: {}, message: 'unknown field',
  }));
}
