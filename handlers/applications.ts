import { Op } from 'sequelize';
import { applicationPolicy, mayAssignApplicationOwners } from '../auth/policies/application';
import { groupsOf } from '../auth/permissions';
import { applicationProblems } from '../core/rules/application-rules';
import { authenticationCount } from '../models/application-auth';
import { openGrantCount } from '../models/application-access';
import { deploymentCount } from '../models/application-deployment';
import { inUse } from '../models/blockers';
import type { Row } from '../models/define';
import type { RequestContext } from '../core/context';
import { checkOwnersChange } from './_lib/owners';
import { BadRequestError } from '../core/errors';
import { link } from '../core/hal';
import type { Resource } from './_lib/resource';
import { nameContaining } from './_lib/name-search';
import { groupResource } from './groups';

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row) {
  const merged = {
    applicationType: values.applicationType ?? row?.applicationType,
    type: 'type' in values ? values.type : row?.type,
    applicationClass: 'applicationClass' in values ? values.applicationClass : row?.applicationClass,
  };
  const problems = applicationProblems(merged);
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
  await checkOwnersChange(ctx, values, row, mayAssignApplicationOwners, 'APPLICATION_ADMIN');
}

const key = (v: unknown) => String(v).toLowerCase();

export const applicationResource: Resource<'applications', 'findByName' | 'findByShortName' | 'findByApplicationId' | 'findByAttributes' | 'findByOwners' | 'findMine' | 'findByNameContaining'> = {
  collection: 'applications',
  itemRel: 'application',
  model: (m) => m.Application,
  auditType: 'Application',
  auditName: (row) => row.shortName,
  fields: [
    { name: 'applicationId', unique: true },
    { name: 'name', unique: true },
    { name: 'shortName', unique: true },
    { name: 'description' },
    { name: 'applicationType', immutable: true },
    { name: 'type' },
    { name: 'applicationClass' },
    { name: 'applicationClassVersion' },
    { name: 'visibility', default: () => 'Public', input: (v) => v ?? 'Public' },
  ],
  computed: (row) => ({ allApplicationIds: [row.applicationId] }),
  associations: [
    { rel: 'owners', target: () => groupResource, many: false, attribute: 'ownersUid', required: true, inline: { embedded: ['members'], links: ['self', 'members', 'edit', 'delete'] } },
    { rel: 'viewers', target: () => groupResource, many: true, join: 'ApplicationViewer' },
  ],
  searches: [
    nameContaining,
    { name: 'findByName', single: true, params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: key(a.name) }) },
    { name: 'findByShortName', single: true, params: [{ name: 'shortName', required: true }], where: (a) => ({ shortNameKey: key(a.shortName) }) },
    { name: 'findByApplicationId', single: true, params: [{ name: 'applicationId', required: true }], where: (a) => ({ applicationIdKey: key(a.applicationId) }) },
    { name: 'findMine', params: [], where: async (_a, ctx) => ({ ownersUid: [...(await groupsOf(ctx))] }) },
    {
      name: 'findByAttributes',
      params: [{ name: 'name' }, { name: 'shortName' }],
      where: (a) => ({ [Op.and]: [a.name !== undefined ? { nameKey: key(a.name) } : {}, a.shortName !== undefined ? { shortNameKey: key(a.shortName) } : {}] }),
    },
    { name: 'findByOwners', params: [{ name: 'owners', required: true, ref: () => groupResource }], where: (a) => ({ ownersUid: (a.owners as Row).uid }) },
  ],
  policy: applicationPolicy,
  check,
  // Terminal grants and access rows go with the application.
  blockers: async (ctx, row, transaction) => {
    const where = { applicationUid: row.uid };
    return inUse(`Application ${row.shortName}`, {
      ...(await authenticationCount(ctx.models, where, transaction)),
      deployment: await deploymentCount(ctx.models.ApplicationDeployment, where, transaction),
      'open access grant': await openGrantCount(ctx.models, where, transaction),
    });
  },
  links: (_row, ctx, self) => ({
    graph: link(`${self}/graph`),
    createApplicationPrincipal: link(`${ctx.base}/application_principals`),
    createApplicationAccess: link(`${ctx.base}/application_access`),
  }),
};

