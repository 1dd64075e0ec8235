/**
 * `/webhooks` (issue 44): a tenant admin's notification endpoints, served by the generic layer from the descriptor
 * below, plus the secret's rotation and the endpoint's deliveries. The signing secret is made here, sealed by the
 * secret box, answered once (on create and on rotation) and never rendered, audited or logged. Changes are audited
 * under the caller's Tenant (docs/contract.md §8) with the endpoint in `details.webhook`.
 */
import { webhookPolicy } from '../auth/policies/webhook';
import { parseDuration, endOf } from '../core/rules/access-duration';
import { checkWebhookUrl } from '../core/rules/webhook-address';
import type { RequestContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import { link } from '../core/hal';
import type { Row } from '../models/define';
import { deliveriesOf, type Delivery } from '../models/webhook';
import { newWebhookSecret } from '../providers/webhook';
import { checkIfMatch } from './_lib/etag';
import { mutate } from './_lib/mutation';
import { COUNT_WINDOW, pageInfo, pagingLinks, parsePage } from './_lib/paging';
import { hal, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible } from './_lib/store';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Values of one create, kept for its 201 reply only: the new secret. */
const revealed = new WeakMap<RequestContext, Record<string, unknown>>();

function checkUrl(ctx: RequestContext, values: Record<string, any>): void {
  if (values.url === undefined) return;
  const n = ctx.deps.config.notifications;
  const problem = checkWebhookUrl(String(values.url), { allowHttp: n.webhookAllowHttp, allowPrivate: n.webhookAllowPrivate });
  if (problem) throw new BadRequestError([`url: ${problem}`], [{ field: 'url', message: problem, rejectedValue: values.url }]);
}

const asTenant = (row: Row, ctx: RequestContext) => ({
  resourceName: ctx.principal.tenant.name as string,
  resourceId: ctx.principal.tenant.uid as string,
  details: { webhook: { uid: row.uid, url: row.url } },
});

export const webhookResource: Resource<'webhooks', never> = {
  collection: 'webhooks',
  itemRel: 'webhook',
  model: (m) => m.Webhook,
  auditType: 'Tenant',
  auditName: (row) => row.url,
  auditAs: asTenant,
  fields: [
    { name: 'url' },
    { name: 'events', kind: 'list' },
    { name: 'active', default: () => true, input: (v) => v ?? true },
  ],
  associations: [],
  searches: [],
  policy: webhookPolicy,
  check: (ctx, values) => checkUrl(ctx, values),
  onCreate: (ctx, values) => {
    const secret = newWebhookSecret();
    values.secret = ctx.deps.secrets.seal(secret);
    revealed.set(ctx, { secret });
  },
  reveal: (ctx) => revealed.get(ctx),
  computed: (row) => ({ previousSecretValidUntil: stillSigning(row, new Date()) ? iso(row.previousSecretUntil as Date) : null }),
  links: (row, ctx, self) => ({
    deliveries: link(`${self}/deliveries`),
    ...(webhookPolicy.sees!(ctx, row) ? { rotateSecret: link(`${self}/secret`) } : {}),
  }),
};

const stillSigning = (row: Row, now: Date) => !!row.previousSecret && !!row.previousSecretUntil && (row.previousSecretUntil as Date).getTime() > now.getTime();

/** The overlap asked for: an ISO-8601 duration from now, at most seven days; PT24H when none is given. */
function overlapEnd(body: unknown, now: Date): Date {
  const raw = (body as { overlap?: unknown } | null | undefined)?.overlap ?? 'PT24H';
  // No overlap at all: the previous secret stops with this call (a duration parser of access times refuses zero).
  if (typeof raw === 'string' && /^P(T0+[HMS]|0+[YMWD])$/i.test(raw.trim())) return now;
  const parsed = parseDuration(raw);
  const end = parsed.ok ? endOf(now, parsed.value) : null;
  const refuse = (message: string) => new BadRequestError([`overlap: ${message}`], [{ field: 'overlap', message, rejectedValue: raw }]);
  if (!parsed.ok) throw refuse(parsed.message);
  if (end && end.getTime() - now.getTime() > 7 * 24 * 3600_000) throw refuse('must be at most P7D');
  return end ?? now;
}

async function rotatable(ctx: RequestContext): Promise<Row> {
  const row = await findVisible(webhookResource, ctx, ctx.params.id);
  checkIfMatch(ctx, row);
  return row;
}

/** `POST /webhooks/{id}/secret`: a new secret, the previous one signing beside it until the overlap ends. */
export const rotateWebhookSecret: Handler = withPrecheck(async (ctx) => {
  const row = await rotatable(ctx);
  const now = new Date();
  const until = overlapEnd(ctx.body, now);
  const secret = newWebhookSecret();
  const overlaps = until.getTime() > now.getTime();
  await mutate(ctx, async (transaction) => {
    await row.update({
      secret: ctx.deps.secrets.seal(secret), previousSecret: overlaps ? row.secret : null, previousSecretUntil: overlaps ? until : null,
      modifiedBy: ctx.principal.email,
    }, { transaction });
    const as = asTenant(row, ctx);
    return { result: undefined, audit: [{ action: 'UPDATED', resourceType: 'Tenant', resourceName: as.resourceName, resourceId: as.resourceId, details: { ...as.details, secret: '***' } }] };
  });
  return hal({ secret, previousSecretValidUntil: overlaps ? iso(until) : null, _links: { webhook: link(`${ctx.base}/webhooks/${row.uid}`) } });
}, rotatable);

const deliveryBody = (d: Delivery) => ({
  id: d.uid, event: d.event, status: d.status, attempts: d.attempts, createdAt: iso(d.createdAt), lastAttemptAt: iso(d.lastAttemptAt),
  lastStatus: d.lastStatus, lastError: d.lastError, nextAttemptAt: d.status === 'pending' ? iso(d.dueAt) : null, sentAt: iso(d.sentAt),
});

/** `GET /webhooks/{id}/deliveries`: newest first, each with its last attempt. */
export const listWebhookDeliveries: Handler = withPrecheck(async (ctx) => {
  const row = await findVisible(webhookResource, ctx, ctx.params.id);
  const page = parsePage({ page: ctx.query.page, size: ctx.query.size }, {});
  const { rows, total, capped } = await deliveriesOf(ctx.models.Notification, row.uid as string, page, COUNT_WINDOW);
  const info = pageInfo(page, total);
  return hal({
    _embedded: { deliveries: rows.map(deliveryBody) },
    _links: pagingLinks(`${ctx.base}/webhooks/${row.uid}/deliveries`, [], page, info, capped),
    page: info,
  });
}, (ctx) => findVisible(webhookResource, ctx, ctx.params.id));
