import { describe, expect, it } from 'vitest';
import { durationInWords, shownStatus } from '../../ui/src/grant-status';

const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('shownStatus', () => {
  it.each([
    [{ status: 'Pending' }, 'Pending'],
    [{ status: 'Approved', expiresAt: null }, 'Approved'],
    [{ status: 'Approved', expiresAt: '2026-11-28T12:00:01.000Z' }, 'Approved'],
    [{ status: 'Approved', expiresAt: '2026-11-28T12:00:00.000Z' }, 'Expired'],
    [{ status: 'Approved', expiresAt: '2026-01-01T00:00:00.000Z' }, 'Expired'],
    [{ status: 'Approved', expiresAt: 'not a time' }, 'Approved'],
    [{ status: 'Revoked', comment: 'expired' }, 'Expired'],
    [{ status: 'Revoked', comment: 'no longer needed' }, 'Revoked'],
    [{ status: 'Revoked', comment: null }, 'Revoked'],
    [{ status: 'Rejected', comment: 'not now' }, 'Denied'],
    [{ status: 'Cancelled' }, 'Cancelled'],
  ])('%j reads as %s', (grant, shown) => {
    expect(shownStatus(grant, NOW)).toBe(shown);
  });
});

describe('durationInWords', () => {
  it.each([
    ['P90D', '90 days'],
    ['P1D', '1 day'],
    ['P2W', '2 weeks'],
    ['P1Y2M', '1 year, 2 months'],
    ['PT12H', '12 hours'],
    ['P1DT1H30M', '1 day, 1 hour, 30 minutes'],
    ['P', 'P'],
    ['PT', 'PT'],
    ['P1.5D', 'P1.5D'],
    ['90 days', '90 days'],
  ])('%s is %s', (iso, words) => {
    expect(durationInWords(iso)).toBe(words);
  });
});
