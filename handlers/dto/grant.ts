/**
 * The shapes of an access grant other than its HAL item (docs/contract.md §5.13, §5.14): the plain reply of
 * `POST /application_access_grants`, the items of `search/findByAttributes` and a grant embedded in its access.
 * Each renders a whole page at once, one query per related kind.
 */
import { Op } from 'sequelize';
import { grantActionLinks } from '../../auth/policies/access';
import type { Row } from '../../models/define';
import { fullName } from '../../models/user';
import type { RequestContext } from '../../core/context';
import { commonFields, itemHref, link, timestamp } from '../../core/hal';
import { summary, wireFields } from '../_lib/render';
import { inEffect, instant } from './grant-expiry';
import { applicationResource } from '../applications';
import { environmentResource } from '../environments';
import { groupResource } from '../groups';
import { instanceResource } from '../instances';
import { streamResource } from '../streams';

type Kind = 'Application' | 'Stream' | 'Environment';

async function byUid(ctx: RequestContext, model: Kind, uids: string[]): Promise<Map<string, Row>> {
  const unique = [...new Set(uids)];
  const rows = unique.length === 0 ? [] : await ctx.models[model].findAll({ where: { uid: unique } });
  return new Map(rows.map((r) => [r.uid as string, r]));
}

async function relatedOf(ctx: RequestContext, grants: Row[]) {
  const [applications, streams, environments] = await Promise.all([
    byUid(ctx, 'Application', grants.map((g) => g.applicationUid)),
    byUid(ctx, 'Stream', grants.map((g) => g.streamUid)),
    byUid(ctx, 'Environment', grants.map((g) => g.environmentUid)),
  ]);
  return { applications, streams, environments };
}

const pairKey = (a: string, b: string) => `${a}:${b}`;

/** A plain item with Spring's `id` and `optLock` beside the fields and common fields. */
function plainItem(row: Row, fields: Record<string, unknown>): Record<string, unknown> {
  return { id: row.uid, ...fields, ...commonFields(row), optLock: row.version ?? 0 };
}

async function plainEnvironment(ctx: RequestContext, environment: Row) {
  const [instance, owners] = await Promise.all([
    ctx.models.Instance.findOne({ where: { uid: environment.instanceUid } }),
    ctx.models.Group.findOne({ where: { uid: environment.ownersUid } }),
  ]);
  return {
    ...plainItem(environment, wireFields(environmentResource, environment, ctx)),
    instance: instance ? plainItem(instance, wireFields(instanceResource, instance, ctx)) : null,
    owners: owners ? plainItem(owners, wireFields(groupResource, owners, ctx)) : null,
  };
}

/** The scalar fields every full form of a grant shares; `accessType` as the caller's form wants it. */
export function grantScalars(grant: Row, accessType: string): Record<string, unknown> {
  return {
    id: grant.uid, uid: grant.uid, status: grant.status, accessType, comment: grant.comment ?? null,
    requestedBy: grant.requestedBy ?? null, processedBy: grant.processedBy ?? null,
    pending: grant.status === 'Pending', approved: inEffect(grant),
    requested_at: timestamp(grant.requestedAt), processed_at: timestamp(grant.processedAt), expiresAt: instant(grant.expiresAt),
  };
}

/** The plain reply of `POST /application_access_grants`, as the Terraform provider decodes it. */
export async function plainGrant(ctx: RequestContext, grant: Row): Promise<Record<string, unknown>> {
  const { applications, streams, environments } = await relatedOf(ctx, [grant]);
  const application = applications.get(grant.applicationUid)!;
  const stream = streams.get(grant.streamUid)!;
  return {
    ...grantScalars(grant, grant.accessType),
    ...commonFields(grant),
    application: { id: application.uid, uid: application.uid, name: application.name, shortName: application.shortName },
    stream: { id: stream.uid, uid: stream.uid, name: stream.name },
    environment: await plainEnvironment(ctx, environments.get(grant.environmentUid)!),
  };
}

async function usersByEmail(ctx: RequestContext, emails: (string | null)[]): Promise<Map<string, Row>> {
  const keys = [...new Set(emails.filter((e): e is string => !!e).map((e) => e.toLowerCase()))];
  const users = keys.length === 0 ? [] : await ctx.models.User.findAll({ where: { tenantUid: ctx.principal.tenant.uid, emailKey: keys } });
  return new Map(users.map((u) => [String(u.email).toLowerCase(), u]));
}

