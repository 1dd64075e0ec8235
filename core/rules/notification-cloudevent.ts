/**
 * A webhook delivery's body (issue 44): the event as a CloudEvents 1.0 event in structured JSON mode, its `data`
 * the facts a receiver acts on (the OpenAPI document's NotificationEvent). Pure: ids, times and the roots come in.
 * Owners' member lists and addresses stay out: a receiver learns what happened, not who is in which group.
 */
import type { NotificationEvent, NotificationFacts } from './notification-events';

export interface EventEnvelope {
  /** The event's own id: the same for every endpoint it goes to. */
  id: string;
  /** The service's API root. */
  source: string;
  time: Date;
  tenant: string;
  /** The portal page where a person acts on it. */
  link: string;
  /** The grant or deployment the event is about. */
  subject: string;
}

export const CLOUDEVENT_TYPE_PREFIX = 'platform.';

export function cloudEventOf(event: NotificationEvent, facts: NotificationFacts, e: EventEnvelope): Record<string, unknown> {
  const common = {
    event,
    tenant: e.tenant,
    application: { uid: facts.application.uid, name: facts.application.name, shortName: facts.application.shortName },
    environment: { uid: facts.environment.uid, name: facts.environment.name, shortName: facts.environment.shortName },
    actor: facts.actor ? { name: facts.actor.name, email: facts.actor.email } : null,
    link: e.link,
  };
  const data = facts.kind === 'access'
    ? {
      ...common, stream: { uid: facts.stream.uid, name: facts.stream.name }, accessType: facts.accessType, grant: e.subject,
      reason: facts.reason ?? null, expiresAt: facts.expiresAt ? facts.expiresAt.toISOString() : null,
    }
    : { ...common, deployment: e.subject, error: facts.error ?? null };
  return {
    specversion: '1.0', id: e.id, source: e.source, type: `${CLOUDEVENT_TYPE_PREFIX}${event}`, subject: e.subject,
    time: e.time.toISOString(), datacontenttype: 'application/json', data,
  };
}
