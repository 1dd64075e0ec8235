/** The bench's record as markdown: header, cold starts, the scenario table, the goals. */
import type { Row } from './bench-run';
import type { ColdStart } from './bench-service';

export interface Goal { name: string; value: string; met: boolean | null }

const fixed = (n: number | undefined, digits: number) => (n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits));

export function sizeLabel(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

export function coldStartTable(starts: [string, ColdStart][]): string {
  const lines = [
    '| start | /api/info 200 s | token s | GET /api/user 200 s | token at first 200 | answers before 200 |',
    '|---|--:|--:|--:|---|---|',
    ...starts.map(([name, c]) => `| ${name} | ${(c.info / 1000).toFixed(2)} | ${(c.token / 1000).toFixed(2)} | ${(c.user / 1000).toFixed(2)} | ${c.tokenAtOnce ? 'yes' : 'NO'} | ${c.earlyAnswers.length ? c.earlyAnswers.join(', ') : 'none'} |`),
  ];
  return lines.join('\n');
}

export function scenarioTable(rows: Row[]): string {
  const lines = [
    '| scenario | size | req/s | p50 ms | p99 ms | errors | ratio | max RSS MiB (tree / largest) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map((r) => {
      const rss = r.rss ? `${Math.round(r.rss.tree)} / ${Math.round(r.rss.largest)}` : 'n/a';
      const errors = r.errors ? `${r.errors} (${Object.entries(r.statuses).filter(([s]) => !s.startsWith('2')).map(([s, n]) => `${s}×${n}`).join(' ')})` : '0';
      return `| ${r.scenario} | ${r.size} | ${Math.round(r.rps)} | ${fixed(r.p50, 1)} | ${fixed(r.p99, 1)} | ${errors} | ${fixed(r.ratio, 2)} | ${rss} |`;
    }),
  ];
  return lines.join('\n');
}

export function goalList(goals: Goal[]): string {
  return goals.map((g) => `- ${g.name}: ${g.value} — ${g.met === null ? 'not measured' : g.met ? 'met' : '**not met**'}`).join('\n');
}