function plainUser(user: Row | undefined): Record<string, unknown> | null {
  if (!user) return null;
  return {
    uid: user.uid, firstName: user.firstName, middleName: user.middleName ?? null, lastName: user.lastName,
    fullName: fullName(user as never), emailAddress: { email: user.email }, phoneNumber: user.phoneNumber ?? null,
    roles: ((user.roles as string[] | null) ?? []).map((name) => ({ name })),
  };
}

/** Pairs (application or stream, environment) that have a principal or credential, and a stream config. */
async function configured(ctx: RequestContext, grants: Row[]) {
  const environmentUid = [...new Set(grants.map((g) => g.environmentUid as string))];
  const applicationUid = [...new Set(grants.map((g) => g.applicationUid as string))];
  const streamUid = [...new Set(grants.map((g) => g.streamUid as string))];
  const attributes = ['applicationUid', 'environmentUid'];
  const [principals, credentials, configs] = grants.length === 0 ? [[], [], []] : await Promise.all([
    ctx.models.ApplicationPrincipal.findAll({ where: { applicationUid, environmentUid }, attributes }),
    ctx.models.ApplicationCredential.findAll({ where: { applicationUid, environmentUid }, attributes }),
    ctx.models.StreamConfig.findAll({ where: { [Op.and]: [{ streamUid }, { environmentUid }] }, attributes: ['streamUid', 'environmentUid'] }),
  ]);
  return {
    apps: new Set([...principals, ...credentials].map((r) => pairKey(r.applicationUid, r.environmentUid))),
    streams: new Set(configs.map((r) => pairKey(r.streamUid, r.environmentUid))),
  };
}

/** `_embedded.applicationAccessGrantResponses` of `search/findByAttributes`: `accessType` stays upper case. */
export async function grantSearchItems(grants: Row[], ctx: RequestContext): Promise<Record<string, unknown>[]> {
  const [{ applications, streams, environments }, users, ready] = await Promise.all([
    relatedOf(ctx, grants),
    usersByEmail(ctx, grants.flatMap((g) => [g.requestedBy, g.processedBy])),
    configured(ctx, grants),
  ]);
  return Promise.all(grants.map(async (g) => {
    const self = itemHref(ctx.base, 'application_access_grants', g.uid);
    const embedded: Record<string, unknown> = {};
    const environment = environments.get(g.environmentUid);
    const application = applications.get(g.applicationUid);
    const stream = streams.get(g.streamUid);
    if (environment) embedded.environment = summary(environmentResource, environment, ctx);
    if (application) embedded.application = summary(applicationResource, application, ctx);
    if (stream) embedded.stream = summary(streamResource, stream, ctx);
    return {
      uid: g.uid, accessType: g.accessType, status: g.status, comment: g.comment ?? null,
      appConfigured: ready.apps.has(pairKey(g.applicationUid, g.environmentUid)),
      streamConfigured: ready.streams.has(pairKey(g.streamUid, g.environmentUid)),
      requestedByUser: plainUser(users.get(String(g.requestedBy ?? '').toLowerCase())),
      processedByUser: plainUser(users.get(String(g.processedBy ?? '').toLowerCase())),
      requestedAt: timestamp(g.requestedAt), processedAt: timestamp(g.processedAt), expiresAt: instant(g.expiresAt),
      _embedded: embedded,
      _links: { self: link(self), ...(await grantActionLinks(ctx, g, self)) },
    };
  }));
}

/** A grant inside its access's `_embedded.grants` (docs/contract.md §5.13). */
export async function embeddedGrants(grants: Row[], ctx: RequestContext): Promise<Record<string, unknown>[]> {
  const environments = await byUid(ctx, 'Environment', grants.map((g) => g.environmentUid));
  return grants.map((g) => {
    const environment = environments.get(g.environmentUid);
    return {
      uid: g.uid, status: g.status, comment: g.comment ?? null, requestedBy: g.requestedBy ?? null, processedBy: g.processedBy ?? null,
      requestedAt: timestamp(g.requestedAt), processedAt: timestamp(g.processedAt), expiresAt: instant(g.expiresAt),
      environment: environment ? summary(environmentResource, environment, ctx) : null,
      _links: {
        self: link(itemHref(ctx.base, 'application_access_grants', g.uid)),
        environment: link(itemHref(ctx.base, 'environments', g.environmentUid)),
      },
    };
  });
}
