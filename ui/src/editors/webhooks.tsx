/**
 * Webhook endpoints (tenant admins): where the tenant's notification events are POSTed, which events, and whether
 * deliveries are made. Below the form: the signing secret (shown once, when it is made or rotated) and the
 * endpoint's last deliveries.
 */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import { WebhookDeliveries } from '../components/WebhookDeliveries';
import { WebhookSecret } from '../components/WebhookSecret';
import type { EditorKind } from '../forms/editor-kind';
import { flagOf, listOf, only, textOf, type Values } from '../forms/values';
import { keepRevealed } from './revealed-secrets';

type Webhook = Schemas['Webhook'];
type EventName = Schemas['NotificationEventName'];

/** Every event the API delivers (the record's type makes the list complete), in words and by its wire name. */
const EVENT_WORDS: Record<EventName, string> = {
  'access.requested': 'Access requested',
  'access.approved': 'Access approved',
  'access.denied': 'Access denied',
  'access.revoked': 'Access revoked',
  'access.cancelled': 'Request cancelled',
  'access.expiring': 'Access ends within 7 days',
  'access.expired': 'Access ended',
  'deployment.started': 'Deployment started',
  'deployment.stopped': 'Deployment stopped',
  'deployment.failed': 'Deployment failed to start',
};
export const EVENT_NAMES = Object.keys(EVENT_WORDS) as EventName[];
const EVENTS = EVENT_NAMES.map((value) => ({ value, label: `${EVENT_WORDS[value]} (${value})` }));

function body(v: Values) {
  return { url: textOf(v, 'url'), events: listOf(v, 'events') as EventName[], active: flagOf(v, 'active') };
}

export const webhookEditor: EditorKind<Webhook> = {
  kind: 'webhooks',
  noun: 'webhook',
  fields: [
    { name: 'url', label: 'URL', kind: 'text', required: true, hint: 'Where each event is POSTed, signed: an https address your receiver answers with 2xx.' },
    { name: 'events', label: 'Events', kind: 'many', options: EVENTS },
    { name: 'active', label: 'Active: deliver events to it', kind: 'check', hint: 'While it is not, events due to it are not delivered.' },
  ],
  blank: () => ({ url: '', events: [...EVENT_NAMES], active: true }),
  valuesOf: (w) => ({ url: w.url, events: w.events, active: w.active }),
  titleOf: (w) => w.url,
  load: (uid) => api.GET('/webhooks/{id}', { params: { path: { id: uid } } }),
  // The answer carries the signing secret, this once: kept for the new endpoint's page, which shows it.
  create: async (v, headers) => {
    const answer = await api.POST('/webhooks', { body: body(v), headers });
    if (answer.data) keepRevealed(answer.data.uid, answer.data.secret);
    return answer;
  },
  update: (uid, v, changed, headers) => api.PATCH('/webhooks/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/webhooks/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/edit/webhooks/${uid}`,
  listAt: '/admin/notifications',
  more: (webhook, etag, reload) => (
    <>
      <WebhookSecret webhook={webhook} etag={etag} reload={reload} />
      <WebhookDeliveries uid={webhook.uid} />
    </>
  ),
};
