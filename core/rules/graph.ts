/**
 * The graph of who produces to and consumes from which stream, as pure functions over the rows the graph reads
 * answer (one per open grant). The rule: a Private stream, application or environment the caller cannot see never
 * appears, not even by name; an edge to one is only counted (`hidden…`). A grant is linked only where the caller
 * may read it (an owner of its application, stream or environment, APPLICATION_ADMIN, STREAM_ADMIN, tenant admins).
 * An Approved grant past its end is no producer or consumer, swept or not: the graph agrees with the grant's `approved`.
 */
import { grantInEffect } from './grant-state';

export type AccessType = 'PRODUCER' | 'CONSUMER';
export type OpenStatus = 'Approved' | 'Pending';

export interface EnvironmentPart { uid: string; name: string; shortName: string; visibility: string; ownersUid: string; seen: boolean }

export interface GraphApplication {
  uid: string; name: string; shortName: string; applicationType: string; type: string | null; visibility: string;
  ownersUid: string; ownersName: string | null; seen: boolean;
  /** The application's deployment in the environment (Stopped, Running), or null when it has none. */
  deploymentState: string | null;
}

export interface GraphStream {
  uid: string; name: string; visibility: string; ownersUid: string; ownersName: string | null; seen: boolean;
  streamConfigUid: string | null;
}

export interface EdgeRow { grantUid: string; accessType: AccessType; status: OpenStatus; requestedBy: string | null; requestedAt: Date | null; expiresAt: Date | null }

/** What the caller sees whole (its roles) and the groups it is in. */
export interface Sight { allStreams: boolean; allApplications: boolean; allEnvironments: boolean; allGrants: boolean; groups: ReadonlySet<string> }

/** The application kinds that are deployed by the service, whose deployment state the graph shows. */
export const DEPLOYED_KINDS: readonly string[] = ['Connector', 'Ksml'];

/** The deployment state where the kind has one (null: not deployed there), undefined for other kinds. */
export function deploymentOf(application: Pick<GraphApplication, 'applicationType' | 'deploymentState'>): string | null | undefined {
  return DEPLOYED_KINDS.includes(application.applicationType) ? application.deploymentState : undefined;
}

export const seesStream = (sight: Sight, s: Pick<GraphStream, 'seen'>) => sight.allStreams || s.seen;
export const seesApplication = (sight: Sight, a: Pick<GraphApplication, 'seen'>) => sight.allApplications || a.seen;
export const seesEnvironment = (sight: Sight, e: Pick<EnvironmentPart, 'seen'>) => sight.allEnvironments || e.seen;

/** Whether the caller may read a grant between these owners (auth/policies/access.ts grantVisibility). */
export function readsGrant(sight: Sight, owners: { application: string; stream: string; environment: string }): boolean {
  return sight.allGrants || sight.groups.has(owners.application) || sight.groups.has(owners.stream) || sight.groups.has(owners.environment);
}

export interface Member<T> { node: T; grantUid: string; grantReadable: boolean; status: OpenStatus; requestedBy: string | null; requestedAt: Date | null; expiresAt: Date | null; accessType: AccessType }

export interface Side<T> { produce: Member<T>[]; consume: Member<T>[]; pending: Member<T>[]; hiddenProduce: number; hiddenConsume: number; hiddenPending: number }

/** A Pending request (listed as pending, past its end too), or an Approved grant in effect at `now` (core/rules/grant-state). */
export const drawn = (edge: Pick<EdgeRow, 'status' | 'expiresAt'>, now: Date): boolean => edge.status === 'Pending' || grantInEffect(edge, now);

const emptySide = <T>(): Side<T> => ({ produce: [], consume: [], pending: [], hiddenProduce: 0, hiddenConsume: 0, hiddenPending: 0 });

/** One open grant on one side: listed when its far node is seen, else counted where it would have been. */
function place<T>(side: Side<T>, edge: EdgeRow, node: T, visible: boolean, grantReadable: boolean): void {
  const where = edge.status === 'Pending' ? 'pending' : edge.accessType === 'PRODUCER' ? 'produce' : 'consume';
  const hiddenKey = where === 'pending' ? 'hiddenPending' : where === 'produce' ? 'hiddenProduce' : 'hiddenConsume';
  if (!visible) {
    side[hiddenKey] += 1;
    return;
  }
  side[where].push({ node, grantUid: edge.grantUid, grantReadable, status: edge.status, requestedBy: edge.requestedBy, requestedAt: edge.requestedAt, expiresAt: edge.expiresAt, accessType: edge.accessType });
}

