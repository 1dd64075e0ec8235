/**
 * How long an access grant lasts (issue 33, docs/contract.md §6.1): ISO-8601 durations (`P30D`, `PT12H`, `P1M`) and
 * instants, parsed strictly, and the arithmetic that turns a duration into an end instant. Pure.
 *
 * Counting: a duration is added to the request time in UTC. Years and months are calendar months (`P1Y` = 12
 * months), added first, the day clamped to the end of a shorter month (Jan 31 + `P1M` = Feb 28, or 29 in a leap
 * year), as java.time and Temporal do; then weeks (7 days) and days, which in UTC are 24 hours each; then hours,
 * minutes and seconds. Every number is a whole number, so the end instant is exact to the millisecond.
 */

export interface AccessDuration {
  /** The text as given, upper-cased. */
  text: string;
  /** Years × 12 + months: the calendar part. */
  months: number;
  /** Weeks, days, hours, minutes and seconds in milliseconds: the fixed part. */
  fixedMs: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const DAY_MS = 86_400_000;
/** Timestamps the databases store (DATE(3) / DATETIME(3) / TIMESTAMP(3)) end with year 9999. */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const DURATION = /^P(?:(\d{1,9})Y)?(?:(\d{1,9})M)?(?:(\d{1,9})W)?(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})S)?)?$/;
const DURATION_HINT = 'must be an ISO-8601 duration of whole numbers such as P30D, PT12H, P1M or P1Y2M3DT4H';

