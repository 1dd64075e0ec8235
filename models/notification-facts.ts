/**
 * The outbox rows an event makes (issue 44), read in the transaction of the change it tells about: the facts of a
 * grant or a deployment (names, owners, the requester, who did it), then one mail per recipient
 * (core/rules/notification-events) and one webhook call per active endpoint of the tenant subscribed to the event
 * (core/rules/notification-cloudevent). Nothing at all when the tenant's `notificationsEnabled` is not "true". The
 * request path (handlers/_lib/notify) and the expiry sweep (models/grant-expiry) both come here.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { recipientsSkipped } from '../core/observe';
import { cloudEventOf } from '../core/rules/notification-cloudevent';
import { messageOf, recipientsOf, type AccessFacts, type DeploymentFacts, type NotificationEvent, type NotificationFacts, type Person, type Team } from '../core/rules/notification-events';
import type { Row } from './define';
import type { Models } from './index';
import type { Outgoing } from './notification';
import { endpointsFor } from './webhook';

export interface NotifyScope {
  tenant: Row;
  /** Who did it; null when the platform did (an expiry, an automatic approval, a failed start). */
  actorEmail: string | null;
  /** The service's public root: the portal's pages and the events' `source` hang off it. */
  publicRoot: string;
}

export function notificationsEnabled(tenant: Row): boolean {
  const settings = tenant.settings as Record<string, unknown> | null | undefined;
  return settings?.notificationsEnabled === 'true';
}

const personOf = (user: Row | null | undefined, email?: string | null): Person =>
  (user ? { name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || (user.email as string), email: (user.email as string | null) ?? null } : { name: email ?? 'Someone', email: email ?? null });

// One statement at a time throughout: a transaction's connection runs them in turn.
async function teamOf(models: Models, groupUid: string | null, transaction: Transaction): Promise<Team> {
  const group = groupUid ? await models.Group.findByPk(groupUid, { transaction }) : null;
  if (!group) return { name: 'the owners', email: null, members: [] };
  const links = await models.GroupMember.findAll({ where: { sourceUid: group.uid }, transaction });
  const users = links.length ? await models.User.findAll({ where: { uid: links.map((l) => l.get('targetUid') as string) }, transaction }) : [];
  return { name: group.name as string, email: (group.email as string | null) ?? null, members: users.map((u) => personOf(u as unknown as Row)) };
}

async function personByEmail(models: Models, tenantUid: string, email: string | null, transaction: Transaction): Promise<Person | null> {
  if (!email) return null;
  const user = await models.User.findOne({ where: { tenantUid, email }, transaction });
  return personOf(user as unknown as Row | null, email);
}

async function commonFacts(models: Models, scope: NotifyScope, applicationUid: string, environmentUid: string, transaction: Transaction) {
  const application = await models.Application.findByPk(applicationUid, { transaction });
  const environment = await models.Environment.findByPk(environmentUid, { transaction });
  if (!application || !environment) return null;
  return {
    application: { uid: application.uid as string, name: application.name as string, shortName: application.shortName as string },
    environment: { uid: environment.uid as string, name: environment.name as string, shortName: environment.shortName as string },
    applicationOwners: await teamOf(models, application.ownersUid as string | null, transaction),
    actor: await personByEmail(models, scope.tenant.uid as string, scope.actorEmail, transaction),
  };
}

/** The mails and webhook calls of one event. */
async function outgoing(models: Models, scope: NotifyScope, event: NotificationEvent, facts: NotificationFacts, subject: string, transaction: Transaction): Promise<Outgoing[]> {
  const tenantUid = scope.tenant.uid as string;
  const message = messageOf(event, facts, scope.publicRoot);
  const recipients = recipientsOf(event, facts);
  if (recipients.skipped > 0) recipientsSkipped(recipients.skipped);
  const out: Outgoing[] = recipients.to.map((person) => ({
    tenantUid, event, channel: 'email', recipient: person.email!,
    payload: JSON.stringify({ to: { name: person.name, email: person.email }, subject: message.subject, text: message.text, html: message.html }),
  }));
  const endpoints = await endpointsFor(models.Webhook, tenantUid, event, transaction);
  if (endpoints.length > 0) {
    const body = JSON.stringify(cloudEventOf(event, facts, {
      id: randomUUID().replace(/-/g, ''), source: `${scope.publicRoot.replace(/\/+$/, '')}/api`, time: new Date(),
      tenant: scope.tenant.shortName as string, link: message.link, subject,
    }));
    for (const uid of endpoints) out.push({ tenantUid, event, channel: 'webhook', recipient: uid, payload: body });
  }
  return out;
}

/** The rows of an access event about `grantUid`. */
export async function accessNotifications(models: Models, scope: NotifyScope, event: NotificationEvent, grantUid: string, transaction: Transaction): Promise<Outgoing[]> {
  if (!notificationsEnabled(scope.tenant)) return [];
  const grant = await models.ApplicationAccessGrant.findByPk(grantUid, { transaction });
  if (!grant) return [];
  const common = await commonFacts(models, scope, grant.get('applicationUid') as string, grant.get('environmentUid') as string, transaction);
  const stream = await models.Stream.findByPk(grant.get('streamUid') as string, { transaction });
  if (!common || !stream) return [];
  const facts: AccessFacts = {
    kind: 'access', ...common,
    stream: { uid: stream.uid as string, name: stream.name as string },
    accessType: grant.get('accessType') as 'CONSUMER' | 'PRODUCER',
    streamOwners: await teamOf(models, stream.ownersUid as string | null, transaction),
    requester: await personByEmail(models, scope.tenant.uid as string, grant.get('requestedBy') as string | null, transaction),
    reason: (grant.get('comment') as string | null) ?? null,
    expiresAt: (grant.get('expiresAt') as Date | null) ?? null,
  };
  return outgoing(models, scope, event, facts, grantUid, transaction);
}

/** The rows of a deployment event (`error`: why a start failed). */
export async function deploymentNotifications(models: Models, scope: NotifyScope, event: NotificationEvent, deploymentUid: string, transaction: Transaction, error?: string): Promise<Outgoing[]> {
  if (!notificationsEnabled(scope.tenant)) return [];
  const deployment = await models.ApplicationDeployment.findByPk(deploymentUid, { transaction });
  if (!deployment) return [];
  const common = await commonFacts(models, scope, deployment.get('applicationUid') as string, deployment.get('environmentUid') as string, transaction);
  if (!common) return [];
  const facts: DeploymentFacts = { kind: 'deployment', ...common, error: error ?? null };
  return outgoing(models, scope, event, facts, deploymentUid, transaction);
}
