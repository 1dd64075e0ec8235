/**
 * The graph operations: who produces to and consumes from a stream, what an application produces to and consumes
 * from, and an environment as nodes and edges, a page of streams at a time. Read-only; each reads its rows in one
 * statement (models/graph.ts), and core/rules/graph.ts keeps every Private row the caller cannot see out of it.
 */
import { graphSight } from '../auth/policies/graph';
import type { RequestContext } from '../core/context';
import { link } from '../core/hal';
import { applicationGraph, environmentGraph, streamGraph } from '../core/rules/graph';
import type { Row } from '../models/define';
import { readApplicationGraph, readEnvironmentGraph, readStreamGraph } from '../models/graph';
import { applicationResource } from './applications';
import { applicationGraphEntry, applicationNode, environmentPart, environmentStreamNode, graphEdge, streamGraphEntry, subject } from './dto/graph';
import { environmentResource } from './environments';
import { COUNT_WINDOW, pageInfo, pagingLinks, parsePage } from './_lib/paging';
import { isNone } from './_lib/references';
import { hal, type CheckedHandler, type Handler } from './_lib/reply';
import type { Resource } from './_lib/resource';
import { findVisible, resolveBodyRef } from './_lib/store';
import { streamResource } from './streams';

/** `?environment=`: an environment the caller sees, else 400 naming the parameter; absent: every environment. */
async function environmentFilter(ctx: RequestContext): Promise<Row | undefined> {
  const value = ctx.query.environment;
  return isNone(value) ? undefined : resolveBodyRef(environmentResource, ctx, 'environment', value);
}

/** The GET of one item's graph: the item is read with the caller (server/app), as a GET of the item is. */
const ofItem = (resource: Resource, handler: Handler): CheckedHandler => Object.assign(handler, { itemModel: resource.model });

const reader = (ctx: RequestContext, groups: ReadonlySet<string>) => ({ tenantUid: ctx.principal.tenant.uid, groups: [...groups] });

/** An environment the filter names but the rows do not: listed, with nothing in it. */
function withNamed<E extends { environment: { uid: string } }>(entries: E[], named: Row | undefined, empty: (e: Row) => E): E[] {
  return named && !entries.some((e) => e.environment.uid === named.uid) ? [...entries, empty(named)] : entries;
}

const emptySide = { produce: [], consume: [], pending: [], hiddenProduce: 0, hiddenConsume: 0, hiddenPending: 0 };
const partOf = (e: Row) => ({ uid: e.uid, name: e.name, shortName: e.shortName, visibility: e.visibility, ownersUid: e.ownersUid, seen: true });

export const getStreamGraph = ofItem(streamResource, async (ctx) => {
  const stream = await findVisible(streamResource, ctx, ctx.params.id);
  const named = await environmentFilter(ctx);
  const sight = await graphSight(ctx);
  const rows = await readStreamGraph(ctx.models, reader(ctx, sight.groups), stream.uid, named?.uid);
  const graph = streamGraph(rows, sight, stream.ownersUid, new Date());
  const entries = withNamed(graph.environments, named, (e) => ({ environment: partOf(e), streamConfigUid: null, ...emptySide }));
  const self = `${ctx.base}/streams/${stream.uid}/graph`;
  return hal({
    stream: subject(ctx, 'streams', stream, { name: stream.name, visibility: stream.visibility }),
    environments: entries.map((e) => streamGraphEntry(ctx, e)),
    hiddenEnvironments: graph.hiddenEnvironments,
    _links: { self: link(named ? `${self}?environment=${named.uid}` : self), stream: link(`${ctx.base}/streams/${stream.uid}`) },
  });
});

export const getApplicationGraph = ofItem(applicationResource, async (ctx) => {
  const application = await findVisible(applicationResource, ctx, ctx.params.id);
  const named = await environmentFilter(ctx);
  const sight = await graphSight(ctx);
  const rows = await readApplicationGraph(ctx.models, reader(ctx, sight.groups), application.uid, named?.uid);
  const graph = applicationGraph(rows, sight, { ownersUid: application.ownersUid, applicationType: application.applicationType }, new Date());
  const entries = withNamed(graph.environments, named, (e) => ({ environment: partOf(e), streamConfigUid: null, ...emptySide }));
  const self = `${ctx.base}/applications/${application.uid}/graph`;
  return hal({
    application: subject(ctx, 'applications', application, {
      name: application.name, shortName: application.shortName, applicationType: application.applicationType, type: application.type ?? null, visibility: application.visibility,
    }),
    environments: entries.map((e) => applicationGraphEntry(ctx, e)),
    hiddenEnvironments: graph.hiddenEnvironments,
    _links: { self: link(named ? `${self}?environment=${named.uid}` : self), application: link(`${ctx.base}/applications/${application.uid}`) },
  });
});

export const getEnvironmentGraph = ofItem(environmentResource, async (ctx) => {
  const environment = await findVisible(environmentResource, ctx, ctx.params.id);
  // Paged by stream, in name order: page and size as every collection takes them; no other order is offered.
  const page = parsePage({ page: ctx.rawQuery.page, size: ctx.rawQuery.size }, {});
  const sight = await graphSight(ctx);
  const offset = page.page * page.size;
  const window = offset + page.size + COUNT_WINDOW;
  const { counted, entries } = await readEnvironmentGraph(ctx.models, reader(ctx, sight.groups), {
    environmentUid: environment.uid, allStreams: sight.allStreams, size: page.size, offset, window: window + 1,
  });
  const graph = environmentGraph(entries, sight, environment.ownersUid, new Date());
  const info = pageInfo(page, counted);
  const path = `${ctx.base}/environments/${environment.uid}/graph`;
  return hal({
    environment: environmentPart(ctx, { uid: environment.uid, name: environment.name, shortName: environment.shortName }),
    nodes: { streams: graph.streams.map((n) => environmentStreamNode(ctx, n)), applications: graph.applications.map((a) => applicationNode(ctx, a)) },
    edges: graph.edges.map((e) => graphEdge(ctx, e)),
    page: info,
    _links: { ...pagingLinks(path, [], page, info, counted > window), environment: link(`${ctx.base}/environments/${environment.uid}`) },
  });
});
