/**
 * `/users/{id}/sessions`: a tenant admin signs a user out of every browser (docs/contract.md §5.2): the embedded
 * issuer's sessions of the user end, and their refresh-token families with them (models/issuer-state).
 */
import type { RequestContext } from '../core/context';
import { mutate } from './_lib/mutation';
import { signInManagedUser } from './_lib/sign-in-state';
import { noContent, withPrecheck, type Handler } from './_lib/reply';

/** Who may clear a lockout may end sessions. */
const managed = (ctx: RequestContext) => signInManagedUser(ctx, "Only a tenant admin may end a user's sessions");

/** An UPDATED of the User, as the specification's audit actions have none of their own: `{sessions: {old: n, new: 0}}`. */
export const deleteUserSessions: Handler = withPrecheck(async (ctx) => {
  const user = await managed(ctx);
  await mutate(ctx, async (transaction) => {
    const ended = await ctx.models.IssuerSession.destroy({ where: { userUid: user.uid, tenantUid: ctx.principal.tenant.uid }, transaction });
    if (ended === 0) return { result: undefined, audit: [] };
    return {
      result: undefined,
      audit: [{ action: 'UPDATED', resourceType: 'User', resourceName: user.email, resourceId: user.uid, details: { sessions: { old: ended, new: 0 } } }],
    };
  });
  return noContent();
}, managed);


