import { mayAssignSchemaOwners, mayUpload, schemaPolicy } from '../auth/policies/schema';
import type { Row } from '../models/define';
import { ownersRef } from '../models/schema';
import { schemaUsage } from '../models/stream-config';
import type { RequestContext } from '../core/context';
import { checkOwnersChange } from './_lib/owners';
import { ForbiddenError } from '../core/errors';
import { itemHref, link } from '../core/hal';
import { mutate } from './_lib/mutation';
import { plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { nameContaining } from './_lib/name-search';
import { groupResource } from './groups';
import { parsed, uploadVersion, type SchemaInput } from './parts/schema-upload';

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row) {
  await checkOwnersChange(ctx, values, row, mayAssignSchemaOwners, 'SCHEMA_ADMIN');
}

export const schemaResource: Resource<'schemas', 'findByName' | 'findByNameContaining'> = {
  collection: 'schemas',
  itemRel: 'schema',
  model: (m) => m.Schema,
  auditType: 'Schema',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', readOnly: true, unique: true },
    { name: 'description' },
    { name: 'type', readOnly: true },
    // Absent on PUT keeps the mode: a client that knows no modes never resets one.
    { name: 'compatibility', keepOnReplace: true },
  ],
  associations: [
    { rel: 'owners', target: () => groupResource, many: false, attribute: 'ownersUid', inline: { fields: ['uid', 'name'], embedded: [], links: [] } },
  ],
  searches: [
    nameContaining,
    { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: String(a.name).toLowerCase() }) },
  ],
  policy: schemaPolicy,
  check,
  blockers: async (ctx, row, transaction) => {
    const { pinnedBy, streams } = await schemaUsage(ctx.models, row.uid, transaction);
    if (pinnedBy.length > 0) return `Versions of schema ${row.name} are pinned by stream config(s) ${pinnedBy.join(', ')}; unpin them first`;
    return streams.length > 0 ? `Schema ${row.name} is used by stream(s) ${streams.join(', ')}; change them first` : null;
  },
  links: (row, ctx) => ({ versions: link(`${ctx.base}/schema_versions/search/findAllBySchema?schema=${row.uid}`) }),
  // docs/contract.md §8: a change of owners is SCHEMA_OWNERSHIP_TRANSFERRED; any other change UPDATED.
  splitUpdate: (entry) => {
    const { owners, ...rest } = entry.details;
    const out = Object.keys(rest).length > 0 ? [{ ...entry, details: rest }] : [];
    if (owners !== undefined) out.push({ ...entry, action: 'SCHEMA_OWNERSHIP_TRANSFERRED', details: { owners } });
    return out;
  },
};

export const checkSchema: Handler = async (ctx) => {
  const input = ctx.body as SchemaInput;
  const result = parsed(input.schema, input.type);
  const schema = await ctx.models.Schema.findOne({ where: { tenantUid: ctx.principal.tenant.uid, nameKey: result.fullName.toLowerCase() } });
  const versions = schema ? await ctx.models.SchemaVersion.findAll({ where: { schemaUid: schema.uid }, order: [['createdAt', 'ASC'], ['uid', 'ASC']] }) : [];
  return plain({ schema: result.normalised, fullName: result.fullName, type: result.type, version: versions.map((v) => v.versionName) });
};

const mayUploadAtAll = async (ctx: RequestContext) => {
  if (!mayUpload(ctx)) throw new ForbiddenError('Only SCHEMA_AUTHOR, SCHEMA_ADMIN and tenant admins may upload schemas in this tenant');
};

export const uploadSchema: Handler = withPrecheck(async (ctx) => {
  await mayUploadAtAll(ctx);
  const input = ctx.body as SchemaInput & { version: string };
  const result = parsed(input.schema, input.type);
  const { schema, version } = await mutate(ctx, async (transaction) => {
    const uploaded = await uploadVersion(ctx, input, result, transaction);
    return { result: uploaded, audit: uploaded.audit };
  });
  const location = itemHref(ctx.base, 'schema_versions', version.uid);
  return plain({
    id: version.uid, schemaVersionUid: version.uid, schemaUid: schema.uid, version: version.versionName, fullName: schema.name,
    owners: await ownersRef(ctx.models.Group, schema.ownersUid),
  }, 201, { Location: location });
}, mayUploadAtAll);
