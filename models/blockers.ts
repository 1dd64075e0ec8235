/** The 422 message of a delete refused because other rows still depend on the row; kinds are named in the singular. */
export function inUse(what: string, counts: Record<string, number>): string | null {
  const held = Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  return held.length === 0 ? null : `${what} still has ${held.join(', ')}; remove them first`;
}
