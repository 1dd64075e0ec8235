/**
 * docs/contract.md §4.1: a reference is a full URI, any URI whose last non-empty path segment is the uid, or the bare uid.
 * It is looked up in the collection the field implies, never the one the URI names.
 */
const UID = /^[0-9a-f]{32}$/;

/** The uid a reference names, or null when it cannot be one. `""`/null are handled by callers (= none). */
export function uidOf(reference: unknown): string | null {
  if (typeof reference !== 'string') {
    if (reference && typeof reference === 'object' && typeof (reference as { href?: unknown }).href === 'string') {
      return uidOf((reference as { href: string }).href);
    }
    return null;
  }
  let s = reference.trim();
  // a templated href such as …/users/{uid}{?projection}: drop the template expressions first
  s = s.replace(/\{[^}]*\}/g, '');
  s = s.replace(/[?#].*$/, '');
  const segments = s.split('/').filter((p) => p !== '');
  let last = segments.length > 0 ? segments[segments.length - 1] : '';
  try { last = decodeURIComponent(last); } catch { /* keep as is */ }
  last = last.toLowerCase().replace(/-/g, '');
  // the same template, percent-encoded
  last = last.replace(/\{.*\}$/, '');
  return UID.test(last) ? last : null;
}

export const isNone = (reference: unknown) => reference === null || reference === undefined || reference === '';
