/**
 * What permission checks read about the caller and the rows' parents, read once per request: memoised by the
 * request's principal. A request that writes forgets them when its transaction ends (handlers/_lib/mutation), so
 * the links of its reply see the change it made; reads keep them, so a page costs no query per row.
 */
import type { RequestContext } from './context';

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

export function memo<T>(ctx: RequestContext, key: string, load: () => Promise<T>): Promise<T> {
  let mine = memos.get(ctx.principal);
  if (!mine) memos.set(ctx.principal, (mine = new Map()));
  let found = mine.get(key) as Promise<T> | undefined;
  if (!found) mine.set(key, (found = load()));
  return found;
}

/** What is memoised under `key`, if anything. */
export function peek<T>(ctx: RequestContext, key: string): Promise<T> | undefined {
  return memos.get(ctx.principal)?.get(key) as Promise<T> | undefined;
}

/** A value just read in this request, fresher than anything memoised under `key`. */
export function remember<T>(ctx: RequestContext, key: string, value: T): void {
  let mine = memos.get(ctx.principal);
  if (!mine) memos.set(ctx.principal, (mine = new Map()));
  mine.set(key, Promise.resolve(value));
}

export function forgetMemos(ctx: RequestContext): void {
  memos.delete(ctx.principal);
}
