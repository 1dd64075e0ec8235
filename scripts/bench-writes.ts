/**
 * The write scenarios of `npm run bench`, each against its bare twin (bench-bare-writes.ts) in alternating pairs:
 * in each of `rounds` rounds the bare run, then ours, on fresh rows for every run (new names; rows of their own to
 * PATCH; pending grants and stream configs that no other run touches).
 */
import type { Models } from '../models';
import { fullName } from '../models/user';
import type { Api } from './bench-api';
import { configsToDelete, pendingGrants, type Fixtures } from './bench-fixtures';
import type { Pair, WriteOutcome } from './bench-pairs';
import type { LoadSpec, Row } from './bench-run';
import type { Server } from './bench-service';

type Spec = Omit<LoadSpec, 'url' | 'connections'> & { connections?: number };
type Side = 'bare' | 'ours';

export interface WriteBench {
  api: Api;
  models: Models;
  fixtures: Fixtures;
  /** Absent where bench-bare.ts cannot run (not PostgreSQL): ours runs alone. */
  bare?: Server;
  rounds: number;
  connections: number;
  /** Pending grants approved, and stream configs deleted, over all runs of their scenario. */
  grants: number;
  configs: number;
  /** Seeded streams, newest uids first, at most `limit`. */
  streams: (limit: number) => Promise<string[]>;
  load: (scenario: string, spec: Spec, target?: Server) => Promise<Row>;
}

interface Scenario {
  /** Ours, as the table names it; the bare row drops `/api` and adds `bare`. */
  name: string;
  spec: (side: Side, run: number, headers: Record<string, string>) => Spec;
}

/** `items` cut into `runs` slices of equal length, one per run. */
function slices<T>(items: T[], runs: number): T[][] {
  const per = Math.floor(items.length / runs);
  if (per === 0) throw new Error(`${items.length} rows cannot give ${runs} runs a row each`);
  return Array.from({ length: runs }, (_, k) => items.slice(k * per, (k + 1) * per));
}

async function scenarios(b: WriteBench, runs: number): Promise<Scenario[]> {
  const tag = Date.now().toString(36);
  const prefix = (side: Side) => (side === 'ours' ? '/api' : '');
  const patched = await b.streams(20_000);
  // A PATCH run goes round-robin over its rows: more rows than connections, so no two PATCHes of one row ever race.
  const patchRows = patched.length >= runs * 2 * b.connections ? slices(patched, runs) : Array.from({ length: runs }, () => patched);
  const grants = slices(await pendingGrants(b.api, b.models, b.fixtures, b.grants), runs);
  await b.api.signIn();
  const configs = slices(await configsToDelete(b.models, b.fixtures, `unconfig-${tag}`, b.configs), runs);
  // Each row once: a second approval or delete of it would rightly fail.
  const once = (side: Side, path: string, uids: string[], headers: Record<string, string>, method: string, body?: string): Spec => {
    const { 'Content-Type': json, ...bodiless } = headers;
    return {
      method, paths: uids.map((u) => `${prefix(side)}/${path}/${u}`), headers: body === undefined ? bodiless : { ...bodiless, 'Content-Type': json },
      ...(body !== undefined ? { body } : {}), amount: uids.length, connections: Math.min(b.connections, uids.length),
    };
  };
  return [
    {
      name: 'POST /api/clusters',
      spec: (side, run, headers) => ({ method: 'POST', paths: [`${prefix(side)}/clusters`], headers, body: JSON.stringify({ name: `w-${tag}-${run}-{n}`, bootstrapServers: ['bench-w:9092'] }) }),
    },
    {
      name: 'POST /api/streams',
      spec: (side, run, headers) => ({
        method: 'POST', paths: [`${prefix(side)}/streams`], headers,
        body: JSON.stringify({ name: `new-${tag}-${run}-{n}`, keyType: 'String', valueType: 'JSON', owners: b.fixtures.seed.ownersUid }),
      }),
    },
    {
      name: 'PATCH /api/streams/{uid} description',
      spec: (side, run, headers) => ({ method: 'PATCH', paths: patchRows[run].map((u) => `${prefix(side)}/streams/${u}`), headers, body: JSON.stringify({ description: `patched by the bench {n}` }) }),
    },
    {
      name: `PUT /api/application_access_grants/{uid} (approve ${grants[0].length} pending)`,
      spec: (side, run, headers) => once(side, 'application_access_grants', grants[run], headers, 'PUT', '{}'),
    },
    {
      name: `DELETE /api/stream_configs/{uid} (${configs[0].length} unblocked)`,
      spec: (side, run, headers) => once(side, 'stream_configs', configs[run], headers, 'DELETE'),
    },
  ];
}

/** Each write scenario in `rounds` rounds of bare then ours; answers the pairs of each. */
export async function writeRounds(b: WriteBench): Promise<WriteOutcome[]> {
  const sides: Side[] = b.bare ? ['bare', 'ours'] : ['ours'];
  const runs = b.rounds * sides.length;
  const list = await scenarios(b, runs);
  const admin = (await b.models.User.findOne({ where: { email: b.api.email } }))!;
  const tenantUid = b.fixtures.tenantUid;
  const bareHeaders = {
    'Content-Type': 'application/json', 'x-tenant-uid': tenantUid, 'x-tenant': b.api.tenant, 'x-actor': b.api.email,
    'x-actor-name': fullName(admin as unknown as Parameters<typeof fullName>[0]),
  };
  const outcomes: WriteOutcome[] = [];
  for (const s of list) {
    const pairs: Pair[] = [];
    for (let round = 1; round <= b.rounds; round++) {
      const bare = b.bare && (await b.load(`${s.name.replace('/api', '')} bare #${round}`, s.spec('bare', (round - 1) * 2, bareHeaders), b.bare));
      const ours = await b.load(`${s.name} #${round}`, s.spec('ours', (round - 1) * sides.length + sides.length - 1, await b.api.headers(true)));
      if (bare) {
        ours.ratio = ours.rps / bare.rps;
        pairs.push({ bare, ours });
      }
    }
    outcomes.push({ scenario: s.name, connections: b.connections, pairs });
  }
  return outcomes;
}
