/**
 * The fuzz loop: operations round-robin (so each of the document's operations gets its share), one plan per
 * request drawn from a generator seeded by (seed, request number) — a run replays exactly from its seed — sent
 * sequentially because the fingerprint around mutating requests must see only that request's effect.
 * Failures are grouped into classes (invariant + kind of reason + operation) instead of stopping at the first,
 * so one run reports every kind of defect it met.
 */
import fc from 'fast-check';
import type { TestApp } from '../support/app';
import { Fixtures, createdUid } from './fixtures';
import { STORED_AS, credentialSecretProblems, echoExpectations, echoProblems, fingerprintDiff, fingerprinter, requestTraits, responseProblems } from './invariants';
import { describeRequest, describeResponse, type RawRequest, type RawResponse } from './raw-client';
import { materialize, operations, pct, planArb, type Built, type Operation } from './request-plan';

export interface FuzzOptions { requests: number; seed: number }
export interface FailureClass { key: string; count: number; first: string }
export interface FuzzResult {
  requests: number; byStatus: Record<string, number>; classes: FailureClass[]; ms: number;
  /** Statuses per operation (`METHOD template`): which operations the run got accepted at all. */
  byOperation: Record<string, Record<string, number>>;
  /** How much was actually checked: refused mutations fingerprinted, accepted writes read back, values compared. */
  checked: { refusedMutations: number; readBacks: number; valuesCompared: number; secrets: number };
  /** Where the time went (fixtures, requests, fingerprints, read-backs, slowest operations), to keep the suite fast. */
  timing: Record<string, number>;
}

/** Uids, numbers and quoted values vary between occurrences of the same defect; the class ignores them. */
const reasonKind = (p: string) => p.replace(/[0-9a-f]{32}/g, '<uid>').replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\d+/g, 'N');

export async function runFuzz(app: TestApp, opts: FuzzOptions, log: (s: string) => void): Promise<FuzzResult> {
  const started = Date.now();
  const timing: Record<string, number> = {};
  const timed = async <T>(what: string, p: Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try { return await p; } finally { timing[what] = (timing[what] ?? 0) + performance.now() - t0; }
  };
  const f = await timed('fixtures', Fixtures.create(app));
  const ops = operations();
  const arbs = ops.map(planArb);
  const fingerprint = fingerprinter(app, f);
  const classes = new Map<string, FailureClass>();
  const byStatus: Record<string, number> = {};
  const byOperation: Record<string, Record<string, number>> = {};
  const fail = (i: number, op: string, invariant: string, problem: string, req: RawRequest, res: RawResponse, extra = '') => {
    // Dedupe by invariant + short reason (+ what was hostile, for 5xx and error-format failures) + operation.
    const traits = invariant === 'no 5xx' || invariant === '§7 error body' ? requestTraits(req) : [];
    const key = `${invariant} | ${reasonKind(problem)}${traits.length > 0 ? ` [${traits.join('; ')}]` : ''} | ${op}`;
    const known = classes.get(key);
    if (known) { known.count++; return; }
    const first = `#${i} ${invariant}: ${problem}${extra ? `\n  ${extra}` : ''}\n  request: ${describeRequest(req)}\n  response: ${describeResponse(res)}`;
    classes.set(key, { key, count: 1, first });
    log(`fuzz failure (seed ${opts.seed}) ${first}`);
  };
  const checked = { refusedMutations: 0, readBacks: 0, valuesCompared: 0, secrets: 0 };
  let clean: string | undefined;
  let lastToken = '';
  try {
    for (let i = 0; i < opts.requests; i++) {
      const op = ops[i % ops.length];
      const opName = `${op.method} ${op.template}`;
      // Each request from its own seed (derived from the run's), so request i is the same whatever came before.
      const t0 = performance.now();
      const plan = fc.sample(arbs[i % ops.length], { seed: (opts.seed ^ Math.imul(i + 1, 0x9e3779b1)) | 0, numRuns: 1 })[0];
      timing.plan = (timing.plan ?? 0) + performance.now() - t0;
      const token = await f.bearer();
      const t1 = performance.now();
      const built = materialize(op, plan, f, token);
      timing.materialize = (timing.materialize ?? 0) + performance.now() - t1;
      const mutating = op.method !== 'GET';
      // A refused request's "after" is the next one's "before", unless something changed in between.
      // GETs change nothing, so it survives them; a fresh token (minting may be audited) invalidates it.
      if (token !== lastToken) clean = undefined;
      lastToken = token;
      const before = mutating ? (clean ?? await timed('fingerprint', fingerprint())) : '';
      if (mutating) clean = undefined;
      let res: RawResponse;
      try {
        res = await timed(`op ${opName}`, f.client.send(built.req));
      } catch (e) {
        fail(i, opName, 'transport', String((e as Error).message), built.req, { status: 0, headers: {}, text: '', json: undefined });
        f.client.close();
        f.client = (await import('./raw-client')).rawClient(app.url);
        continue;
      }
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      const statuses = (byOperation[opName] ??= {});
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const t2 = performance.now();
      const problems = responseProblems(res, op.gateway);
      timing.check = (timing.check ?? 0) + performance.now() - t2;
      for (const p of problems) fail(i, opName, res.status >= 500 ? 'no 5xx' : '§7 error body', p, built.req, res);
      if (mutating && res.status >= 400) {
        checked.refusedMutations++;
        const after = await timed('fingerprint', fingerprint());
        if (after === before) clean = after;
        else fail(i, opName, 'refused request changed nothing', `refused ${res.status} but state changed`, built.req, res, fingerprintDiff(before, after));
      }
      if (mutating && (res.status === 200 || res.status === 201) && op.body && built.sent !== undefined) {
        const expected = echoExpectations(op.body.schema, built.sent, STORED_AS[opName]);
        if (expected.length > 0) {
          checked.readBacks++;
          checked.valuesCompared += expected.length;
          const path = readbackPath(res, built, app.url, ops.find((o) => o.method === 'GET' && o.template === op.template));
          const item = await timed('readback', f.client.send({ method: 'GET', path, headers: { Authorization: `Bearer ${await f.bearer()}`, Accept: 'application/hal+json' } }));
          if (item.status !== 200) fail(i, opName, 'accepted value reads back', `GET after accepted write → ${item.status}`, built.req, res, path);
          else for (const p of echoProblems(expected, item.json)) fail(i, opName, 'accepted value reads back', p, built.req, res, `read back from GET ${path}`);
        }
      }
      if (opName === 'POST /application_authentications' && res.status === 201) {
        checked.secrets++;
        const location = res.headers.location ? new URL(String(res.headers.location), app.url) : undefined;
        const item = location ? await timed('readback', f.client.send({ method: 'GET', path: location.pathname, headers: { Authorization: `Bearer ${await f.bearer()}` } })) : undefined;
        for (const p of await timed('secrets', credentialSecretProblems(app, res, item?.text))) fail(i, opName, 'generated password never in plain', p, built.req, res);
      }
      await timed('bookkeeping', bookkeeping(f, op, built, res));
    }
  } finally {
    f.close();
  }
  return { requests: opts.requests, byStatus, byOperation, classes: [...classes.values()], ms: Date.now() - started, checked, timing: Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])) };
}

