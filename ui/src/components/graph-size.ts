/**
 * The stream graph's box sizes, and the height its drawing will take, known before the layout code (dagre, loaded
 * with the graph) arrives: the page keeps that much room, so nothing below moves when the graph is drawn.
 */
export const NODE_HEIGHT = 44;
export const NODE_GAP = 14;
export const MARGIN = 8;

/** Left to right: producers (and requests to produce) in one column, consumers in the other, the stream between. */
export function expectedGraphHeight(counts: { producers: number; consumers: number }): number {
  const rows = Math.max(1, counts.producers, counts.consumers);
  return rows * NODE_HEIGHT + (rows - 1) * NODE_GAP + 2 * MARGIN;
}
