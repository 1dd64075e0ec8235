/**
 * Tenants (docs/contract.md §5.1, §7): everyone sees its own tenant, SUPER_ADMIN sees all of them (another tenant is 404
 * for anyone else). SUPER_ADMIN creates and deletes tenants and, holding tenant CRUD, may also edit any of them;
 * a TENANT_ADMIN edits only its own tenant (its contacts included) and runs the import wizard there.
 */
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { isSuperAdmin, isTenantAdmin } from '../permissions';

export const isOwnTenant = (ctx: RequestContext, row: Row) => row.uid === ctx.principal.tenant.uid;

/** TENANT_ADMIN of this very tenant, or any SUPER_ADMIN. */
export const canEditTenant = (ctx: RequestContext, row: Row) => isSuperAdmin(ctx) || (isTenantAdmin(ctx) && isOwnTenant(ctx, row));

/** Providers and the import wizard: TENANT_ADMIN of its own tenant only (docs/contract.md §10), SUPER_ADMIN included. */
export const canRunWizard = (ctx: RequestContext, row: Row) => isTenantAdmin(ctx) && isOwnTenant(ctx, row);

/** SUPER_ADMIN sees every tenant; everyone else only its own. */
export const tenantVisibility = (ctx: RequestContext) => (isSuperAdmin(ctx) ? undefined : { uid: ctx.principal.tenant.uid });

export const tenantPolicy: Policy = {
  canCreate: isSuperAdmin,
  canEdit: canEditTenant,
  canDelete: isSuperAdmin,
  visible: tenantVisibility,
  actions: { TENANT_WIZARD: canRunWizard },
};
