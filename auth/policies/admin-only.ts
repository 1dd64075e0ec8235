/** Kinds the whole tenant reads and only tenant admins change: instances, clusters, reference data (docs/contract.md §7). */
import type { Policy } from '../policy';
import { isTenantAdmin } from '../permissions';

export const adminOnlyPolicy: Policy = { canCreate: isTenantAdmin, canEdit: isTenantAdmin, canDelete: isTenantAdmin };
