import { describe, expect, it } from 'vitest';
import { expectedGraphHeight } from '../../ui/src/components/graph-size';
import { layoutStreamGraph, type GraphNodeInput } from '../../ui/src/components/graph-layout';

const apps = (kind: GraphNodeInput['kind'], n: number): GraphNodeInput[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${kind}-${i}`, label: `application-${kind}-${i}`, detail: 'produces', kind }));

describe('expectedGraphHeight: the room kept for the graph before its layout code loads', () => {
  it.each([
    [0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [2, 3, 0, 0], [1, 1, 1, 1], [5, 2, 0, 3], [0, 0, 4, 0], [12, 7, 2, 2],
  ])('is the height dagre gives %i producers, %i consumers, %i requests to produce and %i to consume', (p, c, qp, qc) => {
    const stream: GraphNodeInput = { id: 'stream', label: 'payments', detail: 'dev', kind: 'stream' };
    const drawn = layoutStreamGraph(stream, [...apps('producer', p), ...apps('consumer', c), ...apps('pending-producer', qp), ...apps('pending-consumer', qc)]);
    expect(expectedGraphHeight({ producers: p + qp, consumers: c + qc })).toBe(drawn.height);
  });
});
