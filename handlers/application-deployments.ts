import type { Transaction } from 'sequelize';
import { canEditApplication } from '../auth/policies/application';
import { applicationPartPolicy, editsApplicationOf } from '../auth/policies/application-part';
import { authenticatesIn } from '../models/application-auth';
import { hasGrantInEffect } from '../models/application-access';
import type { Row } from '../models/define';
import { connectorConfigProblems, ksmlConfigProblems, tasksMax } from '../core/rules/deployment-config-rules';
import { availableActions, decide, INVALID_ACTION_FOR_STATE, type DeploymentKind, type DeploymentState } from '../core/rules/deployment-state';
import type { RequestContext } from '../core/context';
import { resourceHandlers } from './_lib/crud';
import { BadRequestError, ConflictError, ForbiddenError, type SubError } from '../core/errors';
import { checkIfMatch } from './_lib/etag';
import { link, timestamp } from '../core/hal';
import { mutate } from './_lib/mutation';
import { notifyFailedStart } from './_lib/notify';
import { hal, plain, withPrecheck, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { replacesGeneric } from './_lib/wiring';
import { findVisible } from './_lib/store';
import { partAssociations, partAuditAs, partSearches, partsOf } from './parts/application-part';

/** Every deployment refusal is 400, not 422: the Terraform provider's client drops 422 bodies (docs/contract.md §5.15). */
const refusal = (message: string) => new BadRequestError([message], null, message);

const kindOf = (application: Row): DeploymentKind | null =>
  application.applicationType === 'Connector' || application.applicationType === 'Ksml' ? application.applicationType : null;

/** The application may run there: the right kind, a way to authenticate, and approved access (docs/contract.md §5.15). */
async function preconditions(ctx: RequestContext, application: Row, environment: Row, transaction?: Transaction): Promise<void> {
  const kind = kindOf(application);
  if (!kind) throw refusal('Only Connector and Ksml applications can be deployed');
  const where = { applicationUid: application.uid, environmentUid: environment.uid };
  if (kind === 'Connector' && !(await ctx.models.ApplicationPrincipal.findOne({ where: { ...where, active: true }, attributes: ['uid'], transaction }))) {
    throw refusal('No active Application Principal for this application in this environment');
  }
  if (kind === 'Ksml' && !(await authenticatesIn(ctx.models, application.uid, environment.uid, transaction))) {
    throw refusal('No Application Principal or Application Credential for this application in this environment');
  }
  if (!(await hasGrantInEffect(ctx.models.ApplicationAccessGrant, where, transaction))) {
    throw refusal('No approved Application Access Grant for this application in this environment');
  }
}

/** Connector configs against the plugin's definitions, KSML ones against the runner's options: 400, one entry per key. */
async function configProblems(ctx: RequestContext, application: Row, configs: Record<string, string>, transaction?: Transaction): Promise<SubError[]> {
  if (kindOf(application) === 'Ksml') return ksmlConfigProblems(configs);
  const plugin = application.applicationClass
    ? await ctx.models.ConnectPlugin.findOne({ where: { tenantUid: application.tenantUid, pluginClassKey: String(application.applicationClass).toLowerCase() }, transaction })
    : null;
  return connectorConfigProblems(configs, plugin ? { configDefinitions: plugin.configDefinitions } : null);
}

async function checkConfigs(ctx: RequestContext, application: Row, configs: Record<string, string>, transaction?: Transaction) {
  const problems = await configProblems(ctx, application, configs, transaction);
  if (problems.length > 0) throw new BadRequestError(problems.map((p) => p.message), problems, problems[0].message);
}

async function check(ctx: RequestContext, values: Record<string, any>, row?: Row, transaction?: Transaction) {
  const { application, environment } = await partsOf(ctx, row, values, transaction);
  if (row && row.state !== 'Stopped') throw refusal(INVALID_ACTION_FOR_STATE);
  if (!row) {
    if (!(await canEditApplication(ctx, application))) throw new ForbiddenError(`Only the editors of application ${application.shortName} may deploy it`);
    await preconditions(ctx, application, environment, transaction);
  }
  await checkConfigs(ctx, application, (values.configs ?? row?.configs ?? {}) as Record<string, string>, transaction);
  if (row) return;
  // Uniqueness last, as docs/contract.md §2 orders it.
  if (await ctx.models.ApplicationDeployment.findOne({ where: { applicationUid: application.uid, environmentUid: environment.uid }, attributes: ['uid'], transaction })) {
    throw new ConflictError(`environment: application ${application.shortName} is already deployed in environment ${environment.shortName}`);
  }
  values.state = 'Stopped';
  values.restarts = 0;
}

const configsOut = (v: unknown) => Object.entries((v as Record<string, string> | null) ?? {})
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([configKey, configValue]) => ({ configKey, configValue }));

