/** How a grant's end shows on every form of the grant (HAL item, plain reply, search item, embedded). */
import type { Row } from '../../models/define';
import { grantInEffect } from '../../core/rules/grant-state';

/** An end instant in full (ISO-8601, UTC, milliseconds): the §3.2 whole-second form would round an end. */
export const instant = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

/** A grant's `approved`: Approved and in effect now (core/rules/grant-state), as the graphs draw it. */
export const inEffect = (row: Row) => grantInEffect({ status: row.status, expiresAt: row.expiresAt ?? null }, new Date());
