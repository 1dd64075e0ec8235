import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

/** Passwords and client secrets are stored as `scrypt$N$r$p$saltB64$hashB64` (docs/contract.md §1.2). */
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

// Bounds for parameters read back from storage: a corrupt or hostile row must not make one login burn
// gigabytes of memory or minutes of CPU.
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 16;
const MAX_KEY_LENGTH = 256;

/**
 * One derivation per core at a time, the others wait in order. Each holds ~16 MiB and a libuv thread for tens of
 * milliseconds: more at once finish no sooner on these cores, but a burst of sign-ins would take every libuv
 * thread (file and DNS work waits behind them) and hold that memory several times over.
 */
const hashing = pLimit(availableParallelism());

/** Derivations (sign-ins, secret checks, new secrets) waiting for a free slot: the sign-in queue. */
export function hashingQueueLength(): number {
  return hashing.pendingCount;
}

let derivations = 0;

/** Derivations asked for since the process started: how a test sees that a refused sign-in cost a hash like any other. */
export function derivationCount(): number {
  return derivations;
}

function derive(plain: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  derivations += 1;
  return hashing(() => new Promise<Buffer>((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  }));
}

const memoryFor = (n: number, r: number) => 256 * n * r; // scrypt needs ~128·N·r bytes; leave headroom

export async function hashSecret(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(plain, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: memoryFor(N, R) });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for a wrong secret and for anything that is not a well-formed hash of ours (never throws on bad input). */
export async function verifySecret(plain: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const { n, r, p, salt, hash } = parsed;
  const key = await derive(plain, salt, hash.length, { N: n, r, p, maxmem: memoryFor(n, r) });
  return timingSafeEqual(key, hash);
}

/**
 * Spends the time of one verification. Callers use it when there is no stored hash to compare against
 * (unknown user), so response time does not reveal which usernames exist.
 */
export async function burnVerification(plain: string): Promise<void> {
  await derive(plain, DUMMY_SALT, KEY_LENGTH, { N, r: R, p: P, maxmem: memoryFor(N, R) });
}
const DUMMY_SALT = randomBytes(SALT_BYTES);

function parse(stored: string | null | undefined) {
  if (typeof stored !== 'string') return undefined;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [n, r, p] = parts.slice(1, 4).map((v) => (/^[1-9][0-9]{0,7}$/.test(v) ? Number(v) : NaN));
  if (!(n > 1 && n <= MAX_N && (n & (n - 1)) === 0) || !(r <= MAX_R) || !(p <= MAX_P)) return undefined;
  const salt = Buffer.from(parts[4], 'base64');
  const hash = Buffer.from(parts[5], 'base64');
  if (salt.length === 0 || hash.length < 16 || hash.length > MAX_KEY_LENGTH) return undefined;
  return { n, r, p, salt, hash };
}
