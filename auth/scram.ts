/**
 * Application credential secrets (docs/contract.md §5.12): generated passwords and the SCRAM verifiers Kafka keeps for
 * them (RFC 5802 §3, RFC 7677), so the password itself is never stored.
 */
import { createHash, createHmac, pbkdf2, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PASSWORD_LENGTH = 32;

/** 32 characters of [A-Za-z0-9]; randomInt rejects out-of-range draws, so every character is equally likely. */
export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export const SCRAM_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;
export type ScramMechanism = (typeof SCRAM_MECHANISMS)[number];

const HASH: Record<ScramMechanism, { name: 'sha256' | 'sha512'; bytes: number }> = {
  'SCRAM-SHA-256': { name: 'sha256', bytes: 32 },
  'SCRAM-SHA-512': { name: 'sha512', bytes: 64 },
};

/** Kafka's bounds for SCRAM-SHA-256/512; they also keep a corrupt stored verifier from burning minutes of CPU. */
export const MIN_ITERATIONS = 4096;
export const MAX_ITERATIONS = 16384;
const SALT_BYTES = 16;

/** What a SCRAM server keeps for one user; byte strings in base64, as Kafka's SCRAM credentials hold them. */
export interface ScramVerifier {
  mechanism: ScramMechanism;
  iterations: number;
  salt: string;
  storedKey: string;
  serverKey: string;
}

export function scramVerifier(password: string, mechanism: ScramMechanism, iterations = MIN_ITERATIONS): Promise<ScramVerifier> {
  return scramVerifierWithSalt(password, mechanism, iterations, randomBytes(SALT_BYTES));
}

/**
 * The verifier for a given salt; exported so the RFC's example exchange can be replayed. The password is taken as
 * its UTF-8 bytes without SASLprep, as Kafka's ScramFormatter does; for generated passwords the two agree.
 */
export async function scramVerifierWithSalt(password: string, mechanism: ScramMechanism, iterations: number, salt: Buffer): Promise<ScramVerifier> {
  const hash = HASH[mechanism];
  if (!hash) throw new RangeError(`Unknown SCRAM mechanism ${String(mechanism)}; expected one of ${SCRAM_MECHANISMS.join(', ')}`);
  if (!Number.isInteger(iterations) || iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
    throw new RangeError(`SCRAM iterations must be an integer from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}, not ${iterations}`);
  }
  const { storedKey, serverKey } = await keys(password, hash, salt, iterations);
  return { mechanism, iterations, salt: salt.toString('base64'), storedKey: storedKey.toString('base64'), serverKey: serverKey.toString('base64') };
}

/** False for a wrong password and for anything that is not a well-formed verifier (never throws on bad input). */
export async function verifyScram(password: string, verifier: unknown): Promise<boolean> {
  const v = readVerifier(verifier);
  if (!v || typeof password !== 'string') return false;
  const { storedKey, serverKey } = await keys(password, v.hash, v.salt, v.iterations);
  // Both compared, with no early exit, so the time spent says nothing about which one differed.
  const storedOk = timingSafeEqual(storedKey, v.storedKey);
  const serverOk = timingSafeEqual(serverKey, v.serverKey);
  return storedOk && serverOk;
}

/** RFC 5802 §3: SaltedPassword = Hi(password, salt, i); StoredKey = H(HMAC(SaltedPassword, "Client Key")); ServerKey = HMAC(SaltedPassword, "Server Key"). */
async function keys(password: string, hash: { name: string; bytes: number }, salt: Buffer, iterations: number) {
  const salted = await pbkdf2Async(Buffer.from(password, 'utf8'), salt, iterations, hash.bytes, hash.name);
  const clientKey = createHmac(hash.name, salted).update('Client Key').digest();
  return {
    storedKey: createHash(hash.name).update(clientKey).digest(),
    serverKey: createHmac(hash.name, salted).update('Server Key').digest(),
  };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function readVerifier(value: unknown) {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<Record<keyof ScramVerifier, unknown>>;
  const hash = typeof v.mechanism === 'string' && Object.hasOwn(HASH, v.mechanism) ? HASH[v.mechanism as ScramMechanism] : undefined;
  if (!hash) return undefined;
  if (typeof v.iterations !== 'number' || !Number.isInteger(v.iterations) || v.iterations < MIN_ITERATIONS || v.iterations > MAX_ITERATIONS) return undefined;
  const bytes = (field: unknown) => (typeof field === 'string' && field !== '' && BASE64.test(field) ? Buffer.from(field, 'base64') : undefined);
  const salt = bytes(v.salt);
  const storedKey = bytes(v.storedKey);
  const serverKey = bytes(v.serverKey);
  if (!salt || storedKey?.length !== hash.bytes || serverKey?.length !== hash.bytes) return undefined;
  return { hash, iterations: v.iterations, salt, storedKey, serverKey };
}
