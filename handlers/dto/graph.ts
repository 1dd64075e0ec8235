/**
 * The wire shapes of the graph operations (openapi/schemas/graph.yaml) from core/rules/graph.ts's answers: every
 * node links to its item, every grant the caller may read to the grant, every configured stream to its config.
 */
import type { Row } from '../../models/define';
import type { RequestContext } from '../../core/context';
import { itemHref, link, timestamp, type Link } from '../../core/hal';
import { instant } from './grant-expiry';
import {
  deploymentOf, type EnvironmentEntry, type EnvironmentPart, type GraphApplication, type GraphEdge, type GraphStream, type Member, type StreamNode,
} from '../../core/rules/graph';

const href = (ctx: RequestContext, collection: string, uid: string) => itemHref(ctx.base, collection, uid);
const owners = (uid: string, name: string | null) => ({ uid, name });

export function environmentPart(ctx: RequestContext, e: Pick<EnvironmentPart, 'uid' | 'name' | 'shortName'>) {
  return { uid: e.uid, name: e.name, shortName: e.shortName, _links: { environment: link(href(ctx, 'environments', e.uid)) } };
}

export function applicationNode(ctx: RequestContext, a: GraphApplication) {
  const deploymentState = deploymentOf(a);
  return {
    uid: a.uid, name: a.name, shortName: a.shortName, applicationType: a.applicationType, type: a.type, visibility: a.visibility,
    owners: owners(a.ownersUid, a.ownersName), ...(deploymentState !== undefined ? { deploymentState } : {}),
    _links: { application: link(href(ctx, 'applications', a.uid)), owners: link(href(ctx, 'groups', a.ownersUid)), graph: link(`${href(ctx, 'applications', a.uid)}/graph`) },
  };
}

export function streamNode(ctx: RequestContext, s: GraphStream) {
  const links: Record<string, Link> = { stream: link(href(ctx, 'streams', s.uid)), owners: link(href(ctx, 'groups', s.ownersUid)), graph: link(`${href(ctx, 'streams', s.uid)}/graph`) };
  if (s.streamConfigUid) links.streamConfig = link(href(ctx, 'stream_configs', s.streamConfigUid));
  return { uid: s.uid, name: s.name, visibility: s.visibility, owners: owners(s.ownersUid, s.ownersName), streamConfig: s.streamConfigUid, _links: links };
}

/** A node at the far end of an open grant, with the grant where the caller may read it. */
function member<T>(ctx: RequestContext, m: Member<T>, node: (ctx: RequestContext, n: T) => { _links: Record<string, Link> }) {
  const shown = node(ctx, m.node);
  if (!m.grantReadable) return { ...shown, accessType: m.accessType, status: m.status };
  return {
    ...shown, accessType: m.accessType, status: m.status, grant: m.grantUid, requestedBy: m.requestedBy, requested_at: timestamp(m.requestedAt), expiresAt: instant(m.expiresAt),
    _links: { ...shown._links, applicationAccessGrant: link(href(ctx, 'application_access_grants', m.grantUid)) },
  };
}

export function streamGraphEntry(ctx: RequestContext, e: EnvironmentEntry<GraphApplication>) {
  const node = applicationNode;
  return {
    environment: environmentPart(ctx, e.environment), streamConfig: e.streamConfigUid,
    producers: e.produce.map((m) => member(ctx, m, node)), consumers: e.consume.map((m) => member(ctx, m, node)),
    pendingRequests: e.pending.map((m) => member(ctx, m, node)),
    hiddenProducers: e.hiddenProduce, hiddenConsumers: e.hiddenConsume, hiddenPendingRequests: e.hiddenPending,
    _links: { environment: link(href(ctx, 'environments', e.environment.uid)), ...(e.streamConfigUid ? { streamConfig: link(href(ctx, 'stream_configs', e.streamConfigUid)) } : {}) },
  };
}

export function applicationGraphEntry(ctx: RequestContext, e: EnvironmentEntry<GraphStream>) {
  return {
    environment: environmentPart(ctx, e.environment), ...(e.deploymentState !== undefined ? { deploymentState: e.deploymentState } : {}),
    producesTo: e.produce.map((m) => member(ctx, m, streamNode)), consumesFrom: e.consume.map((m) => member(ctx, m, streamNode)),
    pendingRequests: e.pending.map((m) => member(ctx, m, streamNode)),
    hiddenProducesTo: e.hiddenProduce, hiddenConsumesFrom: e.hiddenConsume, hiddenPendingRequests: e.hiddenPending,
    _links: { environment: link(href(ctx, 'environments', e.environment.uid)) },
  };
}

export function environmentStreamNode(ctx: RequestContext, n: StreamNode) {
  return { ...streamNode(ctx, n.stream), hiddenProducers: n.hiddenProducers, hiddenConsumers: n.hiddenConsumers };
}

export function graphEdge(ctx: RequestContext, e: GraphEdge) {
  const base = { kind: e.kind, stream: e.streamUid, application: e.applicationUid };
  if (!e.grantReadable) return { ...base, _links: {} };
  return { ...base, grant: e.grantUid, _links: { applicationAccessGrant: link(href(ctx, 'application_access_grants', e.grantUid)) } };
}

/** The subject of a graph: the row the path names, as a small summary. */
export const subject = (ctx: RequestContext, collection: string, row: Row, fields: Record<string, unknown>) => ({
  uid: row.uid, ...fields, _links: { self: link(href(ctx, collection, row.uid)) },
});
