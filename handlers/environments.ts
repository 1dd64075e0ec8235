import type { Transaction } from 'sequelize';
import { canSynchronize, environmentPolicy, mayAssignOwners } from '../auth/policies/environment';
import type { RequestContext } from '../core/context';
import { checkOwnersChange } from './_lib/owners';
import { checkIfMatch } from './_lib/etag';
import { BadRequestError, ForbiddenError, HttpError } from '../core/errors';
import { successorCycle } from '../core/rules/promotion-plan';
import { checkBounds } from '../core/rules/access-duration';
import { link } from '../core/hal';
import { mutate } from './_lib/mutation';
import { noContent, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { nameContaining } from './_lib/name-search';
import { findVisible } from './_lib/store';
import type { Row } from '../models/define';
import { authenticationCount } from '../models/application-auth';
import { openGrantCount } from '../models/application-access';
import { deploymentCount } from '../models/application-deployment';
import { inUse } from '../models/blockers';
import { configsWhere } from '../models/stream-config';
import { environmentChains } from '../models/environment';
import { groupResource } from './groups';
import { instanceResource } from './instances';

const key = (v: unknown) => String(v).toLowerCase();

/** 422 naming `successor` when the environment would come back to itself along its successors' chain. */
async function checkSuccessor(ctx: RequestContext, values: Record<string, any>, row: Row | undefined, transaction?: Transaction) {
  // A new environment is nobody's successor yet: no chain can come back to it.
  if (!row || !values.successorUid || values.successorUid === row.successorUid) return;
  const chains = await environmentChains(ctx.models, ctx.principal.tenant.uid, transaction);
  const cycle = successorCycle(row.uid, values.successorUid, (uid) => chains.get(uid)?.successorUid);
  if (!cycle) return;
  const message = `successor: the chain ${cycle.map((uid) => chains.get(uid)?.shortName ?? uid).join(' → ')} would be a cycle`;
  throw new HttpError(422, message, [message], [{ field: 'successor', message: 'would make the chain of successors a cycle', rejectedValue: values.successorUid }]);
}

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  const visibility = values.visibility ?? row?.visibility;
  const issuer = values.authorizationIssuer ?? row?.authorizationIssuer;
  if (visibility === 'Private' && issuer !== 'Auto') {
    const message = 'must be Auto for a Private environment';
    throw new BadRequestError([`authorizationIssuer: ${message}`], [{ field: 'authorizationIssuer', message, rejectedValue: issuer }]);
  }
  const bounds = checkBounds({
    maxAccessDuration: values.maxAccessDuration !== undefined ? values.maxAccessDuration : row?.maxAccessDuration,
    defaultAccessDuration: values.defaultAccessDuration !== undefined ? values.defaultAccessDuration : row?.defaultAccessDuration,
  });
  if (bounds) throw new BadRequestError([`${bounds.field}: ${bounds.message}`], [bounds]);
  await checkOwnersChange(ctx, values, row, mayAssignOwners, 'ENVIRONMENT_ADMIN');
  await checkSuccessor(ctx, values, row, transaction);
}

/** Durations are kept as written, upper-cased (`p30d` → `P30D`); blank is none. */
const durationInput = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim().toUpperCase()) : v ?? null);

const mapOut = (v: unknown) => v ?? {};

export const environmentResource: Resource<'environments', 'findByName' | 'findByShortName' | 'findByInstance' | 'findByNameContaining'> = {
  collection: 'environments',
  itemRel: 'environment',
  model: (m) => m.Environment,
  auditType: 'Environment',
  auditName: (row) => row.shortName,
  fields: [
    { name: 'name', unique: true },
    { name: 'shortName', unique: true, immutable: true },
    { name: 'description' },
    { name: 'color', default: () => '#80affe', input: (v) => v ?? '#80affe' },
    { name: 'retentionTime', default: () => 604800000, input: (v) => v ?? 604800000 },
    { name: 'partitions', default: () => 2, input: (v) => v ?? 2 },
    { name: 'authorizationIssuer', default: () => 'Stream owner', input: (v) => v ?? 'Stream owner' },
    { name: 'visibility', default: () => 'Public', input: (v) => v ?? 'Public' },
    { name: 'properties', kind: 'map', default: () => ({}), output: mapOut },
    { name: 'settings', kind: 'map', default: () => ({}), output: mapOut },
    // Access grants here end by these (core/rules/access-duration.ts); null: no bound, no default. A PUT that leaves
    // them out keeps them: clients that predate them (the Terraform provider) do not lift an environment's bound.
    { name: 'maxAccessDuration', default: () => null, input: durationInput, output: (v) => v ?? null, keepOnReplace: true },
    { name: 'defaultAccessDuration', default: () => null, input: durationInput, output: (v) => v ?? null, keepOnReplace: true },
  ],
  computed: (row) => ({ private: row.visibility === 'Private', autoApproved: row.authorizationIssuer === 'Auto' }),
  associations: [
    { rel: 'instance', target: () => instanceResource, many: false, attribute: 'instanceUid', required: true, immutable: true },
    { rel: 'owners', target: () => groupResource, many: false, attribute: 'ownersUid', required: true },
    { rel: 'viewers', target: () => groupResource, many: true, join: 'EnvironmentViewer' },
    // Where `POST /stream_configs/{id}/promote` goes by default (handlers/stream-config-promotion.ts).
    { rel: 'successor', target: () => environmentResource, many: false, attribute: 'successorUid' },
  ],
  searches: [
    nameContaining,
    { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: key(a.name) }) },
    { name: 'findByShortName', params: [{ name: 'shortName', required: true }], where: (a) => ({ shortNameKey: key(a.shortName) }) },
    { name: 'findByInstance', params: [{ name: 'instance', required: true, ref: () => instanceResource }], where: (a) => ({ instanceUid: (a.instance as Row).uid }) },
  ],
  policy: environmentPolicy,
  check,
  blockers: async (ctx, row, transaction) => {
    const configs = await configsWhere(ctx.models, { environmentUid: row.uid }, transaction);
    if (configs.length > 0) return `Environment ${row.shortName} has stream config(s) ${configs.join(', ')}; delete them first`;
    const where = { environmentUid: row.uid };
    return inUse(`Environment ${row.shortName}`, {
      ...(await authenticationCount(ctx.models, where, transaction)),
      deployment: await deploymentCount(ctx.models.ApplicationDeployment, where, transaction),
      'open access grant': await openGrantCount(ctx.models, where, transaction),
    });
  },
  links: (_row, _ctx, self) => ({ synchronize: link(`${self}/synchronize`), graph: link(`${self}/graph`) }),
};

export const synchronizeEnvironment: Handler = async (ctx) => {
  const row = await findVisible(environmentResource, ctx, ctx.params.id);
  if (!(await canSynchronize(ctx, row))) throw new ForbiddenError('You may not synchronize this environment');
  checkIfMatch(ctx, row);
  await mutate(ctx, async () => ({
    result: undefined,
    audit: [{ action: 'SYNCHRONIZED', resourceType: 'Environment', resourceName: row.shortName, resourceId: row.uid, details: { environment: row.shortName } }],
  }));
  return noContent();
};

