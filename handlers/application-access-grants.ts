import { Op } from 'sequelize';
import { awaitingDecisionWhere, grantPolicy, ofMyApplicationsWhere } from '../auth/policies/access';
import { primeParentRows } from '../auth/parent-rows';
import type { Row } from '../models/define';
import { GRANT_STATUSES } from '../core/rules/grant-state';
import { parseInstant } from '../core/rules/access-duration';
import { matchEnum } from '../core/rules/loose-enum';
import type { RequestContext } from '../core/context';
import { readsItem, renderOne } from './_lib/crud';
import { BadRequestError, ForbiddenError } from '../core/errors';
import { validatorHeaders } from './_lib/etag';
import { itemHref, link, timestamp } from '../core/hal';
import { mutate } from './_lib/mutation';
import { hal, noContent, plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible, loadRelated, resolveRequiredBodyRef, type Related } from './_lib/store';
import { applicationResource } from './applications';
import { grantSearchItems, plainGrant } from './dto/grant';
import { inEffect, instant } from './dto/grant-expiry';
import { environmentResource } from './environments';
import { actOnGrant, mayRequest, requestGrant, type GrantParts } from './grants/workflow';
import { streamResource } from './streams';

const ACCESS_TYPES = ['CONSUMER', 'PRODUCER'];
const titleCase = (v: unknown) => (typeof v === 'string' ? v.charAt(0) + v.slice(1).toLowerCase() : v);

/** Query values of an enum, matched like enum input everywhere (docs/contract.md §4.3); unknown → 400 naming the parameter. */
function enumArg(name: string, values: string[], allowed: readonly string[]): string[] {
  return values.map((v) => {
    const hit = matchEnum(allowed, v);
    if (!hit) throw new BadRequestError([`${name}: must be one of ${allowed.join(', ')}`], [{ field: name, message: `must be one of ${allowed.join(', ')}`, rejectedValue: v }]);
    return hit;
  });
}

/** `expiringBefore`: an instant; grants without an end never match. */
function instantArg(name: string, value: unknown): Date {
  const parsed = parseInstant(value);
  if (parsed.ok) return parsed.value;
  throw new BadRequestError([`${name}: ${parsed.message}`], [{ field: name, message: parsed.message, rejectedValue: value }]);
}

/** A boolean query flag, `true` once the document's validation has coerced it (anything but true or false is its 400). */
const flagArg = (value: unknown): boolean => value === true || value === 'true';

export const grantResource: Resource<'application_access_grants', 'findByAttributes'> = {
  collection: 'application_access_grants',
  itemRel: 'applicationAccessGrant',
  model: (m) => m.ApplicationAccessGrant,
  auditType: 'Application',
  auditName: (row) => row.uid,
  fields: [
    { name: 'status', readOnly: true },
    // Title case on the HAL item only (docs/contract.md §4.3); the plain reply and the search keep CONSUMER/PRODUCER.
    { name: 'accessType', readOnly: true, output: titleCase },
    { name: 'comment', readOnly: true },
    { name: 'requestedBy', readOnly: true },
    { name: 'processedBy', readOnly: true },
    { name: 'requested_at', attribute: 'requestedAt', readOnly: true, output: timestamp },
    { name: 'processed_at', attribute: 'processedAt', readOnly: true, output: timestamp },
    { name: 'expiresAt', readOnly: true, output: instant },
  ],
  computed: (row) => ({ id: row.uid, pending: row.status === 'Pending', approved: inEffect(row) }),
  associations: [
    { rel: 'application', target: () => applicationResource, many: false, attribute: 'applicationUid', required: true, immutable: true },
    { rel: 'stream', target: () => streamResource, many: false, attribute: 'streamUid', required: true, immutable: true },
    { rel: 'environment', target: () => environmentResource, many: false, attribute: 'environmentUid', required: true, immutable: true },
  ],
  searches: [
    {
      name: 'findByAttributes',
      params: [
        { name: 'streamId', ref: () => streamResource },
        { name: 'applicationId', ref: () => applicationResource },
        { name: 'environmentId', ref: () => environmentResource },
        { name: 'accessType' },
        { name: 'statuses', many: true },
        { name: 'expiringBefore' },
        { name: 'awaitingMyDecision' },
        { name: 'myApplications' },
      ],
      where: async (a, ctx) => ({
        [Op.and]: [
          flagArg(a.awaitingMyDecision) ? await awaitingDecisionWhere(ctx) : {},
          flagArg(a.myApplications) ? await ofMyApplicationsWhere(ctx) : {},
          a.streamId ? { streamUid: (a.streamId as Row).uid } : {},
          a.applicationId ? { applicationUid: (a.applicationId as Row).uid } : {},
          a.environmentId ? { environmentUid: (a.environmentId as Row).uid } : {},
          a.accessType ? { accessType: enumArg('accessType', [a.accessType], ACCESS_TYPES)[0] } : {},
          a.statuses ? { status: enumArg('statuses', a.statuses, GRANT_STATUSES) } : {},
          a.expiringBefore ? { expiresAt: { [Op.lt]: instantArg('expiringBefore', a.expiringBefore) } } : {},
        ],
      }),
      render: { rel: 'applicationAccessGrantResponses', items: grantSearchItems },
    },
  ],
  policy: grantPolicy,
  links: (row, ctx) => ({ applicationAccess: link(itemHref(ctx.base, 'application_access', row.accessUid)) }),
};

