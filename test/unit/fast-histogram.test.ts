/** The request and statement histograms: Prometheus's bucket rule (`le` is inclusive) and text format, via prom-client's registry. */
import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { FastHistogram } from '../../server/telemetry/fast-histogram';

function histogram() {
  const registry = new Registry();
  const h = new FastHistogram('x_seconds', 'help text', ['op', 'kind'], [0.1, 1], registry);
  return { registry, h };
}

describe('FastHistogram', () => {
  it('counts a value equal to a bound in that bound\'s bucket, cumulatively, with sum and count', async () => {
    const { registry, h } = histogram();
    const s = h.series('getX', 'SELECT');
    for (const v of [0.05, 0.1, 0.5, 1, 3]) s.observe(v);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE x_seconds histogram');
    expect(text).toContain('x_seconds_bucket{op="getX",kind="SELECT",le="0.1"} 2');
    expect(text).toContain('x_seconds_bucket{op="getX",kind="SELECT",le="1"} 4');
    expect(text).toContain('x_seconds_bucket{op="getX",kind="SELECT",le="+Inf"} 5');
    expect(text).toContain('x_seconds_sum{op="getX",kind="SELECT"} 4.65');
    expect(text).toContain('x_seconds_count{op="getX",kind="SELECT"} 5');
  });

  it('keeps one series per label values, and the same series for the same values', async () => {
    const { registry, h } = histogram();
    expect(h.series('a', 'b')).toBe(h.series('a', 'b'));
    h.series('a', 'b').observe(0.2);
    h.series('a', 'c').observe(0.2);
    const text = await registry.metrics();
    expect(text).toContain('x_seconds_count{op="a",kind="b"} 1');
    expect(text).toContain('x_seconds_count{op="a",kind="c"} 1');
  });

  it('is summed across processes as prom-client sums its own histograms', async () => {
    const one = histogram();
    const two = histogram();
    one.h.series('a', 'b').observe(0.05);
    two.h.series('a', 'b').observe(2);
    const { AggregatorRegistry } = await import('prom-client');
    const sum = AggregatorRegistry.aggregate([await one.registry.getMetricsAsJSON(), await two.registry.getMetricsAsJSON()] as never);
    const text = await sum.metrics();
    expect(text).toContain('x_seconds_bucket{op="a",kind="b",le="0.1"} 1');
    expect(text).toContain('x_seconds_bucket{op="a",kind="b",le="+Inf"} 2');
    expect(text).toContain('x_seconds_count{op="a",kind="b"} 2');
  });
});
