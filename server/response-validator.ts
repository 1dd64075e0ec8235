/**
 * Validates a response (a success, or an error: `errorProblems`) against the operation's declared response schema
 * (switched on in tests, so every integration test is also a contract test). openapi-backend only checks application/json bodies; our resources
 * are application/hal+json, so this uses ajv directly on the dereferenced schema.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { deref, operationById } from '../core/spec';

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'example' });
const cache = new Map<string, ValidateFunction | null>();

export function responseProblems(operationId: string, status: number, mediaType: string | undefined, body: unknown): string[] {
  const op = operationById(operationId);
  if (!op) return [`operation ${operationId} is not in the spec`];
  const responses = op.responses ?? {};
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!declared) return [`status ${status} is not declared for ${operationId}`];
  const response = deref(declared);
  if (body === undefined || body === null || status === 204 || status === 304) return [];
  const content = response.content ?? {};
  const type = mediaType ?? 'application/hal+json';
  if (!content[type]) return [`media type ${type} is not declared for ${operationId} ${status}`];
  const key = `${operationId} ${status} ${type}`;
  if (!cache.has(key)) cache.set(key, content[type].schema ? ajv.compile(content[type].schema) : null);
  const validate = cache.get(key);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * The problems of an error answer (server/error-body) for the operation it answers: a 4xx must be declared, and a
 * declared error's body must match its schema (ApiError). A 5xx is the service's failure, not a promise of the
 * document, so an undeclared one is not a problem here.
 */
export function errorProblems(operationId: string, status: number, body: unknown): string[] {
  if (status >= 500 && !isDeclared(operationId, status)) return [];
  return responseProblems(operationId, status, 'application/hal+json', body);
}

function isDeclared(operationId: string, status: number): boolean {
  const responses = operationById(operationId)?.responses ?? {};
  return String(status) in responses || `${String(status)[0]}XX` in responses || 'default' in responses;
}
