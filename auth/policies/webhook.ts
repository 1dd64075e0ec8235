/**
 * Webhook endpoints (issue 44) are a tenant admin's alone: their URLs may carry a receiver's token, so nobody else
 * sees them (an item answers 404, a listing is empty), and only tenant admins change them.
 */
import type { Policy } from '../policy';
import { isTenantAdmin } from '../permissions';

export const webhookPolicy: Policy = {
  canCreate: isTenantAdmin,
  canEdit: isTenantAdmin,
  canDelete: isTenantAdmin,
  // Matches no row: a uid is never NULL.
  visible: (ctx) => (isTenantAdmin(ctx) ? undefined : { uid: null }),
  sees: (ctx) => isTenantAdmin(ctx),
};
