/**
 * The breaking-change gate (`npm run check`): compares the bundle (generated/openapi.json) with the last released
 * document in openapi/released/ using Redocly's `diff`, and fails on a change it rates major unless the bundle's
 * `info.version` has a higher major than that release. `--release` keeps the bundle as the release of its
 * `info.version` (once per version: a release never changes) and empties the list of accepted changes, which
 * always speaks of the last release.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gateVerdict, latestVersion, type DiffChange } from './contract-verdict';

const RELEASED = 'openapi/released';
const BUNDLE = 'generated/openapi.json';
const ACCEPTED = path.join(RELEASED, 'accepted.yaml');

interface AcceptedList { since: string; groups: { reason: string; changes: string[] }[] }

/** The reviewed major-rated changes since `released` (none when the file is absent). */
function acceptedSince(released: string): Set<string> {
  if (!existsSync(ACCEPTED)) return new Set();
  const list = yaml.load(readFileSync(ACCEPTED, 'utf8')) as AcceptedList;
  if (list.since !== released) throw new Error(`${ACCEPTED} speaks of ${list.since}, but the last release is ${released}: review it again or delete it`);
  for (const group of list.groups) if (!group.reason?.trim()) throw new Error(`${ACCEPTED}: every group says why its changes break no client`);
  return new Set(list.groups.flatMap((g) => g.changes));
}

/** Redocly's rating of every change from `base` to `revision` (both OpenAPI files), run offline. */
export async function diffChanges(base: string, revision: string): Promise<DiffChange[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pms-contract-'));
  const out = path.join(dir, 'diff.json');
  try {
    await promisify(execFile)(path.resolve('node_modules/.bin/redocly'), ['diff', base, revision, '--format', 'json', '--fail-on', 'none', '-o', out], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return (JSON.parse(readFileSync(out, 'utf8')) as { changes: DiffChange[] }).changes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const versionOf = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { info: { version: string } }).info.version;

async function main(): Promise<void> {
  const revision = versionOf(BUNDLE);
  if (process.argv.includes('--release')) {
    const target = path.join(RELEASED, `${revision}.json`);
    if (existsSync(target)) throw new Error(`${target} exists: a released document never changes; raise info.version first`);
    writeFileSync(target, readFileSync(BUNDLE, 'utf8'));
    rmSync(ACCEPTED, { force: true });
    console.log(`kept ${target}`);
    return;
  }
  const released = latestVersion(readdirSync(RELEASED).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)));
  if (released === undefined) throw new Error(`no released document in ${RELEASED}`);
  const changes = await diffChanges(path.join(RELEASED, `${released}.json`), BUNDLE);
  const verdict = gateVerdict(released, revision, changes, acceptedSince(released));
  (verdict.ok ? console.log : console.error)(verdict.message);
  if (!verdict.ok) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve('scripts/contract-gate.ts')) await main();
