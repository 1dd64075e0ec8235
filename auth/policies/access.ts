/**
 * Application access and its grants (docs/contract.md §5.13, §5.14, §6.1, §7). Visible to the owners of the application,
 * the stream or (grants) the environment, and to APPLICATION_ADMIN, STREAM_ADMIN and tenant admins. Requests are
 * made by app editors; approvers are the stream's editors. The state machine (core/rules/grant-state.ts) decides what
 * each may do to a grant in its current status: links, `/auth` and the endpoints all ask it through here.
 */
import { parentRow } from '../parent-rows';
import { Op, type WhereOptions } from 'sequelize';
import type { RequestContext } from '../../core/context';
import { link } from '../../core/hal';
import type { Policy } from '../policy';
import type { Row } from '../../models/define';
import { memo } from '../../core/request-memo';
import { availableActions, type Capacities, type Expiry, type GrantAction, type GrantStatus } from '../../core/rules/grant-state';
import { editorGroupsOf, groupsOf, hasRole } from '../permissions';
import { APPLICATION_ADMIN, canEditApplication } from './application';
import { canEditStream, STREAM_ADMIN } from './stream';

const NOTHING: WhereOptions = { uid: { [Op.in]: [] } };

/** What the caller owns among applications, streams and environments (once per request); undefined when it sees every grant. */
async function owned(ctx: RequestContext) {
  if (hasRole(ctx, APPLICATION_ADMIN, STREAM_ADMIN)) return undefined;
  return memo(ctx, 'owned-applications-streams-environments', async () => {
    const groups = [...(await groupsOf(ctx))];
    if (groups.length === 0) return null;
    const { Application, Stream, Environment, data } = ctx.models;
    const [applications, streams, environments] = await data.readOwned([Application, Stream, Environment], ctx.principal.tenant.uid, groups, ctx.transaction);
    return { applications, streams, environments };
  });
}

/** What grantVisibility selects, of one grant. */
async function seesGrant(ctx: RequestContext, grant: Row): Promise<boolean> {
  const mine = await owned(ctx);
  if (mine === undefined) return true;
  if (mine === null) return false;
  return mine.applications.includes(grant.applicationUid as string) || mine.streams.includes(grant.streamUid as string)
    || mine.environments.includes(grant.environmentUid as string);
}

async function grantVisibility(ctx: RequestContext): Promise<WhereOptions | undefined> {
  const mine = await owned(ctx);
  if (mine === undefined) return undefined;
  if (mine === null) return NOTHING;
  return { [Op.or]: [{ applicationUid: mine.applications }, { streamUid: mine.streams }, { environmentUid: mine.environments }] };
}

async function accessVisibility(ctx: RequestContext): Promise<WhereOptions | undefined> {
  const mine = await owned(ctx);
  if (mine === undefined) return undefined;
  if (mine === null) return NOTHING;
  const inMyEnvironments = mine.environments.length === 0 ? [] : await ctx.models.ApplicationAccessGrant.findAll({
    where: { environmentUid: mine.environments }, attributes: ['accessUid'],
  });
  return { [Op.or]: [{ applicationUid: mine.applications }, { streamUid: mine.streams }, { uid: [...new Set(inMyEnvironments.map((g) => g.accessUid as string))] }] };
}

/**
 * The pending grants the caller may decide (approve or deny): all of them for STREAM_ADMIN and tenant admins, else
 * those on the streams it may edit as their owner (docs/contract.md §5.14, "awaiting my decision").
 */
export async function awaitingDecisionWhere(ctx: RequestContext): Promise<WhereOptions> {
  if (hasRole(ctx, STREAM_ADMIN)) return { status: 'Pending' };
  const groups = [...(await editorGroupsOf(ctx))];
  if (groups.length === 0) return NOTHING;
  const [streams] = await ctx.models.data.readOwned([ctx.models.Stream], ctx.principal.tenant.uid, groups, ctx.transaction);
  return { status: 'Pending', streamUid: streams };
}

/** The grants of the applications owned by a group of the caller's, whatever its roles ("my requests"). */
export async function ofMyApplicationsWhere(ctx: RequestContext): Promise<WhereOptions> {
  const groups = [...(await groupsOf(ctx))];
  if (groups.length === 0) return NOTHING;
  const [applications] = await ctx.models.data.readOwned([ctx.models.Application], ctx.principal.tenant.uid, groups, ctx.transaction);
  return { applicationUid: applications };
}

/** The caller's standing towards a grant: approver (stream editor) and/or app editor. */
export async function grantCapacities(ctx: RequestContext, grant: Row): Promise<Capacities> {
  const [application, stream] = await Promise.all([parentRow(ctx, 'Application', grant.applicationUid), parentRow(ctx, 'Stream', grant.streamUid)]);
  return {
    approver: !!stream && (await canEditStream(ctx, stream)),
    appEditor: !!application && (await canEditApplication(ctx, application)),
  };
}

/** The grant's end as the state machine weighs it, now. */
export const expiryOf = (grant: Row): Expiry => ({ expiresAt: (grant.expiresAt as Date | null) ?? null, now: new Date() });

async function allows(ctx: RequestContext, grant: Row, action: GrantAction): Promise<boolean> {
  return availableActions(grant.status as GrantStatus, await grantCapacities(ctx, grant), expiryOf(grant)).includes(action);
}

/** Where each action is taken (docs/contract.md §5.14): approve and cancel on the item, deny and revoke below it. */
const ACTION_HREF: Record<GrantAction, (self: string) => string> = {
  approve: (self) => self, deny: (self) => `${self}/deny`, cancel: (self) => self, revoke: (self) => `${self}/revoke`,
};

export async function grantActionLinks(ctx: RequestContext, grant: Row, self: string): Promise<Record<string, unknown>> {
  const actions = availableActions(grant.status as GrantStatus, await grantCapacities(ctx, grant), expiryOf(grant));
  return Object.fromEntries(actions.map((a) => [a, link(ACTION_HREF[a](self))]));
}

/** Who could request access for some application: its possible editors (the body names which, checked there). */
const mayRequestSome = async (ctx: RequestContext) => hasRole(ctx, 'APPLICATION_AUTHOR', APPLICATION_ADMIN) || (await groupsOf(ctx)).size > 0;

export const grantPolicy: Policy = {
  canCreate: mayRequestSome,
  canCreateIn: { parent: 'APPLICATION', allowed: canEditApplication },
  // PUT approves and DELETE cancels: `edit` and `delete` are offered exactly when those would succeed.
  canEdit: (ctx, row) => allows(ctx, row, 'approve'),
  canDelete: (ctx, row) => allows(ctx, row, 'cancel'),
  visible: grantVisibility,
  sees: seesGrant,
  actionLinks: grantActionLinks,
  actions: {
    GRANT_APPROVE: (ctx, row) => allows(ctx, row, 'approve'),
    GRANT_DENY: (ctx, row) => allows(ctx, row, 'deny'),
    GRANT_REVOKE: (ctx, row) => allows(ctx, row, 'revoke'),
    GRANT_CANCEL: (ctx, row) => allows(ctx, row, 'cancel'),
  },
};

/** The application's editors may re-send its (immutable) fields; nobody deletes an access row (405). */
export const accessPolicy: Policy = {
  canCreate: mayRequestSome,
  canEdit: async (ctx, row) => {
    const application = await parentRow(ctx, 'Application', row.applicationUid);
    return !!application && canEditApplication(ctx, application);
  },
  canDelete: () => false,
  visible: accessVisibility,
};
