/**
 * The notifications a change sends (issue 44), decided from its audit entries inside its transaction: an access
 * request and each decision on it, a deployment started or stopped. A tenant without notifications pays one
 * comparison per write. The rows themselves are models/notification-facts'; they go to the outbox
 * (models/notification), delivered after the commit.
 */
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../../core/context';
import type { NotificationEvent } from '../../core/rules/notification-events';
import type { AuditEntry } from '../../models/audit-event';
import { enqueue, type Outgoing } from '../../models/notification';
import { logger } from '../../core/logger';
import { accessNotifications, deploymentNotifications, notificationsEnabled, type NotifyScope } from '../../models/notification-facts';

const ACCESS: Record<string, NotificationEvent> = {
  APPLICATION_ACCESS_REQUESTED: 'access.requested',
  APPLICATION_ACCESS_APPROVED: 'access.approved',
  APPLICATION_ACCESS_DENIED: 'access.denied',
  APPLICATION_ACCESS_REVOKED: 'access.revoked',
  APPLICATION_ACCESS_CANCELLED: 'access.cancelled',
};
const DEPLOYMENT: Record<string, NotificationEvent> = { APPLICATION_STARTED: 'deployment.started', APPLICATION_STOPPED: 'deployment.stopped' };

const notifyScope = (ctx: RequestContext, actorEmail: string | null = ctx.principal.email): NotifyScope =>
  ({ tenant: ctx.principal.tenant, actorEmail, publicRoot: ctx.deps.publicRoot() });

/** The outbox rows for a change's audit entries: one per recipient of each event, none when the tenant has them off. */
export async function notificationsFor(ctx: RequestContext, audit: AuditEntry[], transaction: Transaction): Promise<Outgoing[]> {
  if (!notificationsEnabled(ctx.principal.tenant)) return [];
  const out: Outgoing[] = [];
  for (const entry of audit) {
    const details = entry.details ?? {};
    if (ACCESS[entry.action] && typeof details.grant === 'string') {
      // An environment that approves by itself: the platform decided, not the caller.
      const scope = notifyScope(ctx, details.auto === true ? null : ctx.principal.email);
      out.push(...await accessNotifications(ctx.models, scope, ACCESS[entry.action], details.grant, transaction));
    } else if (DEPLOYMENT[entry.action] && typeof details.deployment === 'string') {
      out.push(...await deploymentNotifications(ctx.models, notifyScope(ctx), DEPLOYMENT[entry.action], details.deployment, transaction));
    }
  }
  return out;
}

/**
 * A start that failed changes nothing, so there is no change's transaction to write in: its notice is written in
 * one of its own. Losing it to a database failure does not hide the refusal the caller gets.
 */
export async function notifyFailedStart(ctx: RequestContext, deploymentUid: string, error: string): Promise<void> {
  if (!notificationsEnabled(ctx.principal.tenant)) return;
  try {
    await ctx.models.sequelize.transaction(async (transaction) => {
      await enqueue(ctx.models.Notification, await deploymentNotifications(ctx.models, notifyScope(ctx), 'deployment.failed', deploymentUid, transaction, error), transaction);
    });
  } catch (err) {
    logger.warn({ err: (err as Error).message, deployment: deploymentUid }, 'the notice of a failed start was not written');
  }
}
