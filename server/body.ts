/**
 * Reads a request body for an operation that declares one. The order of failures follows docs/contract.md §2:
 * unsupported media type (415), then too large (413), then unparsable (400).
 */
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import contentType from 'content-type';
import { BadBodyError, BadRequestError, HttpError, type SubError } from '../core/errors';
import { jsonProblems, stringProblem } from '../core/input-hygiene';

export interface ParsedBody { body: unknown; mediaType: string | undefined }

const isJsonType = (t: string) => t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The media type the operation will treat the body as, or 415. A body without Content-Type is JSON. */
export function acceptedMediaType(req: IncomingMessage, declared: string[]): string {
  let type = 'application/json';
  const header = req.headers['content-type'];
  if (header) {
    try { type = contentType.parse(header).type.toLowerCase(); } catch { type = header.toLowerCase(); }
  }
  const ok = declared.includes(type) || (isJsonType(type) && declared.some(isJsonType));
  if (!ok) {
    throw new HttpError(415, 'Unsupported media type', [`Content type '${type}' is not supported; use ${declared.join(' or ')}`]);
  }
  return type;
}

export async function readBody(req: IncomingMessage, declared: string[], limit: number): Promise<ParsedBody> {
  if (!hasBody(req)) return { body: undefined, mediaType: undefined };
  const mediaType = acceptedMediaType(req, declared);
  let bytes: Buffer;
  try {
    bytes = await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (e) {
    const err = e as { type?: string };
    if (err.type === 'entity.too.large') throw new HttpError(413, 'Payload too large', [`Request body exceeds ${limit} bytes`]);
    throw new BadBodyError();
  }
  let raw: string;
  try {
    // Fatal: bytes that are not UTF-8 are refused, not replaced by U+FFFD.
    raw = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BadBodyError();
  }
  if (mediaType === 'text/uri-list') {
    const uris = raw.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    refuseIf(uris.flatMap((u, i) => {
      const p = stringProblem(u);
      return p ? [{ field: `body[${i}]`, message: p }] : [];
    }));
    return { body: uris, mediaType };
  }
  if (raw.trim() === '') return { body: undefined, mediaType };
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new BadBodyError();
  }
  refuseIf(jsonProblems(body, raw));
  return { body, mediaType };
}

function refuseIf(problems: SubError[]): void {
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
}

/** Drains a body the operation does not use (e.g. DELETE with a body), so the connection stays usable. */
export async function discardBody(req: IncomingMessage, limit: number): Promise<void> {
  if (!hasBody(req)) return;
  try { await getRawBody(req, { limit }); } catch (e) {
    if ((e as { type?: string }).type === 'entity.too.large') throw new HttpError(413, 'Payload too large', [`Request body exceeds ${limit} bytes`]);
  }
}
