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

export function commonFields(row: Row): Record<string, unknown> {
  return {
    uid: row.uid,
    created_at: timestamp(row.createdAt),
    modified_at: timestamp(row.modifiedAt),
    created_by: row.createdBy ?? null,
    modified_by: row.modifiedBy ?? null,
  };
}

export const itemHref = (base: string, collection: string, uid: string) => `${base}/${collection}/${uid}`;