async function kindOfRow(ctx: RequestContext, row: Row): Promise<DeploymentKind | null> {
  const application = await ctx.models.Application.findOne({ where: { uid: row.applicationUid }, attributes: ['applicationType'] });
  return application ? kindOf(application) : null;
}

/** `status`, `logs` and the operations the state offers, when the caller may operate (docs/contract.md §5.15). */
async function operationLinks(ctx: RequestContext, row: Row, self: string): Promise<Record<string, unknown>> {
  const links: Record<string, unknown> = { status: link(`${self}/status`), logs: link(`${self}/logs`) };
  const kind = await kindOfRow(ctx, row);
  if (!kind || !(await editsApplicationOf(ctx, row))) return links;
  for (const { rel, action } of availableActions(row.state as DeploymentState, kind)) links[rel] = link(`${self}/operation?action=${action}`);
  return links;
}

const policy = applicationPartPolicy({ environmentOwnersSee: true });

export const deploymentResource: Resource<'application_deployments', 'findByApplication' | 'findByApplicationAndEnvironment'> = {
  collection: 'application_deployments',
  itemRel: 'applicationDeployment',
  model: (m) => m.ApplicationDeployment,
  auditType: 'Application',
  auditName: (row) => row.uid,
  auditAs: partAuditAs('deployment'),
  auditActions: { CREATED: 'APPLICATION_CONFIGURED', UPDATED: 'APPLICATION_CONFIGURED', DELETED: 'APPLICATION_UNCONFIGURED' },
  fields: [
    { name: 'configs', kind: 'map', default: () => ({}), output: configsOut },
    { name: 'state', readOnly: true },
  ],
  associations: partAssociations(),
  searches: partSearches('findByApplication', 'findByApplicationAndEnvironment'),
  policy: { ...policy, actionLinks: operationLinks, actions: { DEPLOYMENT_OPERATE: editsApplicationOf } },
  check,
};

const h = resourceHandlers(deploymentResource);

/** docs/contract.md §5.15, §11.6: 201 with an empty body and `Location`. */
export const createApplicationDeployment = replacesGeneric(withPrecheck(async (ctx) => {
  const reply = await h.create(ctx);
  return { status: 201, headers: { Location: String(reply.headers?.Location) } };
}, h.create.precheck!));

/** Only a stopped deployment is deleted (400 otherwise, docs/contract.md §5.15). */
export const deleteApplicationDeployment = replacesGeneric(async (ctx) => {
  const row = await findVisible(deploymentResource, ctx, ctx.params.id);
  if (!(await editsApplicationOf(ctx, row))) throw new ForbiddenError('Only the editors of the application may delete its deployments');
  if (row.state !== 'Stopped') throw refusal(INVALID_ACTION_FOR_STATE);
  return h.remove(ctx);
});

/** What the deployment reports; no runner is driven, so it is the recorded desired state (docs/contract.md §5.15). */
async function statusBody(ctx: RequestContext, row: Row) {
  const kind = await kindOfRow(ctx, row);
  const running = row.state === 'Running';
  const self = `${ctx.base}/application_deployments/${row.uid}`;
  const tasks = tasksMax(row.configs as Record<string, string>);
  return {
    connectorState: kind === 'Connector' ? { state: running ? 'Running' : 'Stopped', trace: null, workerId: 'embedded' } : null,
    taskStates: kind === 'Connector' ? (running ? Array.from({ length: tasks }, (_, id) => ({ id, status: 'Running', trace: null, workerId: 'embedded' })) : []) : null,
    ksmlStatus: kind === 'Ksml'
      ? running
        ? { status: 'Running', replicas: 1, readyReplicas: 1, appVersion: null, deployedAt: timestamp(row.startedAt), restartsCount: row.restarts ?? 0, lastRestart: timestamp(row.lastRestart) }
        : { status: 'Undeployed', replicas: null, readyReplicas: null, appVersion: null, deployedAt: null, restartsCount: row.restarts ?? 0, lastRestart: timestamp(row.lastRestart) }
      : null,
    _links: { self: link(`${self}/status`), ...(await operationLinks(ctx, row, self)) },
  };
}

