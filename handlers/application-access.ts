import { accessPolicy } from '../auth/policies/access';
import type { Transaction } from 'sequelize';
import type { Row } from '../models/define';
import { associationHandlers, targetsOf } from './_lib/associations';
import type { RequestContext } from '../core/context';
import { renderOne } from './_lib/crud';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors';
import { checkIfMatch } from './_lib/etag';
import { itemHref, link } from '../core/hal';
import { mutate } from './_lib/mutation';
import { hal, noContent, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible, resolveBodyRef } from './_lib/store';
import { isNone } from './_lib/references';
import { grantResource } from './application-access-grants';
import { applicationResource } from './applications';
import { embeddedGrants } from './dto/grant';
import { environmentResource } from './environments';
import { actOnGrant, mayRequest, requestGrant } from './grants/workflow';
import { streamResource } from './streams';

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  if (row) return;
  const application = (await ctx.models.Application.findOne({ where: { uid: values.applicationUid }, transaction }))!;
  await mayRequest(ctx, application);
  const where = { applicationUid: values.applicationUid, streamUid: values.streamUid, accessType: values.accessType };
  if (await ctx.models.ApplicationAccess.findOne({ where, attributes: ['uid'], transaction })) {
    throw new ConflictError(`accessType: application ${application.shortName} already has ${values.accessType} access to that stream; use the existing one`);
  }
}

export const accessResource: Resource<'application_access', 'findByGrantsContaining' | 'findByApplicationAndStream'> = {
  collection: 'application_access',
  itemRel: 'applicationAccess',
  model: (m) => m.ApplicationAccess,
  auditType: 'Application',
  auditName: (row) => row.uid,
  // Filed under the application (docs/contract.md §8), with the access row and its stream in details.
  auditAs: async (row, ctx, transaction) => {
    const application = await ctx.models.Application.findOne({ where: { uid: row.applicationUid }, transaction });
    const stream = await ctx.models.Stream.findOne({ where: { uid: row.streamUid }, transaction });
    return { resourceName: application!.shortName, resourceId: application!.uid, details: { applicationAccess: row.uid, stream: stream!.name } };
  },
  fields: [{ name: 'accessType', immutable: true }],
  associations: [
    { rel: 'application', target: () => applicationResource, many: false, attribute: 'applicationUid', required: true, immutable: true },
    { rel: 'stream', target: () => streamResource, many: false, attribute: 'streamUid', required: true, immutable: true },
    { rel: 'grants', target: () => grantResource, many: true, reverse: 'accessUid', embed: embeddedGrants },
  ],
  searches: [
    {
      name: 'findByGrantsContaining', single: true,
      params: [{ name: 'applicationAccessGrant', required: true, ref: () => grantResource }],
      where: (a) => ({ uid: (a.applicationAccessGrant as Row).accessUid }),
    },
    {
      name: 'findByApplicationAndStream',
      params: [{ name: 'application', required: true, ref: () => applicationResource }, { name: 'stream', required: true, ref: () => streamResource }],
      where: (a) => ({ applicationUid: (a.application as Row).uid, streamUid: (a.stream as Row).uid }),
    },
  ],
  policy: accessPolicy,
  check,
  links: (_row, _ctx, self) => ({ createApplicationAccessGrant: link(`${self}/grants`) }),
};

const a = associationHandlers(accessResource);

/** Environments named by a grants write: `text/uri-list`, URI JSON, compact links, or `{environment}`. */
function environmentRefs(body: unknown): unknown[] {
  const given = body && typeof body === 'object' && !Array.isArray(body) && 'environment' in body ? [(body as { environment: unknown }).environment] : targetsOf(body);
  return given.filter((r) => !isNone(r));
}

/** The access and its application, once the caller is known to edit the application (404 → 403 → 412). */
async function requestable(ctx: RequestContext) {
  const access = await findVisible(accessResource, ctx, ctx.params.id);
  const application = (await ctx.models.Application.findOne({ where: { uid: access.applicationUid } }))!;
  await mayRequest(ctx, application);
  checkIfMatch(ctx, access);
  return { access, application };
}

