import type { Transaction } from 'sequelize';
import { canEditStream } from '../auth/policies/stream';
import { streamConfigPolicy } from '../auth/policies/stream-config';
import { parentRowIn } from '../auth/parent-rows';
import type { Row } from '../models/define';
import { configOfPair } from '../models/stream-config';
import { openGrantCount } from '../models/application-access';
import { inUse } from '../models/blockers';
import { alreadyConfigured, pinProblem, propertyProblems, topicNameOf, topicNameProblem } from '../core/rules/stream-config-rules';
import { parsedBackwardProblems, parseStoredSchema, SchemaParseError, type SchemaType } from '../schema-formats';
import { associationHandlers } from './_lib/associations';
import type { RequestContext } from '../core/context';
import { BadRequestError, ConflictError, ForbiddenError, HttpError, NotFoundError, UnprocessableError, type SubError } from '../core/errors';
import { link } from '../core/hal';
import { plain } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible } from './_lib/store';
import { plainVersion, wantsPlain } from './dto/schema-version';
import { environmentResource } from './environments';
import { schemaVersionResource } from './schema-versions';
import { streamResource } from './streams';

const SIDES = ['key', 'value'] as const;
const pinAttr = (side: 'key' | 'value') => `${side}SchemaVersionUid`;

/** `force: true` (write-only, never stored) skips the compatibility check of a replaced pinned version. */
const forced = (ctx: RequestContext) => (ctx.body as { force?: unknown } | null)?.force === true;

async function related(ctx: RequestContext, values: Record<string, any>, row: Row | undefined, transaction?: Transaction) {
  const pick = (attr: string) => (attr in values ? values[attr] : row?.[attr]) ?? null;
  // The rows the permission checks read (auth/parent-rows), once per request: a config's stream and environment
  // never change. One after the other: inside a transaction both share its one connection.
  const stream = await parentRowIn(ctx, 'Stream', pick('streamUid'), transaction);
  const environment = await parentRowIn(ctx, 'Environment', pick('environmentUid'), transaction);
  return { pick, stream: stream!, environment: environment! };
}

/** 400 for unknown or bad properties and versions that are not of the stream's schema (docs/contract.md §5.8). */
async function validate(ctx: RequestContext, values: Record<string, any>, stream: Row, pick: (a: string) => any, transaction?: Transaction) {
  const problems: SubError[] = 'properties' in values ? propertyProblems(values.properties) : [];
  const versions = new Map<string, Row>();
  for (const side of SIDES) {
    const uid = pick(pinAttr(side));
    if (!uid) continue;
    const version = (await ctx.models.SchemaVersion.findOne({ where: { uid }, transaction }))!;
    versions.set(side, version);
    const problem = pinProblem(side, { streamType: stream[`${side}Type`], streamSchemaUid: stream[`${side}SchemaUid`] ?? null, versionSchemaUid: version.schemaUid });
    if (problem) problems.push({ ...problem, rejectedValue: uid });
  }
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
  return versions;
}

/** 422 when a pinned version is replaced by one that cannot read the old one's data, unless `force`. */
async function checkCompatible(ctx: RequestContext, stream: Row, row: Row, versions: Map<string, Row>, transaction?: Transaction) {
  for (const side of SIDES) {
    const next = versions.get(side);
    const oldUid = row[pinAttr(side)];
    if (!next || !oldUid || oldUid === next.uid) continue;
    const old = oldUid ? (await ctx.models.data.readByUids(ctx.models.SchemaVersion, [oldUid], transaction))[0] ?? null : null;
    if (!old) continue;
    const reasons = storedBackwardProblems(stream[`${side}Type`] as SchemaType, old, next);
    if (reasons.length > 0) {
      const message = `Schema version ${next.versionName} is not backward compatible with ${old.versionName}; retry with force=true`;
      throw new HttpError(422, message, [message, ...reasons]);
    }
  }
}

/** The judgement of two stored versions; 422 when one is past a bound on documents (stored before the bound). */
function storedBackwardProblems(type: SchemaType, old: Row, next: Row): string[] {
  try {
    return parsedBackwardProblems(parseStoredSchema(old.schemaBody, type), parseStoredSchema(next.schemaBody, type));
  } catch (e) {
    if (!(e instanceof SchemaParseError)) throw e;
    throw new UnprocessableError(`Schema versions ${old.versionName} and ${next.versionName} cannot be judged (${e.problems.join('; ')}); retry with force=true`);
  }
}

