/**
 * `/users/{id}/lockout`: the embedded issuer's brute-force detection of one account, read and cleared by tenant
 * admins (docs/contract.md §5.2). The rules are auth/brute-force.ts; the count is `login_failures`.
 */
import { lockoutView } from '../auth/brute-force';
import type { RequestContext } from '../core/context';
import { link, timestamp } from '../core/hal';
import { clearLoginFailures, findLoginFailure } from '../models/login-failure';
import { mutate } from './_lib/mutation';
import { signInManagedUser } from './_lib/sign-in-state';
import { hal, noContent, withPrecheck, type Handler } from './_lib/reply';

const managed = (ctx: RequestContext) => signInManagedUser(ctx, 'Only a tenant admin may see or clear a sign-in lockout');

export const getUserLockout: Handler = withPrecheck(async (ctx) => {
  const user = await managed(ctx);
  const state = await findLoginFailure(ctx.models.LoginFailure, user.uid);
  const view = lockoutView(state ?? undefined, new Date(), ctx.deps.config.lockout);
  const self = `${ctx.base}/users/${user.uid}`;
  return hal({
    locked: view.locked,
    failures: view.failures,
    lastFailureAt: timestamp(view.lastFailureAt),
    lockedUntil: timestamp(view.lockedUntil),
    _links: { self: link(`${self}/lockout`), user: link(self) },
  });
}, managed);

/**
 * Clearing is an UPDATED of the User: the specification's audit actions have none of its own. The change is recorded
 * as any field's is, `{lockout: {old, new}}`: the count and the lock as they were and as they are now.
 */
export const deleteUserLockout: Handler = withPrecheck(async (ctx) => {
  const user = await managed(ctx);
  await mutate(ctx, async (transaction) => {
    const state = await findLoginFailure(ctx.models.LoginFailure, user.uid, transaction);
    if (!state || !(await clearLoginFailures(ctx.models.LoginFailure, user.uid, transaction))) return { result: undefined, audit: [] };
    const lockout = { old: { failures: state.failures, lockedUntil: timestamp(state.lockedUntil) }, new: { failures: 0, lockedUntil: null } };
    return {
      result: undefined,
      audit: [{ action: 'UPDATED', resourceType: 'User', resourceName: user.email, resourceId: user.uid, details: { lockout } }],
    };
  });
  return noContent();
}, managed);
