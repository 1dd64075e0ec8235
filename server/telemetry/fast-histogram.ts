/**
 * A Prometheus histogram whose observation is an array increment. prom-client's Histogram copies, validates and
 * hashes its labels on every observation, which on the request path (one request, one or more statements) costs
 * more than the rest of the metrics together. This one keeps a series object per label values, found once by the
 * caller, and registers with prom-client's registry like any metric: the text format and the cluster sum stay
 * prom-client's.
 */
import { register, type Registry } from 'prom-client';

export class HistogramSeries {
  /** `counts[i]`: observations ≤ `bounds[i]` and above the bound before; the last slot: above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly labels: Record<string, string>, private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i] += 1;
    this.sum += value;
    this.count += 1;
  }
}

interface Sample { labels: Record<string, string | number>; value: number; metricName: string }

export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry = register,
  ) {
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in `labelNames` order); callers keep it rather than ask per observation. */
  series(...values: string[]): HistogramSeries {
    const key = values.join('\u0000');
    let found = this.all.get(key);
    if (!found) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]]));
      this.all.set(key, (found = new HistogramSeries(labels, this.bounds)));
    }
    return found;
  }

  /** What prom-client's registry reads, in the shape its own Histogram gives. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const s of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i];
        values.push({ labels: { ...s.labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.all.clear();
  }
}
