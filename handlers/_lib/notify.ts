/**
 * The notifications a change sends (issue 44), decided from its audit entries inside its transaction: an access
 * request and each decision on it. Nothing at all when the tenant's `notificationsEnabled` setting is not "true"
 * (the default), so a tenant without notifications pays one comparison per write. The words and recipients are
 * core/rules/notification-events'; the rows go to the outbox (models/notification), delivered after the commit.
 */
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../../core/context';
import type { Row } from '../../core/row';
import { messageOf, recipientsOf, type AccessFacts, type NotificationEvent, type Person, type Team } from '../../core/rules/notification-events';
import type { AuditEntry } from '../../models/audit-event';
import type { Outgoing } from '../../models/notification';

const EVENTS: Record<string, NotificationEvent> = {
  APPLICATION_ACCESS_REQUESTED: 'access.requested',
  APPLICATION_ACCESS_APPROVED: 'access.approved',
  APPLICATION_ACCESS_DENIED: 'access.denied',
  APPLICATION_ACCESS_REVOKED: 'access.revoked',
  APPLICATION_ACCESS_CANCELLED: 'access.cancelled',
};

export function notificationsEnabled(tenant: Row): boolean {
  const settings = tenant.settings as Record<string, unknown> | null | undefined;
  return settings?.notificationsEnabled === 'true';
}

const personOf = (user: Row | null | undefined, email?: string | null): Person =>
  (user ? { name: `${user.firstName} ${user.lastName}`.trim(), email: (user.email as string | null) ?? null } : { name: email ?? 'Someone', email: email ?? null });

async function teamOf(ctx: RequestContext, groupUid: string | null, transaction: Transaction): Promise<Team> {
  const m = ctx.models;
  const group = groupUid ? await m.Group.findByPk(groupUid, { transaction }) : null;
  if (!group) return { name: 'the owners', email: null, members: [] };
  const links = await m.GroupMember.findAll({ where: { sourceUid: group.uid }, transaction });
  const users = links.length ? await m.User.findAll({ where: { uid: links.map((l) => l.get('targetUid') as string) }, transaction }) : [];
  return { name: group.name as string, email: (group.email as string | null) ?? null, members: users.map((u) => personOf(u as unknown as Row)) };
}

async function accessFacts(ctx: RequestContext, grantUid: string, entry: AuditEntry, transaction: Transaction): Promise<AccessFacts | null> {
  const m = ctx.models;
  const grant = await m.ApplicationAccessGrant.findByPk(grantUid, { transaction });
  if (!grant) return null;
  // One statement at a time: a transaction's connection runs them in turn.
  const application = await m.Application.findByPk(grant.get('applicationUid') as string, { transaction });
  const stream = await m.Stream.findByPk(grant.get('streamUid') as string, { transaction });
  const environment = await m.Environment.findByPk(grant.get('environmentUid') as string, { transaction });
  if (!application || !stream || !environment) return null;
  const requestedBy = grant.get('requestedBy') as string | null;
  const requester = requestedBy ? await m.User.findOne({ where: { tenantUid: ctx.principal.tenant.uid, email: requestedBy }, transaction }) : null;
  // An environment that approves by itself: the platform decided, not the caller.
  const auto = entry.details?.auto === true;
  const actor = auto ? null : await m.User.findOne({ where: { tenantUid: ctx.principal.tenant.uid, email: ctx.principal.email }, transaction });
  return {
    kind: 'access',
    stream: { uid: stream.uid as string, name: stream.name as string },
    application: { uid: application.uid as string, name: application.name as string, shortName: application.shortName as string },
    environment: { name: environment.name as string, shortName: environment.shortName as string },
    accessType: grant.get('accessType') as 'CONSUMER' | 'PRODUCER',
    streamOwners: await teamOf(ctx, stream.ownersUid as string | null, transaction),
    applicationOwners: await teamOf(ctx, application.ownersUid as string | null, transaction),
    requester: requestedBy ? personOf(requester as unknown as Row | null, requestedBy) : null,
    actor: auto ? null : personOf(actor as unknown as Row | null, ctx.principal.email),
    reason: (grant.get('comment') as string | null) ?? null,
    expiresAt: (grant.get('expiresAt') as Date | null) ?? null,
  };
}

/** The outbox rows for a change's audit entries: one per recipient of each event, none when the tenant has them off. */
export async function notificationsFor(ctx: RequestContext, audit: AuditEntry[], transaction: Transaction): Promise<Outgoing[]> {
  if (!notificationsEnabled(ctx.principal.tenant)) return [];
  const out: Outgoing[] = [];
  for (const entry of audit) {
    const event = EVENTS[entry.action];
    const grantUid = entry.details?.grant;
    if (!event || typeof grantUid !== 'string') continue;
    const facts = await accessFacts(ctx, grantUid, entry, transaction);
    if (!facts) continue;
    const message = messageOf(event, facts, ctx.deps.publicRoot());
    const { to } = recipientsOf(event, facts);
    for (const person of to) {
      out.push({
        tenantUid: ctx.principal.tenant.uid as string, event, channel: 'email', recipient: person.email!,
        payload: JSON.stringify({ to: { name: person.name, email: person.email }, subject: message.subject, text: message.text, html: message.html }),
      });
    }
  }
  return out;
}
