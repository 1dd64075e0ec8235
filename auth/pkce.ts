/** PKCE (RFC 7636) with S256 only: the browser proves it started the flow it redeems a code of. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** A code challenge: base64url of a SHA-256 digest, 43 characters. */
export const isCodeChallenge = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/** A code verifier: 43 to 128 characters of the unreserved set (RFC 7636 §4.1). */
export const isCodeVerifier = (value: string): boolean => /^[A-Za-z0-9._~-]{43,128}$/.test(value);

export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Whether `verifier` is the one `challenge` was made from; compared in constant time. */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isCodeChallenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256(verifier)), Buffer.from(challenge));
}
