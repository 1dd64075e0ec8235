/**
 * What the breaking-change gate decides, from the released version, the bundle's version and Redocly's rating of
 * each change: pure, so its rules are tested without running the tool.
 */

/** One change as `redocly diff --format json` reports it (the fields the gate reads). */
export interface DiffChange {
  path: string;
  kind: string;
  impact: 'major' | 'minor' | 'patch';
  verdicts?: { ruleId: string; impact: string; message: string }[];
}

export interface Verdict { ok: boolean; message: string }

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

function parts(version: string): [number, number, number] {
  const m = SEMVER.exec(version);
  if (!m) throw new Error(`'${version}' is not a release version (major.minor.patch)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The highest of the given versions (undefined when none). */
export function latestVersion(versions: string[]): string | undefined {
  const order = (a: string, b: string): number => {
    const [x, y] = [parts(a), parts(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };
  return [...versions].sort(order).at(-1);
}

/** One line per major change: where, and the tool's reasons. */
export function describeChange(change: DiffChange): string {
  const reasons = (change.verdicts ?? []).filter((v) => v.impact === 'major').map((v) => `${v.message} (${v.ruleId})`);
  return `${change.kind} ${decodeURIComponent(change.path)}${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}`;
}

/**
 * `accepted`: major-rated changes a reviewer found to break no client of the release (openapi/released/accepted.yaml),
 * each named exactly as `describeChange` prints it. An accepted change the diff no longer reports fails too, so the
 * list never holds more than it excuses.
 */
export function gateVerdict(released: string, revision: string, changes: DiffChange[], accepted: ReadonlySet<string> = new Set()): Verdict {
  const count = (impact: DiffChange['impact']): number => changes.filter((c) => c.impact === impact).length;
  const summary = `${count('major')} major, ${count('minor')} minor, ${count('patch')} patch change(s) since ${released}`;
  const majors = changes.filter((c) => c.impact === 'major').map(describeChange);
  if (parts(revision)[0] > parts(released)[0]) {
    return { ok: true, message: `contract: ${summary}; allowed by the new major version ${revision}` };
  }
  const breaking = majors.filter((m) => !accepted.has(m));
  const stale = [...accepted].filter((a) => !majors.includes(a));
  const excused = majors.length - breaking.length;
  const note = excused > 0 ? ` (${excused} major change(s) reviewed as breaking no client)` : '';
  if (breaking.length === 0 && stale.length === 0) return { ok: true, message: `contract: ${summary}${note}; nothing breaks a client of ${released}` };
  return {
    ok: false,
    message: [
      ...(breaking.length === 0 ? [] : [
        `contract: ${summary}${note}; a client of ${released} breaks (raise info.version's major to ${parts(released)[0] + 1}.0.0 if that is intended):`,
        ...breaking.map((m) => `  ${m}`),
      ]),
      ...(stale.length === 0 ? [] : [
        `contract: accepted change(s) the diff no longer reports (remove them from the accepted list):`,
        ...stale.map((m) => `  ${m}`),
      ]),
    ].join('\n'),
  };
}
