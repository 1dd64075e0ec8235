/**
 * Where each box of a stream's graph goes: producers on the left, the stream in the middle, consumers on the right,
 * pending requests beside the side they ask for, laid out by dagre (layered, left to right) so that many nodes
 * never overlap and the edges route around them.
 */
import dagre from '@dagrejs/dagre';
import { MARGIN, NODE_GAP, NODE_HEIGHT } from './graph-size';

export interface GraphNodeInput { id: string; label: string; detail?: string; kind: 'stream' | 'producer' | 'consumer' | 'pending-producer' | 'pending-consumer' }
export interface PlacedNode extends GraphNodeInput { x: number; y: number; width: number; height: number }
export interface PlacedEdge { from: string; to: string; pending: boolean; points: { x: number; y: number }[] }
export interface Layout { width: number; height: number; nodes: PlacedNode[]; edges: PlacedEdge[] }

/** An average character of the node font at 14 px, and the box's padding: wide enough for its label. */
const CHAR = 7.4;
const PAD = 24;

export function layoutStreamGraph(stream: GraphNodeInput, applications: GraphNodeInput[]): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: NODE_GAP, ranksep: 70, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  const width = (n: GraphNodeInput) => Math.max(120, Math.ceil(Math.max(n.label.length, (n.detail ?? '').length) * CHAR) + PAD);
  for (const n of [stream, ...applications]) g.setNode(n.id, { width: width(n), height: NODE_HEIGHT });
  const edges: { from: string; to: string; pending: boolean }[] = applications.map((a) => (a.kind === 'producer' || a.kind === 'pending-producer'
    ? { from: a.id, to: stream.id, pending: a.kind === 'pending-producer' }
    : { from: stream.id, to: a.id, pending: a.kind === 'pending-consumer' }));
  for (const e of edges) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const byId = new Map([stream, ...applications].map((n) => [n.id, n]));
  const nodes = g.nodes().map((id) => {
    const { x, y, width: w, height: h } = g.node(id);
    return { ...byId.get(id)!, x: x - w / 2, y: y - h / 2, width: w, height: h };
  });
  const graph = g.graph();
  return {
    width: graph.width ?? 0,
    height: graph.height ?? 0,
    nodes,
    edges: edges.map((e) => ({ ...e, points: g.edge(e.from, e.to).points })),
  };
}
