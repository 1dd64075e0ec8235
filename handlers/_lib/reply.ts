import type { Model, ModelStatic } from 'sequelize';
import type { Models } from '../../models';
import type { RelatedWanted } from '../../models/caller';
import type { RequestContext } from '../../core/context';

/** The one outcome type of every handler; server/app writes it to the wire. */
export interface Reply {
  status: number;
  body?: unknown;
  /** Defaults to application/hal+json for object bodies. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

/**
 * The checks of a handler that docs/contract.md §2 orders before body validation (target 404 → 403 → 412). The adapter
 * runs them when request validation fails, so e.g. a non-admin's invalid PATCH is 403, not 400.
 */
export type Precheck = (ctx: RequestContext) => Promise<unknown>;
/**
 * `itemModel`: the handler reads first the one row named by the `id` path parameter (a GET, PUT, PATCH or DELETE of
 * an item), so the adapter may ask for that row alongside the caller: one round trip instead of two; `itemRelated`:
 * and the targets of these associations.
 */
export type CheckedHandler = Handler & {
  precheck?: Precheck;
  itemModel?: (models: Models) => ModelStatic<Model>;
  itemRelated?: (models: Models) => RelatedWanted[];
};
export const withPrecheck = (handler: Handler, precheck: Precheck): CheckedHandler => Object.assign(handler, { precheck });

export const HAL = 'application/hal+json';
export const JSON_TYPE = 'application/json';
export const URI_LIST = 'text/uri-list';
export const COMPACT = 'application/x-spring-data-compact+json';

export const hal = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body, contentType: HAL, headers });
export const plain = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body, contentType: JSON_TYPE, headers });
export const noContent = (headers?: Record<string, string>): Reply => ({ status: 204, headers });

/** Whether the Accept header asks for `type` explicitly (not through `*\/*` or a HAL type). */
export function accepts(ctx: RequestContext, type: string): boolean {
  const accept = String(ctx.headers['accept'] ?? '').toLowerCase();
  return accept.split(',').some((part) => part.split(';')[0].trim() === type);
}