/** `P1Y2M3W4DT5H6M7S` with any of the parts, whole numbers, at least one of them above zero. */
export function parseDuration(raw: unknown): Parsed<AccessDuration> {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, message: DURATION_HINT };
  const text = raw.trim().toUpperCase();
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) {
    const hint = /[.,]\d/.test(text) ? `${DURATION_HINT} (fractions are not taken)` : /^-/.test(text) ? `${DURATION_HINT} (a negative duration is not taken)` : DURATION_HINT;
    return { ok: false, message: hint };
  }
  const [y, mo, w, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const months = y * 12 + mo;
  const fixedMs = ((w * 7 + d) * 24 * 3600 + h * 3600 + mi * 60 + s) * 1000;
  if (months === 0 && fixedMs === 0) return { ok: false, message: 'must be longer than zero' };
  if (months > 12 * 9999 || fixedMs > LATEST) return { ok: false, message: 'is longer than any date the service can store' };
  return { ok: true, value: { text, months, fixedMs } };
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** `start` plus `months` calendar months in UTC, the day clamped to the target month's last. */
export function addMonths(start: Date, months: number): Date {
  const total = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(start.getUTCDate(), daysIn(year, month));
  const d = new Date(Date.UTC(2000, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
  d.setUTCFullYear(year);
  return d;
}

/** The end of `duration` counted from `start` (see the module comment); null when it lies past what can be stored. */
export function endOf(start: Date, duration: AccessDuration): Date | null {
  const end = addMonths(start, duration.months).getTime() + duration.fixedMs;
  return Number.isFinite(end) && end <= LATEST ? new Date(end) : null;
}

/**
 * Whether `a` can end later than `b` for some start instant. With the same calendar part the fixed parts decide
 * exactly; otherwise `k` calendar months span between 28k and 31k days, whatever the start, and those bounds decide
 * (so a default of `P30D` is refused under a maximum of `P1M`: from February 1 a month is 28 days).
 */
export function canExceed(a: AccessDuration, b: AccessDuration): boolean {
  const k = a.months - b.months;
  const longestCalendarGap = k >= 0 ? 31 * k * DAY_MS : 28 * k * DAY_MS;
  return longestCalendarGap + a.fixedMs - b.fixedMs > 0;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/i;
const INSTANT_HINT = 'must be an ISO-8601 instant with a time zone, such as 2026-12-31T17:00:00Z or 2026-12-31T18:00:00+01:00';

/** An instant with its offset (`Z` or `±hh:mm`); a calendar-impossible one (February 30, hour 24) is refused. */
export function parseInstant(raw: unknown): Parsed<Date> {
  if (typeof raw !== 'string') return { ok: false, message: INSTANT_HINT };
  const m = INSTANT.exec(raw.trim());
  if (!m) return { ok: false, message: INSTANT_HINT };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => (v === undefined ? 0 : Number(v)));
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month - 1) || hour > 23 || minute > 59 || second > 59) {
    return { ok: false, message: `${INSTANT_HINT}; ${raw.trim()} is not a date and time of the calendar` };
  }
  const zone = m[8].toUpperCase();
  const offsetMin = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (Math.abs(offsetMin) > 18 * 60) return { ok: false, message: `${INSTANT_HINT}; the offset is beyond ±18:00` };
  const local = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  local.setUTCFullYear(year);
  const at = local.getTime() - offsetMin * 60_000;
  if (at > LATEST) return { ok: false, message: 'is later than any date the service can store' };
  return { ok: true, value: new Date(at) };
}

/** What a request asks for: an end instant, a duration, or neither. */
export interface ExpiryAsked { expiresAt?: unknown; validFor?: unknown }
/** An environment's bounds, as stored (null: none). */
export interface ExpiryBounds { maxAccessDuration?: string | null; defaultAccessDuration?: string | null }

export interface ExpiryProblem { field: string; message: string; rejectedValue: unknown }
export type Expiry = { ok: true; expiresAt: Date | null } | ({ ok: false; also?: ExpiryProblem } & ExpiryProblem);

const given = (v: unknown) => v !== undefined && v !== null;

/**
 * The end of a requested grant made at `now`: `expiresAt` as given (in the future), `validFor` from now, else the
 * environment's default from now, else none (null). Either way not later than `now` plus the environment's maximum;
 * a default that would pass it at this instant ends at the maximum instead (the requester asked for nothing).
 */
export function resolveExpiry(asked: ExpiryAsked, bounds: ExpiryBounds, now: Date): Expiry {
  if (given(asked.expiresAt) && given(asked.validFor)) {
    const message = 'give expiresAt or validFor, not both';
    return { ok: false, field: 'expiresAt', message, rejectedValue: asked.expiresAt, also: { field: 'validFor', message, rejectedValue: asked.validFor } };
  }
  const parsedMax = bounds.maxAccessDuration ? parseDuration(bounds.maxAccessDuration) : null;
  const max = parsedMax?.ok ? parsedMax.value : null;
  const latest = max ? endOf(now, max) : null;
  const beyond = (field: string, value: unknown, end: Date): Expiry | null => (max && latest && end.getTime() > latest.getTime()
    ? { ok: false, field, message: `must not end later than the environment's maxAccessDuration ${max.text} allows (${latest.toISOString()})`, rejectedValue: value }
    : null);
  if (given(asked.expiresAt)) {
    const at = parseInstant(asked.expiresAt);
    if (!at.ok) return { ok: false, field: 'expiresAt', message: at.message, rejectedValue: asked.expiresAt };
    if (at.value.getTime() <= now.getTime()) return { ok: false, field: 'expiresAt', message: 'must be in the future', rejectedValue: asked.expiresAt };
    return beyond('expiresAt', asked.expiresAt, at.value) ?? { ok: true, expiresAt: at.value };
  }
  if (given(asked.validFor)) {
    const d = parseDuration(asked.validFor);
    if (!d.ok) return { ok: false, field: 'validFor', message: d.message, rejectedValue: asked.validFor };
    const end = endOf(now, d.value);
    if (!end) return { ok: false, field: 'validFor', message: 'ends later than any date the service can store', rejectedValue: asked.validFor };
    return beyond('validFor', asked.validFor, end) ?? { ok: true, expiresAt: end };
  }
  const fallback = bounds.defaultAccessDuration ? parseDuration(bounds.defaultAccessDuration) : null;
  const end = fallback?.ok ? endOf(now, fallback.value) : null;
  if (!end) return { ok: true, expiresAt: latest };
  return { ok: true, expiresAt: latest && latest.getTime() < end.getTime() ? latest : end };
}

/** An environment's bounds: each a duration, and the default never able to pass the maximum. */
export function checkBounds(bounds: ExpiryBounds): { field: string; message: string; rejectedValue: unknown } | null {
  const parsed: Partial<Record<keyof ExpiryBounds, AccessDuration>> = {};
  for (const field of ['maxAccessDuration', 'defaultAccessDuration'] as const) {
    const raw = bounds[field];
    if (!given(raw)) continue;
    const d = parseDuration(raw);
    if (!d.ok) return { field, message: d.message, rejectedValue: raw };
    parsed[field] = d.value;
  }
  const { maxAccessDuration: max, defaultAccessDuration: def } = parsed;
  if (max && def && canExceed(def, max)) {
    return { field: 'defaultAccessDuration', message: `must not be able to exceed maxAccessDuration ${max.text} (a month counts 28 to 31 days)`, rejectedValue: bounds.defaultAccessDuration };
  }
  return null;
}

/** Whether a grant with this end has ended at `now` (no end: never). */
export const hasExpired = (expiresAt: Date | null | undefined, now: Date): boolean => !!expiresAt && expiresAt.getTime() <= now.getTime();
