/**
 * A new webhook endpoint's signing secret, carried from its create's answer to the page that shows it, once: held in
 * the page's memory only (never in storage), and forgotten as soon as that page has taken it.
 */
const revealed = new Map<string, string>();

export function keepRevealed(uid: string, secret: string): void {
  revealed.set(uid, secret);
}

export function revealedSecret(uid: string): string | undefined {
  return revealed.get(uid);
}

export function forgetRevealed(uid: string): void {
  revealed.delete(uid);
}
