/**
 * The rows permission checks of a child read (a stream config's stream, a principal's application, a version's
 * schema), once per request (core/request-memo), and primed with the rows a page already loaded for its links and
 * embeds (handlers/_lib/render), so the edit and delete links of a page cost no query per row.
 */
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../core/context';
import type { Row } from '../models/define';
import { memo, peek, remember } from '../core/request-memo';

export type ParentModel = 'Application' | 'Stream' | 'Schema' | 'Environment';
const PARENTS = new Set<string>(['Application', 'Stream', 'Schema', 'Environment']);

/** The row of `model` with `uid` in the caller's tenant, or null. */
export function parentRow(ctx: RequestContext, model: ParentModel, uid: string | null | undefined): Promise<Row | null> {
  if (!uid) return Promise.resolve(null);
  return memo(ctx, `${model}:${uid}`, () => ctx.models.data.readByUid(ctx.models[model], uid, ctx.principal.tenant.uid, ctx.transaction));
}

/**
 * As parentRow, for a read in `transaction`, which may be another than the request's own (the wizard's per-topic
 * one, whose new rows only it sees): the row the request already read, else read in that transaction.
 */
export function parentRowIn(ctx: RequestContext, model: ParentModel, uid: string | null | undefined, transaction?: Transaction): Promise<Row | null> {
  if (!uid) return Promise.resolve(null);
  if (transaction === ctx.transaction) return parentRow(ctx, model, uid);
  return peek<Row | null>(ctx, `${model}:${uid}`) ?? ctx.models.data.readByUid(ctx.models[model], uid, ctx.principal.tenant.uid, transaction);
}

/** Rows just read in this request: later checks use them. */
export function primeParentRows(ctx: RequestContext, rows: Row[]): void {
  for (const row of rows) {
    const model = (row.constructor as { name?: string }).name ?? '';
    if (PARENTS.has(model)) remember(ctx, `${model}:${row.uid}`, row);
  }
}
