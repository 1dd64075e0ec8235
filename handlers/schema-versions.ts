import { schemaVersionPolicy } from '../auth/policies/schema';
import type { Row } from '../models/define';
import { resourceHandlers } from './_lib/crud';
import { checkIfMatch, notModified, validatorHeaders } from './_lib/etag';
import { ForbiddenError, UnprocessableError } from '../core/errors';
import { mutate } from './_lib/mutation';
import { noContent, plain } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible } from './_lib/store';
import { plainVersion, wantsPlain } from './dto/schema-version';
import { schemaResource } from './schemas';
import { configsPinning } from '../models/stream-config';

export const schemaVersionResource: Resource<'schema_versions', 'findAllBySchema' | 'findBySchemaAndVersion'> = {
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

const h = resourceHandlers(schemaVersionResource);

export const getSchemaVersion = replacesGeneric(async (ctx) => {
  if (!wantsPlain(ctx)) return h.get(ctx);
  const row = await findVisible(schemaVersionResource, ctx, ctx.params.id);
  if (notModified(ctx, row)) return { status: 304, headers: validatorHeaders(row) };
  return plain(await plainVersion(ctx, row), 200, validatorHeaders(row));
});

/** Deleting a version is audited on its schema (SCHEMA_VERSION_DELETED). */
export const deleteSchemaVersion = replacesGeneric(async (ctx) => {
  const row = await findVisible(schemaVersionResource, ctx, ctx.params.id);
  if (!(await schemaVersionPolicy.canDelete(ctx, row))) throw new ForbiddenError('Only the owners of the schema (or SCHEMA_ADMIN) may delete its versions');
  checkIfMatch(ctx, row);
  await mutate(ctx, async (transaction) => {
    const pinned = await configsPinning(ctx.models, [row.uid], transaction);
    if (pinned.length > 0) throw new UnprocessableError(`Schema version ${row.versionName} is pinned by stream config(s) ${pinned.join(', ')}; unpin it first`);
    const schema = await ctx.models.Schema.findOne({ where: { uid: row.schemaUid }, transaction });
    await row.destroy({ transaction });
    return {
      result: undefined,
      audit: [{ action: 'SCHEMA_VERSION_DELETED', resourceType: 'Schema', resourceName: schema?.name ?? null, resourceId: row.schemaUid, details: { version: row.versionName, schemaVersion: row.uid } }],
    };
  });
  return noContent();
});

