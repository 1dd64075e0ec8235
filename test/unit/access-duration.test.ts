/**
 * How long access lasts (issue 33): ISO-8601 durations and instants as a request or an environment gives them, the
 * calendar arithmetic (months are calendar months from the request time, the day clamped), and the bounds.
 * Expected values are written by hand from the calendar, not computed with the code under test.
 */
import { describe, expect, it } from 'vitest';
import { addMonths, canExceed, checkBounds, endOf, hasExpired, parseDuration, parseInstant, resolveExpiry, type AccessDuration } from '../../core/rules/access-duration';
import { decide, availableActions } from '../../core/rules/grant-state';

const d = (text: string): AccessDuration => {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.message}`);
  return parsed.value;
};
const at = (iso: string) => new Date(iso);
const end = (start: string, duration: string) => endOf(at(start), d(duration))?.toISOString();

describe('parseDuration', () => {
  it.each([
    ['P30D', 0, 30 * 86_400_000],
    ['PT12H', 0, 12 * 3_600_000],
    ['P1M', 1, 0],
    ['P1Y', 12, 0],
    ['P2W', 0, 14 * 86_400_000],
    ['P1Y2M3W4DT5H6M7S', 14, ((3 * 7 + 4) * 86_400 + 5 * 3600 + 6 * 60 + 7) * 1000],
    ['PT90M', 0, 90 * 60_000],
    ['PT1S', 0, 1000],
    ['p30d', 0, 30 * 86_400_000],
    [' P1D ', 0, 86_400_000],
  ])('%s → %i months + %i ms', (text, months, fixedMs) => {
    expect(parseDuration(text)).toEqual({ ok: true, value: { text: text.trim().toUpperCase(), months, fixedMs } });
  });

  it.each([
    ['', 'ISO-8601 duration'],
    ['30D', 'ISO-8601 duration'],
    ['P', 'ISO-8601 duration'],
    ['PT', 'ISO-8601 duration'],
    ['P1DT', 'ISO-8601 duration'],
    ['P1H', 'ISO-8601 duration'],
    ['PT1D', 'ISO-8601 duration'],
    ['P1D1M', 'ISO-8601 duration'],
    ['P1.5D', 'fractions are not taken'],
    ['PT0,5H', 'fractions are not taken'],
    ['-P1D', 'negative duration is not taken'],
    ['P-1D', 'ISO-8601 duration'],
    ['P0D', 'longer than zero'],
    ['PT0S', 'longer than zero'],
    ['P10000Y', 'longer than any date'],
    ['P999999999D', 'longer than any date'],
    ['P1234567890D', 'ISO-8601 duration'],
    ['thirty days', 'ISO-8601 duration'],
  ])('%j is refused (%s)', (text, fragment) => {
    const parsed = parseDuration(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain(fragment);
  });

  it.each([null, undefined, 30, {}, ['P1D']])('%j is refused', (value) => {
    expect(parseDuration(value).ok).toBe(false);
  });
});

describe('calendar arithmetic (UTC, months first with the day clamped, then days, then time)', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', 'P1M', '2026-02-15T10:00:00.000Z'],
    ['2026-01-31T10:00:00.000Z', 'P1M', '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 'P1M', '2028-02-29T10:00:00.000Z'],
    ['2026-03-31T00:00:00.000Z', 'P1M', '2026-04-30T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', 'P1M', '2027-01-31T23:59:59.999Z'],
    ['2026-11-30T08:00:00.000Z', 'P3M', '2027-02-28T08:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', 'P1Y', '2029-02-28T12:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', 'P4Y', '2032-02-29T12:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'P1M1D', '2026-03-01T00:00:00.000Z'],
    ['2026-03-28T12:00:00.000Z', 'P1D', '2026-03-29T12:00:00.000Z'],
    ['2026-10-24T12:00:00.000Z', 'P2D', '2026-10-26T12:00:00.000Z'],
    ['2026-11-27T05:00:00.123Z', 'PT12H', '2026-11-27T17:00:00.123Z'],
    ['2026-11-27T23:30:00.000Z', 'PT45M', '2026-11-28T00:15:00.000Z'],
    ['2026-02-01T00:00:00.000Z', 'P30D', '2026-03-03T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', 'P1W', '2026-01-08T00:00:00.000Z'],
  ])('%s + %s = %s', (start, duration, expected) => {
    expect(end(start, duration)).toBe(expected);
  });

  it('adds months across years and backwards', () => {
    expect(addMonths(at('2026-05-31T00:00:00Z'), 21).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonths(at('2026-03-31T00:00:00Z'), -1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });

  it('an end past year 9999 is none', () => {
    expect(endOf(at('9999-06-01T00:00:00Z'), d('P1Y'))).toBeNull();
    expect(end('9999-06-01T00:00:00Z', 'P6M')).toBe('9999-12-01T00:00:00.000Z');
  });
});

describe('parseInstant', () => {
  it.each([
    ['2026-12-31T17:00:00Z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T18:00:00+01:00', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T12:30:00-04:30', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T17:00Z', '2026-12-31T17:00:00.000Z'],
    ['2026-12-31T17:00:00.5Z', '2026-12-31T17:00:00.500Z'],
    ['2026-12-31T17:00:00.123456789Z', '2026-12-31T17:00:00.123Z'],
    ['2028-02-29T00:00:00z', '2028-02-29T00:00:00.000Z'],
  ])('%s = %s', (raw, expected) => {
    const parsed = parseInstant(raw);
    expect(parsed.ok && parsed.value.toISOString()).toBe(expected);
  });

  it.each([
    ['2026-12-31T17:00:00', 'time zone'],
    ['2026-12-31', 'time zone'],
    ['2026-12-31 17:00:00Z', 'time zone'],
    ['31/12/2026', 'time zone'],
    ['1767200400000', 'time zone'],
    ['2026-02-29T00:00:00Z', 'not a date and time of the calendar'],
    ['2026-04-31T00:00:00Z', 'not a date and time of the calendar'],
    ['2026-13-01T00:00:00Z', 'not a date and time of the calendar'],
    ['2026-12-31T24:00:00Z', 'not a date and time of the calendar'],
    ['2026-12-31T23:60:00Z', 'not a date and time of the calendar'],
    ['2026-12-31T17:00:00+19:00', 'beyond ±18:00'],
  ])('%j is refused (%s)', (raw, fragment) => {
    const parsed = parseInstant(raw);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toContain(fragment);
  });

  it.each([null, 17, {}, undefined])('%j is refused', (value) => expect(parseInstant(value).ok).toBe(false));
});

describe('canExceed: can a end later than b from some start?', () => {
  it.each([
    ['P30D', 'P30D', false],
    ['P30D', 'P31D', false],
    ['P31D', 'P30D', true],
    ['P1M', 'P1M', false],
    ['P1M', 'P1M1D', false],
    ['P1M1D', 'P1M', true],
    ['P30D', 'P1M', true],
    ['P28D', 'P1M', false],
    ['P1M', 'P31D', false],
    ['P1M', 'P30D', true],
    ['P1Y', 'P12M', false],
    ['P1Y', 'P365D', true],
    ['P336D', 'P1Y', false],
    ['PT24H', 'P1D', false],
    ['P2M', 'P1M', true],
    ['P1M', 'P2M', false],
  ])('%s vs %s → %s', (a, b, expected) => {
    expect(canExceed(d(a), d(b))).toBe(expected);
  });
});

describe('resolveExpiry', () => {
  const now = at('2026-01-31T10:00:00.000Z');
  const bounds = { maxAccessDuration: 'P1M', defaultAccessDuration: 'P7D' };

  it('expiresAt as given, validFor from now, else the default, else none', () => {
    expect(resolveExpiry({ expiresAt: '2026-02-10T00:00:00Z' }, bounds, now)).toEqual({ ok: true, expiresAt: at('2026-02-10T00:00:00Z') });
    expect(resolveExpiry({ validFor: 'PT12H' }, bounds, now)).toEqual({ ok: true, expiresAt: at('2026-01-31T22:00:00Z') });
    expect(resolveExpiry({}, bounds, now)).toEqual({ ok: true, expiresAt: at('2026-02-07T10:00:00Z') });
    expect(resolveExpiry({ expiresAt: null, validFor: null }, {}, now)).toEqual({ ok: true, expiresAt: null });
  });

  it('the maximum counts from now, a month to the same day (clamped): Jan 31 + P1M = Feb 28', () => {
    expect(resolveExpiry({ expiresAt: '2026-02-28T10:00:00Z' }, bounds, now)).toEqual({ ok: true, expiresAt: at('2026-02-28T10:00:00Z') });
    expect(resolveExpiry({ validFor: 'P1M' }, bounds, now)).toEqual({ ok: true, expiresAt: at('2026-02-28T10:00:00Z') });
    const over = resolveExpiry({ expiresAt: '2026-02-28T10:00:00.001Z' }, bounds, now);
    expect(over).toMatchObject({ ok: false, field: 'expiresAt' });
    expect(!over.ok && over.message).toContain('maxAccessDuration P1M');
    expect(resolveExpiry({ validFor: 'P29D' }, bounds, now)).toMatchObject({ ok: false, field: 'validFor' });
  });

  it('a maximum alone bounds a request that names no end', () => {
    expect(resolveExpiry({}, { maxAccessDuration: 'P1M' }, now)).toEqual({ ok: true, expiresAt: at('2026-02-28T10:00:00Z') });
    expect(resolveExpiry({}, { maxAccessDuration: 'P1M', defaultAccessDuration: 'P2M' }, now)).toEqual({ ok: true, expiresAt: at('2026-02-28T10:00:00Z') });
  });

  it.each([
    [{ expiresAt: '2026-02-01T00:00:00Z', validFor: 'P1D' }, ['expiresAt', 'validFor'], 'not both'],
    [{ expiresAt: '2026-01-31T10:00:00Z' }, ['expiresAt'], 'in the future'],
    [{ expiresAt: '2025-01-01T00:00:00Z' }, ['expiresAt'], 'in the future'],
    [{ expiresAt: 'tomorrow' }, ['expiresAt'], 'ISO-8601 instant'],
    [{ expiresAt: 1767200400000 }, ['expiresAt'], 'ISO-8601 instant'],
    [{ validFor: 'P1.5D' }, ['validFor'], 'fractions'],
    [{ validFor: 'P0D' }, ['validFor'], 'longer than zero'],
    [{ validFor: 30 }, ['validFor'], 'ISO-8601 duration'],
    [{ validFor: 'P9000Y' }, ['validFor'], 'later than any date'],
  ])('%j → 400 naming %j', (asked, fields, fragment) => {
    const r = resolveExpiry(asked, {}, now);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect([r.field, ...(r.also ? [r.also.field] : [])]).toEqual(fields);
    expect(r.message).toContain(fragment);
  });
});

describe('checkBounds', () => {
  it.each([
    [{}, null],
    [{ maxAccessDuration: null, defaultAccessDuration: null }, null],
    [{ maxAccessDuration: 'P90D' }, null],
    [{ defaultAccessDuration: 'P30D' }, null],
    [{ maxAccessDuration: 'P3M', defaultAccessDuration: 'P1M' }, null],
    [{ maxAccessDuration: 'P1M', defaultAccessDuration: 'P1M' }, null],
    [{ maxAccessDuration: 'P90D', defaultAccessDuration: 'P3M' }, 'defaultAccessDuration'],
    [{ maxAccessDuration: 'P1M', defaultAccessDuration: 'P30D' }, 'defaultAccessDuration'],
    [{ maxAccessDuration: 'P1M', defaultAccessDuration: 'P28D' }, null],
    [{ maxAccessDuration: 'ninety days' }, 'maxAccessDuration'],
    [{ defaultAccessDuration: 'P-1D' }, 'defaultAccessDuration'],
  ])('%j → %s', (bounds, field) => {
    expect(checkBounds(bounds)?.field ?? null).toBe(field);
  });
});

describe('expiry in the grant state machine', () => {
  const approver = { approver: true, appEditor: true };
  const now = at('2026-06-01T00:00:00Z');
  const past = { expiresAt: at('2026-06-01T00:00:00Z'), now };
  const future = { expiresAt: at('2026-06-01T00:00:00.001Z'), now };

  it('a pending grant at or past its end cannot be approved (422), before it can', () => {
    expect(decide('Pending', 'approve', approver, past)).toMatchObject({ kind: 'illegal', message: expect.stringContaining('after its expiresAt (2026-06-01T00:00:00.000Z)') });
    expect(decide('Pending', 'approve', approver, future)).toMatchObject({ kind: 'move', to: 'Approved' });
    expect(decide('Pending', 'approve', approver, { expiresAt: null, now })).toMatchObject({ kind: 'move', to: 'Approved' });
  });

  it('rights still come first (403), and deny, cancel and revoke are untouched by the end', () => {
    expect(decide('Pending', 'approve', { approver: false, appEditor: true }, past)).toMatchObject({ kind: 'forbidden' });
    expect(availableActions('Pending', approver, past)).toEqual(['deny', 'cancel']);
    expect(availableActions('Approved', approver, past)).toEqual(['revoke']);
  });

  it('hasExpired: at the end is expired, no end never is', () => {
    expect(hasExpired(at('2026-06-01T00:00:00Z'), now)).toBe(true);
    expect(hasExpired(at('2026-06-01T00:00:00.001Z'), now)).toBe(false);
    expect(hasExpired(null, now)).toBe(false);
  });
});
