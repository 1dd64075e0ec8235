/**
 * Reading `/metrics` as Prometheus does: fetch the text format and parse its samples, so a test asserts numbers and
 * labels rather than substrings.
 */
export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Scrape { status: number; contentType: string | null; text: string; samples: Sample[] }

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** `GET url` (a /metrics URL), parsed. */
export async function scrape(url: string, init: RequestInit = {}): Promise<Scrape> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, samples: res.status === 200 ? parseMetrics(text) : [] };
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** `after − before` of `valueOf`. */
export function delta(before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}): number {
  return valueOf(after, name, labels) - valueOf(before, name, labels);
}
