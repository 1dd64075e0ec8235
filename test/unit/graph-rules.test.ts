/**
 * The graph's rule (core/rules/graph.ts): every combination of a node's visibility to the caller, the edge's access
 * type and status, and the caller's standing towards the grant; a node the caller cannot see is counted where it
 * would have been listed and never named.
 */
import { describe, expect, it } from 'vitest';
import {
  applicationGraph, deploymentOf, environmentGraph, readsGrant, streamGraph,
  type AccessType, type EnvironmentPart, type GraphApplication, type GraphStream, type OpenStatus, type Sight,
} from '../../core/rules/graph';

const nobody: Sight = { allStreams: false, allApplications: false, allEnvironments: false, allGrants: false, groups: new Set() };
const admin: Sight = { allStreams: true, allApplications: true, allEnvironments: true, allGrants: true, groups: new Set() };
const env = (uid: string, seen = true): EnvironmentPart => ({ uid, name: uid, shortName: uid, visibility: seen ? 'Public' : 'Private', ownersUid: `${uid}-owners`, seen });
const application = (uid: string, seen: boolean, applicationType = 'Custom'): GraphApplication => ({
  uid, name: uid, shortName: uid, applicationType, type: null, visibility: seen ? 'Public' : 'Private', ownersUid: `${uid}-owners`, ownersName: null, seen, deploymentState: null,
});
const stream = (uid: string, seen: boolean): GraphStream => ({ uid, name: uid, visibility: seen ? 'Public' : 'Private', ownersUid: `${uid}-owners`, ownersName: null, seen, streamConfigUid: `${uid}-config` });
const NOW = new Date('2026-05-01T12:00:00Z');
const PAST = new Date(NOW.getTime() - 1);
const edge = (n: number, accessType: AccessType, status: OpenStatus, expiresAt: Date | null = null) =>
  ({ grantUid: `g${n}`, accessType, status, requestedBy: 'dev@example.com', requestedAt: null, expiresAt });

const CASES: Array<[AccessType, OpenStatus, 'produce' | 'consume' | 'pending']> = [
  ['PRODUCER', 'Approved', 'produce'], ['CONSUMER', 'Approved', 'consume'], ['PRODUCER', 'Pending', 'pending'], ['CONSUMER', 'Pending', 'pending'],
];
const HIDDEN = { produce: 'hiddenProduce', consume: 'hiddenConsume', pending: 'hiddenPending' } as const;

describe('a stream graph', () => {
  for (const [accessType, status, where] of CASES) {
    for (const seen of [true, false]) {
      for (const [who, sight] of [['nobody', nobody], ['an admin', admin]] as const) {
        it(`${accessType} ${status}, application ${seen ? 'seen' : 'unseen'}, as ${who}`, () => {
          const rows = [{ environment: env('e'), streamConfigUid: 'c', edge: { ...edge(1, accessType, status), application: application('a', seen) } }];
          const [entry] = streamGraph(rows, sight, 'stream-owners', NOW).environments;
          const listed = seen || sight === admin;
          expect(entry[where].map((m) => m.node.uid)).toEqual(listed ? ['a'] : []);
          expect(entry[HIDDEN[where]]).toBe(listed ? 0 : 1);
          for (const other of (['produce', 'consume', 'pending'] as const).filter((w) => w !== where)) {
            expect([entry[other], entry[HIDDEN[other]]]).toEqual([[], 0]);
          }
          if (listed) expect(entry[where][0].grantReadable).toBe(sight === admin);
        });
      }
    }
  }

  it('an environment the caller cannot see is counted once, however many rows it has', () => {
    const rows = [1, 2].map((n) => ({ environment: env('hidden', false), streamConfigUid: 'c', edge: { ...edge(n, 'CONSUMER', 'Approved'), application: application(`a${n}`, true) } }));
    expect(streamGraph([...rows, { environment: env('shown'), streamConfigUid: 'c2', edge: null }], nobody, 'o', NOW)).toMatchObject({ hiddenEnvironments: 1, environments: [{ environment: { uid: 'shown' } }] });
  });
});

describe('an application graph', () => {
  it('a stream the caller cannot see is counted, a seen one listed with its config', () => {
    const rows = [
      { environment: env('e'), deploymentState: 'Running', edge: { ...edge(1, 'PRODUCER', 'Approved'), stream: stream('s1', true) } },
      { environment: env('e'), deploymentState: 'Running', edge: { ...edge(2, 'PRODUCER', 'Approved'), stream: stream('s2', false) } },
    ];
    const [entry] = applicationGraph(rows, nobody, { ownersUid: 'app-owners', applicationType: 'Connector' }, NOW).environments;
    expect(entry.produce.map((m) => m.node.streamConfigUid)).toEqual(['s1-config']);
    expect(entry.hiddenProduce).toBe(1);
    expect(entry.deploymentState).toBe('Running');
  });
});

