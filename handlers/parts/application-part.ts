/**
 * What principals, credentials and deployments share as things of one application in one environment
 * (docs/contract.md §5.11, §5.12, §5.15): the two fixed associations, the searches by them, and audit entries filed under
 * the application with the row's uid and the environment in `details` (§8).
 */
import type { Transaction } from 'sequelize';
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import type { AssociationDef, AuditAs, SearchDef } from '../_lib/resource';
import { applicationResource } from '../applications';
import { environmentResource } from '../environments';

/** The row's (or the values') application and environment, both known to exist: they are required references. */
export async function partsOf(ctx: RequestContext, row: Row | undefined, values: Record<string, any> = {}, transaction?: Transaction) {
  const application = (await ctx.models.Application.findOne({ where: { uid: values.applicationUid ?? row?.applicationUid }, transaction }))!;
  const environment = (await ctx.models.Environment.findOne({ where: { uid: values.environmentUid ?? row?.environmentUid }, transaction }))!;
  return { application, environment };
}

/** `application` and `environment`, required and fixed at creation; `inline` renders them top-level too. */
export function partAssociations(inline?: AssociationDef['inline']): AssociationDef[] {
  return [
    { rel: 'application', target: () => applicationResource, many: false, attribute: 'applicationUid', required: true, immutable: true, inline },
    { rel: 'environment', target: () => environmentResource, many: false, attribute: 'environmentUid', required: true, immutable: true, inline },
  ];
}

type PartSearch = 'findByApplication' | 'findByApplicationAndEnvironment' | 'findByEnvironment';

const SEARCHES: { [N in PartSearch]: SearchDef<N> } = {
  findByApplication: {
    name: 'findByApplication', params: [{ name: 'application', required: true, ref: () => applicationResource }],
    where: (a) => ({ applicationUid: (a.application as Row).uid }),
  },
  findByApplicationAndEnvironment: {
    name: 'findByApplicationAndEnvironment',
    params: [{ name: 'application', required: true, ref: () => applicationResource }, { name: 'environment', required: true, ref: () => environmentResource }],
    where: (a) => ({ applicationUid: (a.application as Row).uid, environmentUid: (a.environment as Row).uid }),
  },
  findByEnvironment: {
    name: 'findByEnvironment', params: [{ name: 'environment', required: true, ref: () => environmentResource }],
    where: (a) => ({ environmentUid: (a.environment as Row).uid }),
  },
};

export const partSearches = <N extends PartSearch>(...names: N[]): SearchDef<N>[] => names.map((n) => SEARCHES[n]);

/** `auditAs` of a part: under its application, with `{[key]: uid, environment, ...more(row)}` in details. */
export function partAuditAs(key: string, more: (row: Row) => Record<string, unknown> = () => ({})) {
  return async (row: Row, ctx: RequestContext, transaction?: Transaction): Promise<AuditAs> => {
    const { application, environment } = await partsOf(ctx, row, {}, transaction);
    return { resourceName: application.shortName, resourceId: application.uid, details: { [key]: row.uid, ...more(row), environment: environment.shortName } };
  };
}