export interface StreamGraphRow { environment: EnvironmentPart; streamConfigUid: string; edge: (EdgeRow & { application: GraphApplication }) | null }
export interface EnvironmentEntry<T> extends Side<T> { environment: EnvironmentPart; streamConfigUid: string | null; deploymentState?: string | null }

/** Environments in the order of the rows, each once; those the caller cannot see only counted. */
function byEnvironment<R extends { environment: EnvironmentPart }, T>(rows: R[], sight: Sight, add: (entry: EnvironmentEntry<T>, row: R) => void, start: (row: R) => EnvironmentEntry<T>) {
  const entries = new Map<string, EnvironmentEntry<T>>();
  const hidden = new Set<string>();
  for (const row of rows) {
    if (!seesEnvironment(sight, row.environment)) {
      hidden.add(row.environment.uid);
      continue;
    }
    let entry = entries.get(row.environment.uid);
    if (!entry) entries.set(row.environment.uid, (entry = start(row)));
    add(entry, row);
  }
  return { environments: [...entries.values()], hiddenEnvironments: hidden.size };
}

/** A stream's graph at `now`: per environment it is configured in, its producers, consumers and pending requests. */
export function streamGraph(rows: StreamGraphRow[], sight: Sight, streamOwnersUid: string, now: Date) {
  return byEnvironment<StreamGraphRow, GraphApplication>(rows, sight, (entry, row) => {
    const e = row.edge;
    if (!e || !drawn(e, now)) return;
    const readable = readsGrant(sight, { application: e.application.ownersUid, stream: streamOwnersUid, environment: row.environment.ownersUid });
    place(entry, e, e.application, seesApplication(sight, e.application), readable);
  }, (row) => ({ environment: row.environment, streamConfigUid: row.streamConfigUid, ...emptySide<GraphApplication>() }));
}

export interface ApplicationGraphRow { environment: EnvironmentPart; deploymentState: string | null; edge: EdgeRow & { stream: GraphStream } }

/**
 * An application's graph at `now`: per environment it holds open grants in (drawn ones: an environment whose only
 * grant has ended is not one), the streams it produces to and consumes from.
 */
export function applicationGraph(rows: ApplicationGraphRow[], sight: Sight, application: Pick<GraphApplication, 'ownersUid' | 'applicationType'>, now: Date) {
  return byEnvironment<ApplicationGraphRow, GraphStream>(rows.filter((row) => drawn(row.edge, now)), sight, (entry, row) => {
    const e = row.edge;
    const readable = readsGrant(sight, { application: application.ownersUid, stream: e.stream.ownersUid, environment: row.environment.ownersUid });
    place(entry, e, e.stream, seesStream(sight, e.stream), readable);
  }, (row) => ({
    environment: row.environment, streamConfigUid: null, ...emptySide<GraphStream>(),
    deploymentState: deploymentOf({ applicationType: application.applicationType, deploymentState: row.deploymentState }),
  }));
}

export interface EnvironmentGraphRow { stream: GraphStream; edge: (EdgeRow & { application: GraphApplication }) | null }

export interface StreamNode { stream: GraphStream; hiddenProducers: number; hiddenConsumers: number }
export interface GraphEdge { kind: 'produce' | 'consume'; streamUid: string; applicationUid: string; grantUid: string; grantReadable: boolean }

/**
 * A page of an environment's graph at `now`: its streams (the rows hold only streams the caller sees), the
 * applications with an Approved grant in effect on them that the caller sees, each once, and an edge per such grant.
 */
export function environmentGraph(rows: EnvironmentGraphRow[], sight: Sight, environmentOwnersUid: string, now: Date) {
  const streams = new Map<string, StreamNode>();
  const applications = new Map<string, GraphApplication>();
  const edges: GraphEdge[] = [];
  for (const { stream, edge } of rows) {
    let node = streams.get(stream.uid);
    if (!node) streams.set(stream.uid, (node = { stream, hiddenProducers: 0, hiddenConsumers: 0 }));
    if (!edge || !drawn(edge, now)) continue;
    const producer = edge.accessType === 'PRODUCER';
    if (!seesApplication(sight, edge.application)) {
      if (producer) node.hiddenProducers += 1;
      else node.hiddenConsumers += 1;
      continue;
    }
    if (!applications.has(edge.application.uid)) applications.set(edge.application.uid, edge.application);
    const grantReadable = readsGrant(sight, { application: edge.application.ownersUid, stream: stream.ownersUid, environment: environmentOwnersUid });
    edges.push({ kind: producer ? 'produce' : 'consume', streamUid: stream.uid, applicationUid: edge.application.uid, grantUid: edge.grantUid, grantReadable });
  }
  return { streams: [...streams.values()], applications: [...applications.values()], edges };
}
