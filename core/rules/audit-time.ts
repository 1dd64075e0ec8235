/**
 * The time bounds of an audit history query (docs/contract.md §8): epoch milliseconds, `now`, `now-<n><s|m|h|d|w>`, or an
 * ISO-8601 duration (`P7D`, `PT1H`, `P1Y2M`) meaning now minus it; also an ISO-8601 instant with its zone
 * (`2026-11-23T10:00:00Z`). Pure: `now` is an argument.
 */

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const RELATIVE = /^now(?:-(\d{1,9})([smhdw]))?$/i;
const DURATION = /^P(?:(\d{1,6})Y)?(?:(\d{1,6})M)?(?:(\d{1,6})W)?(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,12})(?:[.,](\d{1,3}))?S)?)?$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
/** 275760-09-13, the last instant a JavaScript Date holds. */
const MAX_MS = 8_640_000_000_000_000;

/** Epoch milliseconds of the bound, or null when the text is none of the accepted forms. */
export function parseTimeBound(text: string, now: number): number | null {
  const value = text.trim();
  if (/^\d{1,16}$/.test(value)) {
    const ms = Number(value);
    return ms <= MAX_MS ? ms : null;
  }
  const relative = RELATIVE.exec(value);
  if (relative) {
    const ms = relative[1] === undefined ? now : now - Number(relative[1]) * UNIT_MS[relative[2].toLowerCase()];
    return Math.abs(ms) <= MAX_MS ? ms : null;
  }
  const duration = DURATION.exec(value);
  if (duration && /\d/.test(value) && !/T$/i.test(value)) return beforeNow(duration, now);
  if (INSTANT.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** Now minus the duration: years and months on the UTC calendar (P1M from 31 March is 28 or 29 February). */
function beforeNow(match: RegExpExecArray, now: number): number | null {
  const [, years, months, weeks, days, hours, minutes, seconds, fraction] = match.map((part) => (part === undefined ? 0 : part)) as unknown as (number | string)[];
  const date = new Date(now);
  const totalMonths = Number(years) * 12 + Number(months);
  if (totalMonths > 0) {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() - totalMonths);
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, lastDay));
  }
  const ms = date.getTime()
    - Number(weeks) * UNIT_MS.w - Number(days) * UNIT_MS.d - Number(hours) * UNIT_MS.h - Number(minutes) * UNIT_MS.m
    - Number(seconds) * UNIT_MS.s - Number(String(fraction).padEnd(3, '0'));
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_MS ? ms : null;
}
