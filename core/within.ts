/** A wait with a bound: `work`'s value, or `TIMED_OUT` once `ms` have passed first (the work itself goes on). */
export const TIMED_OUT = Symbol('timed out');

export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<typeof TIMED_OUT>((resolve) => { timer = setTimeout(() => resolve(TIMED_OUT), ms); });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
