import { describe, expect, it } from 'vitest';
import { TIMED_OUT, within } from '../../core/within';

describe('within', () => {
  it('answers the work\'s value when it comes first', async () => {
    expect(await within(Promise.resolve(42), 1_000)).toBe(42);
  });

  it('answers TIMED_OUT when the work does not settle within the bound', async () => {
    expect(await within(new Promise(() => undefined), 5)).toBe(TIMED_OUT);
  });

  it('passes the work\'s failure on', async () => {
    await expect(within(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow('refused');
  });
});