describe('an environment graph', () => {
  it('applications once each, edges per grant, unseen applications counted on their stream', () => {
    const rows = [
      { stream: stream('s1', true), edge: { ...edge(1, 'PRODUCER', 'Approved'), application: application('a', true) } },
      { stream: stream('s1', true), edge: { ...edge(2, 'CONSUMER', 'Approved'), application: application('a', true) } },
      { stream: stream('s1', true), edge: { ...edge(3, 'CONSUMER', 'Approved'), application: application('secret', false) } },
      { stream: stream('s2', true), edge: null },
    ];
    const graph = environmentGraph(rows, nobody, 'env-owners', NOW);
    expect(graph.streams.map((s) => [s.stream.uid, s.hiddenProducers, s.hiddenConsumers])).toEqual([['s1', 0, 1], ['s2', 0, 0]]);
    expect(graph.applications.map((a) => a.uid)).toEqual(['a']);
    expect(graph.edges.map((e) => [e.kind, e.streamUid, e.applicationUid])).toEqual([['produce', 's1', 'a'], ['consume', 's1', 'a']]);
    expect(JSON.stringify(graph)).not.toContain('secret');
  });
});

/**
 * An Approved grant past its end answers `approved: false` before the sweep revokes it: no graph draws it as a
 * producer or consumer, nor counts it hidden. A Pending request past its end is still the requester's to cancel.
 */
describe('grants past their end, not yet swept', () => {
  const ended = (n: number, accessType: AccessType) => edge(n, accessType, 'Approved', PAST);

  it('a stream graph keeps the environment and draws neither the ended grant nor its hidden count; a Pending one stays pending', () => {
    const rows = [
      { environment: env('e'), streamConfigUid: 'c', edge: { ...ended(1, 'PRODUCER'), application: application('gone', true) } },
      { environment: env('e'), streamConfigUid: 'c', edge: { ...ended(2, 'CONSUMER'), application: application('secret', false) } },
      { environment: env('e'), streamConfigUid: 'c', edge: { ...edge(3, 'CONSUMER', 'Approved', NOW), application: application('at-end', true) } },
      { environment: env('e'), streamConfigUid: 'c', edge: { ...edge(4, 'CONSUMER', 'Approved', new Date(NOW.getTime() + 1)), application: application('live', true) } },
      { environment: env('e'), streamConfigUid: 'c', edge: { ...edge(5, 'PRODUCER', 'Pending', PAST), application: application('asking', true) } },
    ];
    const [entry] = streamGraph(rows, nobody, 'o', NOW).environments;
    expect(entry).toMatchObject({ environment: { uid: 'e' }, produce: [], hiddenProduce: 0, hiddenConsume: 0, hiddenPending: 0 });
    expect(entry.consume.map((m) => m.node.uid)).toEqual(['live']);
    expect(entry.pending.map((m) => m.node.uid)).toEqual(['asking']);
  });

  it('an application graph leaves out an environment whose only grant has ended', () => {
    const rows = [
      { environment: env('ended'), deploymentState: null, edge: { ...ended(1, 'CONSUMER'), stream: stream('s1', true) } },
      { environment: env('hidden-ended', false), deploymentState: null, edge: { ...ended(2, 'CONSUMER'), stream: stream('s2', true) } },
      { environment: env('live'), deploymentState: null, edge: { ...ended(3, 'PRODUCER'), stream: stream('s3', true) } },
      { environment: env('live'), deploymentState: null, edge: { ...edge(4, 'CONSUMER', 'Approved'), stream: stream('s4', true) } },
    ];
    const graph = applicationGraph(rows, nobody, { ownersUid: 'o', applicationType: 'Custom' }, NOW);
    expect(graph.hiddenEnvironments).toBe(0);
    expect(graph.environments.map((e) => [e.environment.uid, e.produce.length, e.consume.map((m) => m.node.uid)])).toEqual([['live', 0, ['s4']]]);
  });

  it('an environment graph keeps the stream and draws no edge, application or hidden count for the ended grant', () => {
    const rows = [
      { stream: stream('s1', true), edge: { ...ended(1, 'PRODUCER'), application: application('gone', true) } },
      { stream: stream('s1', true), edge: { ...ended(2, 'CONSUMER'), application: application('secret', false) } },
    ];
    const graph = environmentGraph(rows, nobody, 'env-owners', NOW);
    expect(graph).toEqual({ streams: [{ stream: stream('s1', true), hiddenProducers: 0, hiddenConsumers: 0 }], applications: [], edges: [] });
  });
});

describe('grants and deployments', () => {
  it.each([
    ['the application', 'a', true], ['the stream', 's', true], ['the environment', 'e', true], ['another group', 'x', false],
  ])('a member of the owners of %s reads the grant: %s', (_what, group, reads) => {
    expect(readsGrant({ ...nobody, groups: new Set([group]) }, { application: 'a', stream: 's', environment: 'e' })).toBe(reads);
  });

  it.each([['Connector', 'Running', 'Running'], ['Ksml', null, null], ['Custom', 'Running', undefined]] as const)('%s with deployment %s shows %s', (kind, state, shown) => {
    expect(deploymentOf({ applicationType: kind, deploymentState: state })).toBe(shown);
  });
});
