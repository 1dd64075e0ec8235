/** docs/contract.md §4.3: an enum value named ignoring case, spaces, `_` and `-`; its canonical spelling, or undefined. */
export function matchEnum<T extends string>(values: readonly T[], value: unknown): T | undefined {
  if (typeof value !== 'string') return undefined;
  const key = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');
  return values.find((v) => key(v) === key(value));
}
