/**
 * The per-process expiry sweeper's schedule (server/access-expiry.ts): sweeps at its interval, never two at once,
 * carries on after a failed sweep, and stops cleanly, waiting for the sweep it is running. The clock is vitest's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startExpirySweeper } from '../../server/access-expiry';
import { loadConfig } from '../../core/config';
import type { Models } from '../../models';

const models = {} as Models;

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('startExpirySweeper', () => {
  it('sweeps once per interval, after the previous sweep ended', async () => {
    let finish: () => void = () => undefined;
    const sweep = vi.fn(() => new Promise<string[]>((resolve) => { finish = () => resolve([]); }));
    const sweeper = startExpirySweeper(models, 1000, () => '', sweep);
    expect(sweep).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sweep).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(2);
    finish();
    await sweeper.stop();
  });

  it('a failed sweep is followed by the next one', async () => {
    const sweep = vi.fn().mockRejectedValueOnce(new Error('connection refused')).mockResolvedValue(['a']);
    const sweeper = startExpirySweeper(models, 1000, () => '', sweep);
    await vi.advanceTimersByTimeAsync(2000);
    expect(sweep).toHaveBeenCalledTimes(2);
    await sweeper.stop();
  });

  it('stop waits for the running sweep and no other starts', async () => {
    let finish: () => void = () => undefined;
    const sweep = vi.fn(() => new Promise<string[]>((resolve) => { finish = () => resolve([]); }));
    const sweeper = startExpirySweeper(models, 1000, () => '', sweep);
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = sweeper.stop().then(() => { stopped = true; });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep).toHaveBeenCalledTimes(1);
  });

  it('an interval of 0 never sweeps', async () => {
    const sweep = vi.fn(async () => []);
    const sweeper = startExpirySweeper(models, 0, () => '', sweep);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(sweep).not.toHaveBeenCalled();
    await sweeper.stop();
  });
});

describe('ACCESS_EXPIRY_SWEEP_MS', () => {
  it('defaults to a minute; 0 turns the sweep off; anything else but a whole number stops the start naming it', () => {
    expect(loadConfig({}).accessExpirySweepMs).toBe(60_000);
    expect(loadConfig({ ACCESS_EXPIRY_SWEEP_MS: '5000' }).accessExpirySweepMs).toBe(5000);
    expect(loadConfig({ ACCESS_EXPIRY_SWEEP_MS: '0' }).accessExpirySweepMs).toBe(0);
    for (const bad of ['-1', '1.5', 'soon']) expect(() => loadConfig({ ACCESS_EXPIRY_SWEEP_MS: bad })).toThrow('ACCESS_EXPIRY_SWEEP_MS');
  });
});