/**
 * Where the written item lives: Location, else its self link, else the path written to — then with the query
 * parameters its GET declares filled from body fields of the same name (a TECHNICAL contact is read with
 * `?type=TECHNICAL`).
 */
function readbackPath(res: RawResponse, built: Built, origin: string, get: Operation | undefined): string {
  const body = res.json as { _links?: { self?: { href?: string } } } | undefined;
  const href = (res.headers.location as string | undefined) ?? body?._links?.self?.href;
  if (href) {
    const u = new URL(href, origin);
    return u.pathname + u.search;
  }
  const sent = (built.sent ?? {}) as Record<string, unknown>;
  const query = (get?.query ?? []).filter((p) => typeof sent[p.name] === 'string').map((p) => `${p.name}=${pct(sent[p.name] as string)}`);
  return built.req.path.split('?')[0] + (query.length > 0 ? `?${query.join('&')}` : '');
}

/** Keep the pools pointing at live rows: replace what a DELETE removed, adopt what a POST created. */
async function bookkeeping(f: Fixtures, op: ReturnType<typeof operations>[number], built: ReturnType<typeof materialize>, res: RawResponse): Promise<void> {
  if (op.method === 'DELETE' && res.status < 300 && built.target && !built.target.rel && /^\/[a-z_]+\/\{id\}$/.test(op.template)) {
    await f.deleted(built.target.collection, built.target.uid);
  }
  if (op.method === 'POST' && res.status === 201 && /^\/[a-z_]+$/.test(op.template)) {
    // The uid is the body's, else `Location`'s (a principal answers its URI, a deployment nothing, a credential
    // `[{authData}]` with `Location` in /application_credentials).
    const { collection, uid } = createdUid(res);
    if (uid) f.adopt(typeof (res.json as { uid?: unknown } | undefined)?.uid === 'string' ? op.collection : collection ?? op.collection, uid);
  }
}