const mayCreate = async (ctx: RequestContext) => {
  if (!(await grantPolicy.canCreate(ctx))) throw new ForbiddenError('You may not request application access');
};

/** docs/contract.md §5.14: the request answers the plain grant (not HAL), which the Terraform provider decodes. */
export const createApplicationAccessGrant = replacesGeneric(withPrecheck(async (ctx) => {
  await mayCreate(ctx);
  const body = ctx.body as { applicationId: unknown; streamId: unknown; environmentId: unknown; accessType: string; expiresAt?: unknown; validFor?: unknown };
  const application = await resolveRequiredBodyRef(applicationResource, ctx, 'applicationId', body.applicationId);
  const stream = await resolveRequiredBodyRef(streamResource, ctx, 'streamId', body.streamId);
  const environment = await resolveRequiredBodyRef(environmentResource, ctx, 'environmentId', body.environmentId);
  await mayRequest(ctx, application);
  const grant = await mutate(ctx, async (transaction) => {
    const expiry = { expiresAt: body.expiresAt, validFor: body.validFor };
    const made = await requestGrant(ctx, { application, stream, environment, accessType: body.accessType, expiry }, transaction);
    return { result: made.grant, audit: made.audit };
  });
  return plain(await plainGrant(ctx, grant), 201, { Location: itemHref(ctx.base, grantResource.collection, grant.uid), ...validatorHeaders(grant) });
}, mayCreate));

const reasonOf = (ctx: RequestContext): string | null | undefined => (ctx.body as { reason?: string | null } | undefined)?.reason;

/**
 * The visible grant and what it names. Its application, stream and environment never change (immutable
 * references): read with the caller, they serve the rights, the audit entry and the reply.
 */
async function grantWithParts(ctx: RequestContext): Promise<{ grant: Row; related: Related; parts?: GrantParts }> {
  const grant = await findVisible(grantResource, ctx, ctx.params.id);
  const related = await loadRelated(grantResource, [grant], ctx);
  const of = related.get(grant.uid);
  const [application, stream, environment] = (['application', 'stream', 'environment'] as const).map((rel) => of?.get(rel) as Row | null | undefined);
  if (!application || !stream || !environment) return { grant, related };
  primeParentRows(ctx, [application, stream, environment]);
  return { grant, related, parts: { application, stream, environment } };
}

/** approve, deny and revoke answer the grant as it is now. */
const decision = (action: 'approve' | 'deny' | 'revoke'): Handler => readsItem(grantResource, async (ctx: RequestContext) => {
  const { grant, related, parts } = await grantWithParts(ctx);
  await actOnGrant(ctx, grant, action, action === 'approve' ? undefined : reasonOf(ctx), parts);
  return hal(await renderOne(grantResource, grant, ctx, undefined, related), 200, validatorHeaders(grant));
});

export const approveApplicationAccessGrant = decision('approve');
export const denyApplicationAccessGrant = decision('deny');
export const revokeApplicationAccessGrant = decision('revoke');

/** Cancel keeps the row; a grant that is already over is left as it is (204 all the same). */
export const cancelApplicationAccessGrant: Handler = readsItem(grantResource, async (ctx: RequestContext) => {
  const { grant, parts } = await grantWithParts(ctx);
  await actOnGrant(ctx, grant, 'cancel', undefined, parts);
  return noContent();
});
