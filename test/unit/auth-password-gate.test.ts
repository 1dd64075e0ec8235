/** A burst of sign-ins hashes one password per core at a time (core/passwords): memory and libuv threads stay bounded. */
import { availableParallelism } from 'node:os';
import { describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ running: 0, most: 0, calls: 0 }));

vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: unknown[]) => {
    const done = args.at(-1) as (err: Error | null, key?: Buffer) => void;
    seen.calls++;
    seen.most = Math.max(seen.most, ++seen.running);
    (crypto.scrypt as (...a: unknown[]) => void)(...args.slice(0, -1), (err: Error | null, key?: Buffer) => {
      seen.running--;
      done(err, key);
    });
  }) as typeof crypto.scrypt;
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

const { hashSecret, verifySecret } = await import('../../core/passwords');

describe('password hashing under a burst', () => {
  it('runs at most one scrypt per core at once, and every caller still gets its answer', async () => {
    const cores = availableParallelism();
    const secrets = Array.from({ length: cores * 3 + 1 }, (_, i) => `burst-secret-${i}`);
    const hashes = await Promise.all(secrets.map((s) => hashSecret(s)));
    expect(seen.calls).toBe(secrets.length);
    expect(seen.most).toBeGreaterThanOrEqual(1);
    expect(seen.most).toBeLessThanOrEqual(cores);
    const checks = await Promise.all(secrets.map((s, i) => verifySecret(s, hashes[(i + 1) % hashes.length])));
    expect(checks.every((ok) => ok === false)).toBe(true);
    expect(await verifySecret(secrets[0], hashes[0])).toBe(true);
    expect(seen.running).toBe(0);
  }, 60_000);
});
