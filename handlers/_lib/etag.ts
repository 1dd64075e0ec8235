/** ETag from the version column; If-Match → 412, If-None-Match / If-Modified-Since → 304 (docs/contract.md §3.6). */
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { PreconditionFailedError } from '../../core/errors';

export const etagOf = (row: Row) => `"${row.version ?? 0}"`;

/**
 * `Cache-Control: private, no-cache`: an item answers `Last-Modified`, from which a browser would otherwise reuse
 * it for a while without asking (heuristic freshness) and show a change only later; it asks each time instead,
 * and an unchanged item costs a 304.
 */
export function validatorHeaders(row: Row): Record<string, string> {
  const headers: Record<string, string> = { ETag: etagOf(row), 'Cache-Control': 'private, no-cache' };
  if (row.modifiedAt) headers['Last-Modified'] = new Date(row.modifiedAt).toUTCString();
  return headers;
}

const tags = (header: unknown) => String(header).split(',').map((t) => t.trim().replace(/^W\//, ''));

export function checkIfMatch(ctx: RequestContext, row: Row): void {
  const header = ctx.headers['if-match'];
  if (header === undefined || header === '') return;
  const list = tags(header);
  if (!list.includes('*') && !list.includes(etagOf(row))) throw new PreconditionFailedError();
}

/** Whether `If-None-Match` names the ETag (or `*`); null when the request has none. */
export function noneMatch(ctx: RequestContext, etag: string): boolean | null {
  const none = ctx.headers['if-none-match'];
  if (none === undefined || none === '') return null;
  const list = tags(none);
  return list.includes('*') || list.includes(etag);
}

export function notModified(ctx: RequestContext, row: Row): boolean {
  const matched = noneMatch(ctx, etagOf(row));
  if (matched !== null) return matched;
  const since = ctx.headers['if-modified-since'];
  if (typeof since === 'string' && row.modifiedAt) {
    const t = Date.parse(since);
    return !Number.isNaN(t) && Math.floor(new Date(row.modifiedAt).getTime() / 1000) <= Math.floor(t / 1000);
  }
  return false;
}