export const getApplicationDeploymentStatus: Handler = async (ctx) => hal(await statusBody(ctx, await findVisible(deploymentResource, ctx, ctx.params.id)));
export const getApplicationDeploymentLogs: Handler = async (ctx) => {
  await findVisible(deploymentResource, ctx, ctx.params.id);
  return plain({ logs: [] });
};

/**
 * `PUT {self}/operation?action=X` with `{action, taskId?}` (docs/contract.md §5.15, §6.2): the action may come in the query,
 * the body or both (then equal). START checks the preconditions and configs again. Answers the status.
 */
/** The target (404), the editor (403) and If-Match (412): before an unknown `action` (400), docs/contract.md §2. */
async function operable(ctx: RequestContext): Promise<Row> {
  const row = await findVisible(deploymentResource, ctx, ctx.params.id);
  if (!(await editsApplicationOf(ctx, row))) throw new ForbiddenError('Only the editors of the application may operate its deployments');
  checkIfMatch(ctx, row);
  return row;
}

export const operateApplicationDeployment: Handler = withPrecheck(async (ctx) => {
  const row = await operable(ctx);
  const body = (ctx.body ?? {}) as { action?: unknown; taskId?: unknown };
  const query = Array.isArray(ctx.rawQuery.action) ? ctx.rawQuery.action[0] : ctx.rawQuery.action;
  if (query !== undefined && body.action !== undefined && body.action !== null && String(body.action).toUpperCase() !== String(query).toUpperCase()) {
    throw new BadRequestError(['action: the query and the body name different actions'], [{ field: 'action', message: 'the query and the body name different actions', rejectedValue: body.action }]);
  }
  const requested = query ?? body.action;
  if (requested === undefined || requested === null || requested === '') throw new BadRequestError(['action: is required'], [{ field: 'action', message: 'is required' }]);
  const taskId = body.taskId ?? ctx.rawQuery.taskId;
  const kind = (await kindOfRow(ctx, row)) ?? 'Connector';
  const decision = decide(row.state as DeploymentState, requested, { kind, tasksMax: tasksMax(row.configs as Record<string, string>), taskId });
  if (decision.kind === 'refused') {
    throw new BadRequestError([decision.field ? `${decision.field}: ${decision.message}` : decision.message], decision.field ? [{ field: decision.field, message: decision.message }] : null, decision.message);
  }
  if (decision.kind === 'view') {
    return decision.action === 'VIEW_LOGS' ? plain({ logs: [] }) : hal(await statusBody(ctx, row));
  }
  const { application, environment } = await partsOf(ctx, row);
  if (decision.action === 'START') {
    try {
      await preconditions(ctx, application, environment);
      await checkConfigs(ctx, application, row.configs as Record<string, string>);
    } catch (err) {
      // The application's owners hear of a start that could not happen (issue 44), then the caller of its refusal.
      if (err instanceof BadRequestError) await notifyFailedStart(ctx, row.uid as string, err.message);
      throw err;
    }
  }
  await mutate(ctx, async (transaction) => {
    const now = new Date();
    const restart = decision.action === 'RESTART' || decision.action === 'RESTART_TASK';
    const [changed] = await ctx.models.ApplicationDeployment.update({
      state: decision.to, modifiedBy: ctx.principal.email, modifiedAt: now,
      ...(decision.action === 'START' ? { startedAt: now } : {}),
      ...(restart ? { restarts: (row.restarts ?? 0) + 1, lastRestart: now } : {}),
      version: ctx.models.sequelize.literal('version + 1'),
    }, { where: { uid: row.uid, state: decision.from }, transaction, silent: true });
    // Compare-and-set, as for grants: of two concurrent operations on one deployment only one applies.
    if (changed !== 1) throw new ConflictError('The deployment was changed by a concurrent operation; reload it and retry');
    return {
      result: undefined,
      audit: [{
        action: decision.audit, resourceType: 'Application', resourceName: application.shortName, resourceId: application.uid,
        details: { deployment: row.uid, environment: environment.shortName, ...(decision.details ?? {}) },
      }],
    };
  });
  await row.reload();
  return hal(await statusBody(ctx, row));
}, operable);
