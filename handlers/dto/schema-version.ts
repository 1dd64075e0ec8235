/**
 * The plain schema-version DTO the Terraform provider decodes (docs/contract.md §5.9), answered for `Accept:
 * application/json` without a HAL type by `GET /schema_versions/{id}` and `GET /stream_configs/{id}/keySchemaVersion`.
 */
import type { Row } from '../../models/define';
import { ownersRef } from '../../models/schema';
import { fullName } from '../../models/user';
import type { RequestContext } from '../../core/context';
import { commonFields, timestamp } from '../../core/hal';
import { accepts, HAL, JSON_TYPE } from '../_lib/reply';

export const wantsPlain = (ctx: RequestContext) => accepts(ctx, JSON_TYPE) && !accepts(ctx, HAL) && !accepts(ctx, 'application/vnd.hal+json') && !accepts(ctx, 'application/prs.hal-forms+json');

export async function plainVersion(ctx: RequestContext, version: Row) {
  const schema = (await ctx.models.Schema.findOne({ where: { uid: version.schemaUid } }))!;
  const author = version.createdBy ? await ctx.models.User.findOne({ where: { tenantUid: ctx.principal.tenant.uid, emailKey: String(version.createdBy).toLowerCase() } }) : null;
  const { uid: _uid, ...common } = commonFields(schema);
  return {
    id: version.uid, uid: version.uid, version: version.versionName, schemaBody: version.schemaBody,
    schema: {
      id: schema.uid, uid: schema.uid, name: schema.name, description: schema.description ?? null, type: schema.type,
      owners: await ownersRef(ctx.models.Group, schema.ownersUid), optLock: schema.version ?? 0, ...common,
    },
    createdByFullName: author ? fullName(author as never) : null,
    createdAt: timestamp(version.createdAt), modifiedAt: timestamp(version.modifiedAt),
  };
}
