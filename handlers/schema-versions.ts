import { schemaVersionPolicy } from '../auth/policies/schema';
import type { Row } from '../models/define';
import { ownersRef } from '../models/schema';
import { fullName } from '../models/user';
import { associationHandlers } from './_lib/associations';
import type { RequestContext } from './_lib/context';
import { resourceHandlers } from './_lib/crud';
import { checkIfMatch, notModified, validatorHeaders } from './_lib/etag';
import { ForbiddenError } from './_lib/errors';
import { commonFields, timestamp } from './_lib/hal';
import { mutate } from './_lib/mutation';
import { accepts, HAL, JSON_TYPE, noContent, plain, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible } from './_lib/store';
import { schemaResource } from './schemas';

export const schemaVersionResource: Resource = {
  collection: 'schema_versions',
  itemRel: 'schemaVersion',
  model: (m) => m.SchemaVersion,
  auditType: 'Schema',
  auditName: (row) => row.versionName,
  fields: [
    { name: 'version', attribute: 'versionName', readOnly: true },
    { name: 'schemaBody', readOnly: true, sortable: false },
  ],
  associations: [
    { rel: 'schema', target: () => schemaResource, many: false, attribute: 'schemaUid', required: true, immutable: true },
  ],
  searches: [
    { name: 'findAllBySchema', params: [{ name: 'schema', required: true, ref: () => schemaResource }], where: (a) => ({ schemaUid: (a.schema as Row).uid }) },
    {
      name: 'findBySchemaAndVersion',
      single: true,
      params: [{ name: 'schema', required: true, ref: () => schemaResource }, { name: 'version', required: true }],
      where: (a) => ({ schemaUid: (a.schema as Row).uid, versionKey: String(a.version).toLowerCase() }),
    },
  ],
  policy: schemaVersionPolicy,
};

/** `Accept: application/json` without a HAL type: the plain DTO the Terraform provider decodes (CONTRACT §5.9). */
const wantsPlain = (ctx: RequestContext) => accepts(ctx, JSON_TYPE) && !accepts(ctx, HAL) && !accepts(ctx, 'application/vnd.hal+json') && !accepts(ctx, 'application/prs.hal-forms+json');

async function plainVersion(ctx: RequestContext, version: Row) {
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

const h = resourceHandlers(schemaVersionResource);
export const listSchemaVersions = h.list;
export const listSchemaVersionSearches = h.searchIndex;
export const findSchemaVersionsBySchema = h.search('findAllBySchema');
export const findSchemaVersionBySchemaAndVersion = h.search('findBySchemaAndVersion');

export const getSchemaVersion: Handler = async (ctx) => {
  if (!wantsPlain(ctx)) return h.get(ctx);
  const row = await findVisible(schemaVersionResource, ctx, ctx.params.id);
  if (notModified(ctx, row)) return { status: 304, headers: validatorHeaders(row) };
  return plain(await plainVersion(ctx, row), 200, validatorHeaders(row));
};

/** Deleting a version is audited on its schema (SCHEMA_VERSION_DELETED). */
export const deleteSchemaVersion: Handler = async (ctx) => {
  const row = await findVisible(schemaVersionResource, ctx, ctx.params.id);
  if (!(await schemaVersionPolicy.canDelete(ctx, row))) throw new ForbiddenError('Only the owners of the schema (or SCHEMA_ADMIN) may delete its versions');
  checkIfMatch(ctx, row);
  await mutate(ctx, async (transaction) => {
    const schema = await ctx.models.Schema.findOne({ where: { uid: row.schemaUid }, transaction });
    await row.destroy({ transaction });
    return {
      result: undefined,
      audit: [{ action: 'SCHEMA_VERSION_DELETED', resourceType: 'Schema', resourceName: schema?.name ?? null, resourceId: row.schemaUid, details: { version: row.versionName, schemaVersion: row.uid } }],
    };
  });
  return noContent();
};

const a = associationHandlers(schemaVersionResource);
export const getSchemaVersionAssociation = a.get;
