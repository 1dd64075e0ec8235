/** The one write path: a transaction at the use-case boundary, with its audit entries and notifications written inside it. */
import type { Transaction } from 'sequelize';
import { writeAudit, type AuditActor, type AuditEntry } from '../../models/audit-event';
import { forgetMemos } from '../../core/request-memo';
import { enqueue } from '../../models/notification';
import { notificationsFor } from './notify';
import type { RequestContext } from '../../core/context';

export interface Mutation<T> { result: T; audit: AuditEntry[] }

/** Who an entry names: the caller, in its tenant. */
export function auditActor(ctx: RequestContext): AuditActor {
  const p = ctx.principal;
  return { tenantUid: p.tenant.uid, tenant: p.tenant.shortName, actor: p.email, actorName: p.fullName };
}

/**
 * `keepMemos`: the write changes nothing the permission checks read (memberships, ownership, the parent rows of
 * auth/parent-rows: a grant's move changes only the grant), so the reply's links use what they read before it.
 */
export async function mutate<T>(ctx: RequestContext, work: (transaction: Transaction) => Promise<Mutation<T>>, options: { keepMemos?: boolean } = {}): Promise<T> {
  const outer = ctx.transaction;
  try {
    return await ctx.models.sequelize.transaction(async (transaction) => {
      ctx.transaction = transaction;
      const { result, audit } = await work(transaction);
      await writeAudit(ctx.models, auditActor(ctx), audit, transaction);
      // What the change tells people: written with it, sent after it commits (server/notification-dispatch).
      await enqueue(ctx.models.Notification, await notificationsFor(ctx, audit, transaction), transaction);
      return result;
    });
  } finally {
    ctx.transaction = outer;
    // What the checks memoised, and the row read with the caller, may be what this write changed: the reply's
    // links read it again, and so does a run again after a collision (handlers/_lib/conflict-retry).
    if (!options.keepMemos) forgetMemos(ctx);
    ctx.prefetched = undefined;
  }
}
