/** HAL building blocks: links, timestamps, common fields. */
import type { Row } from './row';

export interface Link { href: string; templated?: boolean }

export const link = (href: string, templated = false): Link => (templated ? { href, templated: true } : { href });

/** Timestamps are UTC `yyyy-mm-ddThh:mm:ss` (docs/contract.md §3). */
export function timestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 19);
}

/** The fields every resource shows (uid, timestamps, authors), written into `out` (a new object unless given). */
export function commonFields(row: Row, out: Record<string, unknown> = {}): Record<string, unknown> {
  out.uid = row.uid;
  out.created_at = timestamp(row.createdAt);
  out.modified_at = timestamp(row.modifiedAt);
  out.created_by = row.createdBy ?? null;
  out.modified_by = row.modifiedBy ?? null;
  return out;
}

export const itemHref = (base: string, collection: string, uid: string) => `${base}/${collection}/${uid}`;
