/**
 * Browse permissions of a stream config (docs/contract.md §5.8): users and groups allowed to browse the topic's messages,
 * read as a plain array and granted or revoked by the stream's editors. Audited on the stream (Topic).
 */
import type { Transaction } from 'sequelize';
import { groupsOf } from '../auth/permissions';
import type { Row } from '../models/define';
import { browseRefusal, selfGrantProblems } from '../core/rules/stream-config-rules';
import type { RequestContext } from '../core/context';
import { emailOutput } from './_lib/email';
import { checkIfMatch } from './_lib/etag';
import { BadRequestError, ForbiddenError, UnprocessableError } from '../core/errors';
import { mutate } from './_lib/mutation';
import { noContent, plain, withPrecheck, type Handler } from './_lib/reply';
import { findVisible, resolveBodyRef } from './_lib/store';
import { groupResource } from './groups';
import { streamConfigResource } from './stream-configs';
import { userResource } from './users';

/** Only `browse` is a permission type here (any case); anything else is 400. */
function permissionType(ctx: RequestContext): void {
  const raw = ctx.query.type ?? (ctx.body as { type?: unknown } | undefined)?.type;
  const type = Array.isArray(raw) ? raw[0] : raw;
  if (typeof type === 'string' && type.toLowerCase() === 'browse') return;
  const message = type === undefined ? 'is required' : 'must be browse';
  throw new BadRequestError([`type: ${message}`], [{ field: 'type', message, rejectedValue: type ?? null }]);
}

async function listOf(ctx: RequestContext, config: Row, transaction?: Transaction) {
  const { StreamConfigBrowseUser, StreamConfigBrowseGroup, User, Group } = ctx.models;
  const order: [string, string][] = [['position', 'ASC'], ['targetUid', 'ASC']];
  // One after the other: inside a transaction both share its one connection.
  const userLinks = await StreamConfigBrowseUser.findAll({ where: { sourceUid: config.uid }, order, transaction });
  const groupLinks = await StreamConfigBrowseGroup.findAll({ where: { sourceUid: config.uid }, order, transaction });
  const users = new Map((await User.findAll({ where: { uid: userLinks.map((l) => l.targetUid) }, transaction })).map((u) => [u.uid as string, u]));
  const groups = new Map((await Group.findAll({ where: { uid: groupLinks.map((l) => l.targetUid) }, transaction })).map((g) => [g.uid as string, g]));
  return [
    ...userLinks.map((l) => users.get(l.targetUid)).filter((u): u is Row => !!u).map((u) => ({
      uid: u.uid, type: 'USER', firstName: u.firstName, middleName: u.middleName ?? null, lastName: u.lastName, emailAddress: emailOutput(u.email),
    })),
    ...groupLinks.map((l) => groups.get(l.targetUid)).filter((g): g is Row => !!g).map((g) => ({
      uid: g.uid, type: 'GROUP', name: g.name, emailAddress: emailOutput(g.email),
    })),
  ];
}

const visible = (ctx: RequestContext) => findVisible(streamConfigResource, ctx, ctx.params.id);

/** Target 404 → 403 → 412: also run when the request fails validation against the spec. */
async function changeable(ctx: RequestContext) {
  const config = await visible(ctx);
  if (!(await streamConfigResource.policy.canEdit(ctx, config))) throw new ForbiddenError('Only the editors of the stream may change its browse permissions');
  checkIfMatch(ctx, config);
  return config;
}

/** Target 404 → 403 → 412 → 400 → references → 422 (docs/contract.md §2), then the users and groups named in the body. */
async function editable(ctx: RequestContext) {
  const config = await changeable(ctx);
  permissionType(ctx);
  const body = (ctx.body ?? {}) as { users?: unknown[] | null; groups?: unknown[] | null };
  const users: string[] = [];
  const groups: string[] = [];
  for (const [i, ref] of (body.users ?? []).entries()) users.push((await resolveBodyRef(userResource, ctx, `users[${i}]`, ref)).uid);
  for (const [i, ref] of (body.groups ?? []).entries()) groups.push((await resolveBodyRef(groupResource, ctx, `groups[${i}]`, ref)).uid);
  const environment = (await ctx.models.Environment.findOne({ where: { uid: config.environmentUid } }))!;
  const instance = (await ctx.models.Instance.findOne({ where: { uid: environment.instanceUid } }))!;
  const refusal = browseRefusal({ granularBrowsePermission: instance.granularBrowsePermission === true, visibility: environment.visibility, authorizationIssuer: environment.authorizationIssuer });
  if (refusal) throw new UnprocessableError(refusal);
  const own = selfGrantProblems(users, groups, ctx.principal.user.uid, await groupsOf(ctx));
  if (own.length > 0) throw new UnprocessableError(own);
  const stream = (await ctx.models.Stream.findOne({ where: { uid: config.streamUid } }))!;
  return { config, stream, environment, users: [...new Set(users)], groups: [...new Set(groups)] };
}

type Target = Awaited<ReturnType<typeof editable>>;

const audit = (action: string, t: Target) => ({
  action, resourceType: 'Topic', resourceName: t.stream.name, resourceId: t.stream.uid,
  details: { environment: t.environment.shortName, streamConfig: t.config.uid, users: t.users, groups: t.groups },
});

export const getStreamConfigPermissions: Handler = withPrecheck(async (ctx) => {
  const config = await visible(ctx);
  permissionType(ctx);
  return plain(await listOf(ctx, config));
}, visible);

export const addStreamConfigPermissions: Handler = withPrecheck(async (ctx) => {
  const target = await editable(ctx);
  const list = await mutate(ctx, async (transaction) => {
    const { StreamConfigBrowseUser, StreamConfigBrowseGroup } = ctx.models;
    for (const [join, uids] of [[StreamConfigBrowseUser, target.users], [StreamConfigBrowseGroup, target.groups]] as const) {
      const existing = await join.findAll({ where: { sourceUid: target.config.uid }, transaction });
      const added = uids.filter((u) => !existing.some((e) => e.targetUid === u));
      await join.bulkCreate(added.map((targetUid, i) => ({ sourceUid: target.config.uid, targetUid, position: existing.length + i })), { transaction });
    }
    return { result: await listOf(ctx, target.config, transaction), audit: [audit('BROWSE_PERMISSION_GRANTED', target)] };
  });
  return plain(list);
}, changeable);

export const deleteStreamConfigPermissions: Handler = withPrecheck(async (ctx) => {
  const target = await editable(ctx);
  await mutate(ctx, async (transaction) => {
    const { StreamConfigBrowseUser, StreamConfigBrowseGroup } = ctx.models;
    if (target.users.length > 0) await StreamConfigBrowseUser.destroy({ where: { sourceUid: target.config.uid, targetUid: target.users }, transaction });
    if (target.groups.length > 0) await StreamConfigBrowseGroup.destroy({ where: { sourceUid: target.config.uid, targetUid: target.groups }, transaction });
    return { result: undefined, audit: [audit('BROWSE_PERMISSION_REVOKED', target)] };
  });
  return noContent();
}, changeable);