async function topicName(ctx: RequestContext, stream: Row, environment: Row, transaction?: Transaction): Promise<string> {
  const instance = (await ctx.models.data.readByUids(ctx.models.Instance, [environment.instanceUid], transaction))[0]!;
  const name = topicNameOf(instance.topicNamePattern, {
    tenant: ctx.principal.tenant.shortName, instance: instance.shortName, environment: environment.shortName, stream: stream.name,
  });
  const problem = topicNameProblem(name);
  if (problem) throw new UnprocessableError(problem);
  return name;
}

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  const { pick, stream, environment } = await related(ctx, values, row, transaction);
  if (!row && !(await canEditStream(ctx, stream))) throw new ForbiddenError(`Only the editors of stream ${stream.name} may deploy it`);
  if (!row && values.partitions == null) values.partitions = environment.partitions;
  if (values.retentionTime === null || (!row && values.retentionTime === undefined)) values.retentionTime = environment.retentionTime;
  const versions = await validate(ctx, values, stream, pick, transaction);
  if (row && !forced(ctx)) await checkCompatible(ctx, stream, row, versions, transaction);
  if (row) return;
  values.topicName = await topicName(ctx, stream, environment, transaction);
  if (await configOfPair(ctx.models, stream.uid, environment.uid, transaction)) throw new ConflictError(alreadyConfigured(stream.name, environment.shortName));
}

export const streamConfigResource: Resource<'stream_configs', 'findByStream' | 'findByEnvironment' | 'findByStreamAndEnvironment'> = {
  collection: 'stream_configs',
  itemRel: 'streamConfig',
  model: (m) => m.StreamConfig,
  auditType: 'Topic',
  auditName: (row) => row.topicName,
  // Filed under the stream (docs/contract.md §8): its name and uid; the config and its environment go into details.
  auditAs: async (row, ctx, transaction) => {
    const { stream, environment } = await related(ctx, {}, row, transaction);
    return { resourceName: stream.name, resourceId: stream.uid, details: { environment: environment.shortName, streamConfig: row.uid } };
  },
  auditActions: { CREATED: 'TOPIC_CONFIGURED', UPDATED: 'TOPIC_CONFIGURED', DELETED: 'TOPIC_UNCONFIGURED' },
  fields: [
    { name: 'partitions', immutable: true },
    { name: 'retentionTime' },
    { name: 'properties', kind: 'map', default: () => ({}), output: (v) => v ?? {} },
    { name: 'topicName', readOnly: true },
  ],
  associations: [
    { rel: 'stream', target: () => streamResource, many: false, attribute: 'streamUid', required: true, immutable: true },
    { rel: 'environment', target: () => environmentResource, many: false, attribute: 'environmentUid', required: true, immutable: true },
    { rel: 'keySchemaVersion', target: () => schemaVersionResource, many: false, attribute: 'keySchemaVersionUid' },
    { rel: 'valueSchemaVersion', target: () => schemaVersionResource, many: false, attribute: 'valueSchemaVersionUid' },
  ],
  searches: [
    { name: 'findByStream', params: [{ name: 'stream', required: true, ref: () => streamResource }], where: (a) => ({ streamUid: (a.stream as Row).uid }) },
    { name: 'findByEnvironment', params: [{ name: 'environment', required: true, ref: () => environmentResource }], where: (a) => ({ environmentUid: (a.environment as Row).uid }) },
    {
      name: 'findByStreamAndEnvironment',
      params: [{ name: 'stream', required: true, ref: () => streamResource }, { name: 'environment', required: true, ref: () => environmentResource }],
      where: (a) => ({ streamUid: (a.stream as Row).uid, environmentUid: (a.environment as Row).uid }),
    },
  ],
  policy: streamConfigPolicy,
  check,
  blockers: async (ctx, row, transaction) => inUse(`Stream config ${row.topicName}`, {
    'open access grant': await openGrantCount(ctx.models, { streamUid: row.streamUid, environmentUid: row.environmentUid }, transaction),
  }),
  links: (_row, _ctx, self) => ({
    asyncapi: link(`${self}/asyncapi`),
    permissions: link(`${self}/permissions{?type}`, true),
  }),
};

const a = associationHandlers(streamConfigResource);
const VERSION_RELS = new Set(['keySchemaVersion', 'valueSchemaVersion']);

/** A pinned version answers the plain DTO for `Accept: application/json` (the Terraform provider), else HAL. */
export const getStreamConfigAssociation = replacesGeneric(async (ctx) => {
  if (!VERSION_RELS.has(ctx.params.rel) || !wantsPlain(ctx)) return a.get(ctx);
  const row = await findVisible(streamConfigResource, ctx, ctx.params.id);
  const uid = row[`${ctx.params.rel}Uid`] as string | null;
  const version = uid ? await ctx.models.SchemaVersion.findOne({ where: { uid } }) : null;
  if (!version) throw new NotFoundError(`${ctx.params.rel} is not set`);
  return plain(await plainVersion(ctx, version));
});