/** `expiresAt` / `validFor` of a `{environment, …}` body: the end asked of each grant it requests. */
function expiryAsked(body: unknown): { expiresAt?: unknown; validFor?: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const { expiresAt, validFor } = body as { expiresAt?: unknown; validFor?: unknown };
  return { expiresAt, validFor };
}

/** A request per environment, all in one transaction: one refusal refuses them all. */
async function requestIn(ctx: RequestContext, access: Row, application: Row, refs: unknown[]): Promise<Row[]> {
  const expiry = expiryAsked(ctx.body);
  const environments: Row[] = [];
  for (const [i, ref] of refs.entries()) {
    environments.push(await resolveBodyRef(environmentResource, ctx, refs.length === 1 ? 'environment' : `environment[${i}]`, ref));
  }
  const stream = (await ctx.models.Stream.findOne({ where: { uid: access.streamUid } }))!;
  return mutate(ctx, async (transaction) => {
    const grants: Row[] = [];
    const audit = [];
    for (const environment of environments) {
      const made = await requestGrant(ctx, { application, stream, environment, accessType: access.accessType, expiry }, transaction);
      grants.push(made.grant);
      audit.push(...made.audit);
    }
    return { result: grants, audit };
  });
}

const isGrants = (ctx: RequestContext) => ctx.params.rel === 'grants';
const environmentRequired = () => new BadRequestError(['environment: is required'], [{ field: 'environment', message: 'is required', rejectedValue: null }]);

/** `POST {access}/grants` with one environment requests a grant there: 201 with the grant (docs/contract.md §5.13). */
export const addApplicationAccessAssociationTargets = replacesGeneric(async (ctx) => {
  if (!isGrants(ctx)) return a.post(ctx);
  const { access, application } = await requestable(ctx);
  const refs = environmentRefs(ctx.body);
  if (refs.length === 0) throw environmentRequired();
  refuseReason(ctx.body);
  if (refs.length > 1) throw new BadRequestError(['environment: exactly one environment per POST; PUT or PATCH request several']);
  const [grant] = await requestIn(ctx, access, application, refs);
  return hal(await renderOne(grantResource, grant, ctx), 201, { Location: itemHref(ctx.base, grantResource.collection, grant.uid) });
});

/** A request has no reason to keep: `reason` (DELETE's, the grant's comment) is refused rather than dropped. */
function refuseReason(body: unknown): void {
  const reason = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { reason?: unknown }).reason : undefined;
  if (reason === undefined || reason === null) return;
  throw new BadRequestError(['reason: is taken only when revoking or cancelling (DELETE); a request keeps no reason'],
    [{ field: 'reason', message: 'is taken only when revoking or cancelling (DELETE)', rejectedValue: reason }]);
}

/** PUT and PATCH with environment URIs request a grant in each (204). */
const requestMany = (generic: Handler): Handler => async (ctx) => {
  if (!isGrants(ctx)) return generic(ctx);
  const { access, application } = await requestable(ctx);
  const refs = environmentRefs(ctx.body);
  if (refs.length === 0) throw environmentRequired();
  refuseReason(ctx.body);
  await requestIn(ctx, access, application, refs);
  return noContent();
};
export const replaceApplicationAccessAssociation = replacesGeneric(requestMany(a.put));
export const patchApplicationAccessAssociation = replacesGeneric(requestMany(a.patch));

/** `DELETE {access}/grants {reason, environment}`: the open grant there is revoked (Approved) or cancelled (Pending). */
export const deleteApplicationAccessAssociation = replacesGeneric(async (ctx) => {
  if (!isGrants(ctx)) return a.remove(ctx);
  const access = await findVisible(accessResource, ctx, ctx.params.id);
  const body = (ctx.body ?? {}) as { reason?: string | null; environment?: unknown };
  if (isNone(body.environment)) throw environmentRequired();
  const environment = await resolveBodyRef(environmentResource, ctx, 'environment', body.environment);
  const grant = await ctx.models.ApplicationAccessGrant.findOne({
    where: { accessUid: access.uid, environmentUid: environment.uid, status: ['Pending', 'Approved'] },
  });
  if (!grant) throw new NotFoundError(`No open grant of this access in environment ${environment.shortName}`);
  await actOnGrant(ctx, grant, grant.status === 'Approved' ? 'revoke' : 'cancel', body.reason);
  return noContent();
});
