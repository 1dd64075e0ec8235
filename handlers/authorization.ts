/** `GET /auth` (docs/contract.md §7.1): the permission model answering for other services. */
import { parseQuestion, type ResourceType } from '../auth/actions';
import type { RequestContext } from '../core/context';
import { BadRequestError, ForbiddenError } from '../core/errors';
import type { Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible } from './_lib/store';
import { clusterResource } from './clusters';
import { environmentResource } from './environments';
import { groupResource } from './groups';
import { instanceResource } from './instances';
import { tenantResource } from './tenants';
import { userResource } from './users';
import { applicationResource } from './applications';
import { schemaResource } from './schemas';
import { streamResource } from './streams';
import { streamConfigResource } from './stream-configs';
import { schemaVersionResource } from './schema-versions';
import { grantResource } from './application-access-grants';
import { principalResource } from './application-principals';
import { credentialResource } from './application-credentials';
import { deploymentResource } from './application-deployments';

/** Every `/auth` type's resource: its policy answers. */
const RESOURCES: Record<ResourceType, () => Resource> = {
  TENANT: () => tenantResource,
  USER: () => userResource,
  GROUP: () => groupResource,
  INSTANCE: () => instanceResource,
  CLUSTER: () => clusterResource,
  ENVIRONMENT: () => environmentResource,
  APPLICATION: () => applicationResource,
  SCHEMA: () => schemaResource,
  STREAM: () => streamResource,
  STREAM_CONFIG: () => streamConfigResource,
  SCHEMA_VERSION: () => schemaVersionResource,
  APPLICATION_ACCESS_GRANT: () => grantResource,
  APPLICATION_PRINCIPAL: () => principalResource,
  APPLICATION_CREDENTIAL: () => credentialResource,
  APPLICATION_DEPLOYMENT: () => deploymentResource,
};

const single = (v: unknown): string | undefined => {
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
};

async function decide(ctx: RequestContext): Promise<{ allowed: boolean; action: string }> {
  const parsed = parseQuestion(single(ctx.query.action), single(ctx.query.resourceType));
  if (!parsed.ok) {
    throw new BadRequestError([`${parsed.field}: ${parsed.problem}`], [{ field: parsed.field, message: parsed.problem, rejectedValue: ctx.query[parsed.field] ?? null }]);
  }
  const { type, verb, action } = parsed.question;
  const resource = RESOURCES[type]();
  const uid = single(ctx.query.resourceUid);

  if (verb === 'CREATE') {
    // Kinds created under a parent answer for the given parent, which must exist and be visible (else 404).
    const under = resource.policy.canCreateIn;
    if (uid !== undefined && under) {
      return { allowed: await under.allowed(ctx, await findVisible(RESOURCES[under.parent as ResourceType](), ctx, uid)), action };
    }
    return { allowed: await resource.policy.canCreate(ctx), action };
  }
  if (uid === undefined) {
    const message = `is required for ${action}`;
    throw new BadRequestError([`resourceUid: ${message}`], [{ field: 'resourceUid', message, rejectedValue: null }]);
  }
  const row = await findVisible(resource, ctx, uid);
  const { policy } = resource;
  let allowed: boolean;
  if (verb === 'VIEW') allowed = true;
  else if (verb === 'EDIT') allowed = await policy.canEdit(ctx, row);
  // Same answer as the `delete` link: a row the caller may delete in principle but that is never deletable by
  // them (their own user) is refused here, while DELETE itself explains why with 422.
  else if (verb === 'DELETE') allowed = (await policy.canDelete(ctx, row)) && !(await policy.hideDeleteLink?.(ctx, row));
  else allowed = (await policy.actions?.[verb]?.(ctx, row)) ?? false;
  return { allowed, action };
}

export const checkAuthorization: Handler = async (ctx) => {
  const { allowed, action } = await decide(ctx);
  if (!allowed) throw new ForbiddenError(`${action} is not allowed`);
  return { status: 200 };
};
