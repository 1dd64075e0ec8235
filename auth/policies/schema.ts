/**
 * Schemas and their versions (docs/contract.md §7): everyone of the tenant sees them. Uploading needs no role unless the
 * tenant sets `schemaRolesEnforced` (then SCHEMA_AUTHOR/ADMIN or tenant admin); a new version of an existing
 * schema needs its owners (anyone when it has none) or SCHEMA_ADMIN. Owners and SCHEMA_ADMIN edit and delete.
 */
import { parentRow } from '../parent-rows';
import type { RequestContext } from '../../core/context';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { canEditOwned, hasRole, ownsGroup } from '../permissions';

export const SCHEMA_ADMIN = 'SCHEMA_ADMIN';

export function mayUpload(ctx: RequestContext): boolean {
  const settings = (ctx.principal.tenant.settings ?? {}) as Record<string, string>;
  return settings.schemaRolesEnforced !== 'true' || hasRole(ctx, 'SCHEMA_AUTHOR', SCHEMA_ADMIN);
}

/** A version may be added to `schema`: upload rights, and its owners (anyone without owners) or SCHEMA_ADMIN. */
export async function mayAddVersion(ctx: RequestContext, schema: Row): Promise<boolean> {
  if (!mayUpload(ctx)) return false;
  return !schema.ownersUid || hasRole(ctx, SCHEMA_ADMIN) || ownsGroup(ctx, schema.ownersUid);
}

/** Owners and SCHEMA_ADMIN edit; a schema without owners only SCHEMA_ADMIN and tenant admins. */
export const canEditSchema = (ctx: RequestContext, schema: Row) => canEditOwned(ctx, schema.ownersUid, SCHEMA_ADMIN);

/** On an owners change the caller must own the new group, unless SCHEMA_ADMIN or tenant admin. */
export async function mayAssignSchemaOwners(ctx: RequestContext, ownersUid: string | null): Promise<boolean> {
  return ownersUid === null || hasRole(ctx, SCHEMA_ADMIN) || ownsGroup(ctx, ownersUid);
}

export const schemaPolicy: Policy = {
  canCreate: mayUpload,
  canEdit: canEditSchema,
  canDelete: canEditSchema,
  actions: { SCHEMA_TRANSFER_OWNERSHIP: canEditSchema },
};

async function schemaOf(ctx: RequestContext, version: Row): Promise<Row | null> {
  return parentRow(ctx, 'Schema', version.schemaUid);
}

/** Versions never change; deleting one is an edit of its schema. */
export const schemaVersionPolicy: Policy = {
  canCreate: mayUpload,
  canEdit: async () => false,
  canDelete: async (ctx, version) => {
    const schema = await schemaOf(ctx, version);
    return !!schema && (await canEditSchema(ctx, schema));
  },
};
