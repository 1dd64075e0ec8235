/**
 * A grant's state as a person reads it: the API's status, with "Rejected" said as "Denied" and a grant whose end has
 * passed as "Expired", whether the service's sweep has revoked it yet (reason `expired`) or not.
 */
export type ShownStatus = 'Pending' | 'Approved' | 'Expired' | 'Denied' | 'Revoked' | 'Cancelled';

export interface GrantLike { status: string; expiresAt?: string | null; comment?: string | null }

/** The reason the service gives a grant it revokes at its end (models/grant-expiry.ts). */
const EXPIRY_REASON = 'expired';

export function shownStatus(grant: GrantLike, now: number = Date.now()): ShownStatus {
  switch (grant.status) {
    case 'Approved': {
      const end = grant.expiresAt ? Date.parse(grant.expiresAt) : NaN;
      return Number.isFinite(end) && end <= now ? 'Expired' : 'Approved';
    }
    case 'Revoked': return grant.comment === EXPIRY_REASON ? 'Expired' : 'Revoked';
    case 'Rejected': return 'Denied';
    case 'Pending': return 'Pending';
    case 'Cancelled': return 'Cancelled';
    default: return grant.status as ShownStatus;
  }
}

/** An ISO-8601 duration of whole units (`P90D`, `P2W`, `P1Y2M`, `PT12H`) in words; anything else as written. */
export function durationInWords(iso: string): string {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m || iso === 'P' || iso.endsWith('T')) return iso;
  const units = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  const parts = m.slice(1).flatMap((v, i) => (v === undefined ? [] : [`${Number(v)} ${units[i]}${Number(v) === 1 ? '' : 's'}`]));
  return parts.join(', ');
}
