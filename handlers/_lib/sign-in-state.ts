/** What the sign-in state handlers (handlers/user-lockout, handlers/user-sessions) share. */
import { canManageLockout } from '../../auth/policies/user';
import type { RequestContext } from '../../core/context';
import { ForbiddenError } from '../../core/errors';
import { findVisible } from './store';
import { userResource } from '../users';

/**
 * The user of the path whose sign-in state (lockout, sessions: handlers/user-sessions) a tenant admin manages: 404
 * when not visible (another tenant's too), then 403 with `refusal` for anyone else.
 */
export async function signInManagedUser(ctx: RequestContext, refusal: string) {
  const user = await findVisible(userResource, ctx, ctx.params.id);
  if (!canManageLockout(ctx, user)) throw new ForbiddenError(refusal);
  return user;
}
