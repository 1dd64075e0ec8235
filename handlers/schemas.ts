import { mayAddVersion, mayAssignSchemaOwners, mayUpload, schemaPolicy } from '../auth/policies/schema';
import type { Row } from '../models/define';
import { ownersRef } from '../models/schema';
import { schemaUsage } from '../models/stream-config';
import { parseSchema, SchemaParseError, type ParsedSchema, type SchemaType } from '../schema-formats';
import { associationHandlers } from './_lib/associations';
import type { RequestContext } from './_lib/context';
import { resourceHandlers } from './_lib/crud';
import { checkOwnersChange } from './_lib/owners';
import { BadRequestError, ConflictError, ForbiddenError, UnprocessableError } from './_lib/errors';
import { itemHref, link } from './_lib/hal';
import { mutate } from './_lib/mutation';
import { isNone } from './_lib/references';
import { plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { resolveBodyRef } from './_lib/store';
import { groupResource } from './groups';

/** `Invalid schema` with one entry per parser message (CONTRACT §5.9). */
function parsed(text: string, type: SchemaType | undefined): ParsedSchema {
  try {
    return parseSchema(text, type ?? 'AVRO');
  } catch (e) {
    if (e instanceof SchemaParseError) throw new BadRequestError(e.problems.map((p) => `schema: ${p}`), null, 'Invalid schema');
    throw e;
  }
}

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row) {
  await checkOwnersChange(ctx, values, row, mayAssignSchemaOwners, 'SCHEMA_ADMIN');
}

export const schemaResource: Resource = {
  collection: 'schemas',
  itemRel: 'schema',
  model: (m) => m.Schema,
  auditType: 'Schema',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', readOnly: true, unique: true },
    { name: 'description' },
    { name: 'type', readOnly: true },
  ],
  associations: [
    { rel: 'owners', target: () => groupResource, many: false, attribute: 'ownersUid', inline: { fields: ['uid', 'name'], embedded: [], links: [] } },
  ],
  searches: [
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
  // CONTRACT §8: a change of owners is SCHEMA_OWNERSHIP_TRANSFERRED; any other change UPDATED.
  splitUpdate: (entry) => {
    const { owners, ...rest } = entry.details;
    const out = Object.keys(rest).length > 0 ? [{ ...entry, details: rest }] : [];
    if (owners !== undefined) out.push({ ...entry, action: 'SCHEMA_OWNERSHIP_TRANSFERRED', details: { owners } });
    return out;
  },
};

const h = resourceHandlers(schemaResource);
export const listSchemas = h.list;
export const getSchema = h.get;
export const replaceSchema = h.replace;
export const patchSchema = h.patch;
export const deleteSchema = h.remove;
export const listSchemaSearches = h.searchIndex;
export const findSchemasByName = h.search('findByName');

const a = associationHandlers(schemaResource);
export const getSchemaAssociation = a.get;
export const replaceSchemaAssociation = a.put;
export const addSchemaAssociationTargets = a.post;
export const patchSchemaAssociation = a.patch;
export const deleteSchemaAssociation = a.remove;

interface SchemaInput { schema: string; type?: SchemaType; version?: string; description?: string | null; owners?: unknown }

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

/** The schema of that fullName, found or created, and the description change an upload to an existing one made. */
async function schemaFor(ctx: RequestContext, input: SchemaInput, result: ParsedSchema, transaction: Parameters<Parameters<typeof mutate>[1]>[0]) {
  const { Schema } = ctx.models;
  const existing = await Schema.findOne({ where: { tenantUid: ctx.principal.tenant.uid, nameKey: result.fullName.toLowerCase() }, transaction });
  if (existing) {
    if (!(await mayAddVersion(ctx, existing))) throw new ForbiddenError(`Only the owners of ${existing.name} (or SCHEMA_ADMIN) may add versions to it`);
    if (existing.type !== result.type) throw new UnprocessableError(`Schema ${existing.name} is ${existing.type}; a ${result.type} document cannot be a version of it`);
    const old = existing.description as string | null;
    if (typeof input.description === 'string' && input.description !== '' && input.description !== old) {
      existing.set({ description: input.description, modifiedBy: ctx.principal.email });
      await existing.save({ transaction });
      return { schema: existing, created: false, described: { description: { old, new: input.description } } };
    }
    return { schema: existing, created: false, described: undefined };
  }
  const ownersUid = isNone(input.owners) ? null : (await resolveBodyRef(groupResource, ctx, 'owners', input.owners, transaction)).uid;
  if (!(await mayAssignSchemaOwners(ctx, ownersUid))) throw new ForbiddenError('You must belong to the owners group (or be SCHEMA_ADMIN)');
  const actor = ctx.principal.email;
  const schema = await Schema.create({
    tenantUid: ctx.principal.tenant.uid, name: result.fullName, description: input.description ?? null, type: result.type,
    ownersUid, createdBy: actor, modifiedBy: actor,
  }, { transaction });
  return { schema, created: true, described: undefined };
}

export const uploadSchema: Handler = withPrecheck(async (ctx) => {
  await mayUploadAtAll(ctx);
  const input = ctx.body as SchemaInput & { version: string };
  const result = parsed(input.schema, input.type);
  const { schema, version } = await mutate(ctx, async (transaction) => {
    const found = await schemaFor(ctx, input, result, transaction);
    const taken = await ctx.models.SchemaVersion.findOne({ where: { schemaUid: found.schema.uid, versionKey: input.version.toLowerCase() }, transaction });
    if (taken) throw new ConflictError(`version: '${input.version}' already exists for schema ${found.schema.name}`);
    const actor = ctx.principal.email;
    const row = await ctx.models.SchemaVersion.create({
      tenantUid: ctx.principal.tenant.uid, schemaUid: found.schema.uid, versionName: input.version, schemaBody: input.schema, createdBy: actor, modifiedBy: actor,
    }, { transaction });
    const about = { resourceType: 'Schema', resourceName: found.schema.name, resourceId: found.schema.uid };
    const audit = [
      ...(found.created ? [{ ...about, action: 'CREATED', details: { name: found.schema.name, type: found.schema.type, description: found.schema.description, owners: found.schema.ownersUid } }] : []),
      // A new description with a version of an existing schema is a change of the schema itself.
      ...(found.described ? [{ ...about, action: 'UPDATED', details: found.described }] : []),
      { ...about, action: 'SCHEMA_VERSION_UPLOADED', details: { version: input.version, schemaVersion: row.uid } },
    ];
    return { result: { schema: found.schema, version: row }, audit };
  });
  const location = itemHref(ctx.base, 'schema_versions', version.uid);
  return plain({
    id: version.uid, schemaVersionUid: version.uid, schemaUid: schema.uid, version: version.versionName, fullName: schema.name,
    owners: await ownersRef(ctx.models.Group, schema.ownersUid),
  }, 201, { Location: location });
}, mayUploadAtAll);
