import { mayAssignStreamOwners, streamPolicy } from '../auth/policies/stream';
import type { Row } from '../models/define';
import { streamProblems } from '../core/rules/stream-rules';
import { groupsOf } from '../auth/permissions';
import { openGrantCount } from '../models/application-access';
import { inUse } from '../models/blockers';
import { configsWhere, streamHasPinnedVersions } from '../models/stream-config';
import type { Transaction } from 'sequelize';
import type { RequestContext } from '../core/context';
import { checkOwnersChange } from './_lib/owners';
import { BadRequestError, UnprocessableError } from '../core/errors';
import { link } from '../core/hal';
import type { Resource } from './_lib/resource';
import { nameContaining } from './_lib/name-search';
import { groupResource } from './groups';
import { confidentialityResource, integrityResource } from './reference-data';
import { schemaResource } from './schemas';

/** `delete,compact` is the same policy as `compact,delete`; one spelling is stored (docs/contract.md §4.3). */
const retentionPolicy = (v: unknown) => (v === 'delete,compact' ? 'compact,delete' : v ?? 'delete');

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  const pick = (attr: string) => (attr in values ? values[attr] : row?.[attr]) ?? null;
  const uids = [pick('keySchemaUid'), pick('valueSchemaUid')].filter((u): u is string => !!u);
  const schemas = uids.length === 0 ? [] : await ctx.models.Schema.findAll({ where: { uid: uids }, transaction });
  const typeOf = (uid: string | null) => (uid ? schemas.find((s) => s.uid === uid)?.type ?? null : null);
  const settings = ctx.principal.tenant;
  const problems = streamProblems({
    keyType: pick('keyType'), valueType: pick('valueType'),
    keySchemaType: pick('keySchemaUid') ? typeOf(pick('keySchemaUid')) : undefined,
    valueSchemaType: pick('valueSchemaUid') ? typeOf(pick('valueSchemaUid')) : undefined,
    confidentiality: pick('confidentialityUid'), integrity: pick('integrityUid'),
    classificationRequired: settings.dataClassificationEnabled === true,
  });
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
  const typing = ['keyType', 'valueType', 'keySchemaUid', 'valueSchemaUid'].filter((attr) => row && pick(attr) !== (row[attr] ?? null));
  if (row && typing.length > 0 && (await streamHasPinnedVersions(ctx.models, row.uid, transaction))) {
    throw new UnprocessableError(`A stream config of ${row.name} pins a schema version; ${typing.map((a) => a.replace(/Uid$/, '')).join(', ')} cannot change until it is unpinned`);
  }
  await checkOwnersChange(ctx, values, row, mayAssignStreamOwners, 'STREAM_ADMIN');
}

export const streamResource: Resource<'streams', 'findByName' | 'findByOwners' | 'findByNameContaining' | 'findMine'> = {
  collection: 'streams',
  itemRel: 'stream',
  model: (m) => m.Stream,
  auditType: 'Topic',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', unique: true },
    { name: 'description' },
    { name: 'keyType' },
    { name: 'valueType' },
    { name: 'retentionPolicy', default: () => 'delete', input: retentionPolicy },
    { name: 'visibility', default: () => 'Public', input: (v) => v ?? 'Public' },
    { name: 'properties', kind: 'map', default: () => ({}), output: (v) => v ?? {} },
  ],
  associations: [
    { rel: 'keySchema', target: () => schemaResource, many: false, attribute: 'keySchemaUid' },
    { rel: 'valueSchema', target: () => schemaResource, many: false, attribute: 'valueSchemaUid' },
    { rel: 'owners', target: () => groupResource, many: false, attribute: 'ownersUid', required: true },
    { rel: 'viewers', target: () => groupResource, many: true, join: 'StreamViewer' },
    { rel: 'confidentiality', target: () => confidentialityResource, many: false, attribute: 'confidentialityUid' },
    { rel: 'integrity', target: () => integrityResource, many: false, attribute: 'integrityUid' },
  ],
  searches: [
    { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: String(a.name).toLowerCase() }) },
    { name: 'findByOwners', params: [{ name: 'owners', required: true, ref: () => groupResource }], where: (a) => ({ ownersUid: (a.owners as Row).uid }) },
    nameContaining,
    { name: 'findMine', params: [], where: async (_a, ctx) => ({ ownersUid: [...(await groupsOf(ctx))] }) },
  ],
  policy: streamPolicy,
  check,
  blockers: async (ctx, row, transaction) => {
    const configs = await configsWhere(ctx.models, { streamUid: row.uid }, transaction);
    if (configs.length > 0) return `Stream ${row.name} has stream config(s) ${configs.join(', ')}; delete them first`;
    // Terminal grants and access rows go with the stream; open ones (imported without a config) must end first.
    return inUse(`Stream ${row.name}`, { 'open access grant': await openGrantCount(ctx.models, { streamUid: row.uid }, transaction) });
  },
  links: (row, ctx, self) => ({ streamConfigs: link(`${ctx.base}/stream_configs/search/findByStream?stream=${row.uid}`), graph: link(`${self}/graph`) }),
};

