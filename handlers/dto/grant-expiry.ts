/** How a grant's end shows on every form of the grant (HAL item, plain reply, search item, embedded). */
import type { Row } from '../../models/define';
import { hasExpired } from '../../core/rules/access-duration';

/** An end instant in full (ISO-8601, UTC, milliseconds): the §3.2 whole-second form would round an end. */
export const instant = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

/** Approved and in effect: an Approved grant past its `expiresAt` gives no access, even before the sweep revoked it. */
export const inEffect = (row: Row) => row.status === 'Approved' && !hasExpired(row.expiresAt as Date | null, new Date());
