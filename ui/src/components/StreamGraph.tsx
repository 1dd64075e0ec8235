/**
 * A stream's graph in one environment, drawn as SVG: who produces to it and who consumes from it, and the pending
 * requests (dashed). Each application is a link to its page. The same facts follow as a list, for a screen reader
 * and for a narrow screen.
 */
import { Link } from '@tanstack/react-router';
import type { Schemas } from '@platform-management-service/client';
import { layoutStreamGraph, type GraphNodeInput } from './graph-layout';

type EnvironmentGraph = Schemas['StreamGraph']['environments'][number];
type Node = Schemas['GraphApplicationNode'];

const key = (n: Node, side: string) => `${side}:${n.uid}:${n.grant ?? ''}`;

export function StreamGraph({ stream, graph }: { stream: { uid: string; name: string }; graph: EnvironmentGraph }) {
  const apps: (GraphNodeInput & { uid: string })[] = [
    ...graph.producers.map((n) => ({ id: key(n, 'p'), uid: n.uid, label: n.shortName, detail: 'produces', kind: 'producer' as const })),
    ...graph.consumers.map((n) => ({ id: key(n, 'c'), uid: n.uid, label: n.shortName, detail: 'consumes', kind: 'consumer' as const })),
    ...graph.pendingRequests.map((n) => ({
      id: key(n, 'q'), uid: n.uid, label: n.shortName, detail: `asks to ${n.accessType === 'PRODUCER' ? 'produce' : 'consume'}`,
      kind: n.accessType === 'PRODUCER' ? 'pending-producer' as const : 'pending-consumer' as const,
    })),
  ];
  const layout = layoutStreamGraph({ id: 'stream', label: stream.name, detail: graph.environment.shortName, kind: 'stream' }, apps);
  const uidOf = new Map(apps.map((a) => [a.id, a.uid]));
  const hidden = graph.hiddenProducers + graph.hiddenConsumers + graph.hiddenPendingRequests;
  const title = `Who uses ${stream.name} in ${graph.environment.name}`;
  return (
    <figure className="graph">
      <svg viewBox={`0 0 ${layout.width} ${layout.height}`} width={layout.width} height={layout.height} role="group" aria-label={title}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="graph-arrow" />
          </marker>
        </defs>
        {layout.edges.map((e) => (
          <polyline key={`${e.from}>${e.to}`} points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} className={e.pending ? 'graph-edge pending' : 'graph-edge'} markerEnd="url(#arrow)" />
        ))}
        {layout.nodes.map((n) => {
          const box = (
            <>
              <rect x={n.x} y={n.y} width={n.width} height={n.height} rx="8" className={`graph-node ${n.kind}`} />
              <text>
                <tspan x={n.x + 12} y={n.y + 19} className="graph-label">{n.label}</tspan>
                {n.detail && <>{' '}<tspan x={n.x + 12} y={n.y + 35} className="graph-detail">{n.detail}</tspan></>}
              </text>
            </>
          );
          const uid = uidOf.get(n.id);
          return uid
            ? <Link key={n.id} to="/applications/$uid" params={{ uid }}>{box}</Link>
            : <g key={n.id}>{box}</g>;
        })}
      </svg>
      <figcaption>
        {apps.length === 0 ? 'No application produces to, consumes from or asks for this stream here.' : (
          <ul className="graph-facts">
            {graph.producers.map((n) => <li key={key(n, 'p')}>{n.shortName} produces</li>)}
            {graph.consumers.map((n) => <li key={key(n, 'c')}>{n.shortName} consumes</li>)}
            {graph.pendingRequests.map((n) => <li key={key(n, 'q')}>{n.shortName} asks to {n.accessType === 'PRODUCER' ? 'produce' : 'consume'} (pending)</li>)}
          </ul>
        )}
        {hidden > 0 && <p className="meta">{hidden} more you may not see.</p>}
      </figcaption>
    </figure>
  );
}
