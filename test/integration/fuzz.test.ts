/**
 * Spec-driven fuzzing of every operation of the bundled OpenAPI document (test/fuzz/): valid-looking and hostile
 * requests with a valid SUPER_ADMIN + TENANT_ADMIN token. Invariants: no 5xx; every status ≥ 400 in the §7 error
 * format; accepted values read back verbatim; refused mutations change nothing; a generated credential's password
 * is never stored or shown in plain.
 * The seed is FUZZ_SEED or new per run, printed first so a failure reproduces:
 *   npm run fuzz -- --seed N --requests M          (FUZZ_REQUESTS defaults to 3000 here)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type TestApp } from '../support/app';
import { certificateKit } from '../support/certificates';
import { runFuzz } from '../fuzz/runner';
import { providerBases, providerFieldBreaches, providerFieldCases } from '../fuzz/provider-fields';
import { rawClient } from '../fuzz/raw-client';

const requests = Number(process.env.FUZZ_REQUESTS ?? 3000);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;
console.log(`fuzz seed: ${seed} (reproduce: npm run fuzz -- --seed ${seed} --requests ${requests})`);

let app: TestApp;
// Provider calls go to a closed loopback port, never to the public APIs: the provider endpoints answer 502 then.
beforeAll(async () => { app = await startTestApp({ aivenApiUrl: 'http://127.0.0.1:9', confluentCloudApiUrl: 'http://127.0.0.1:9', providerTimeoutMs: 2000 }); });
afterAll(async () => app?.stop());

describe('fuzzing every operation of the OpenAPI document', () => {
  // Budget: fixtures plus about 10 ms a request; a long run (`npm run fuzz`) raises FUZZ_REQUESTS.
  it(`${requests} requests, seed ${seed}: no 5xx, §7 errors, verbatim read-back, refusals change nothing`, { timeout: 60_000 + requests * 50 }, async () => {
    const result = await runFuzz(app, { requests, seed }, (s) => console.log(s));
    const rate = Math.round((result.requests / result.ms) * 1000);
    console.log(`fuzz: ${result.requests} requests in ${result.ms} ms (${rate}/s), statuses ${JSON.stringify(result.byStatus)}, checked ${JSON.stringify(result.checked)}`);
    const ops = Object.entries(result.timing).filter(([k]) => k.startsWith('op ')).sort((a, b) => b[1] - a[1]);
    const phases = Object.entries(result.timing).filter(([k]) => !k.startsWith('op '));
    const sent = ops.reduce((n, [, ms]) => n + ms, 0);
    console.log(`fuzz time (ms): requests ${sent}, ${phases.map(([k, v]) => `${k} ${v}`).join(', ')}; slowest: ${ops.slice(0, 12).map(([k, v]) => `${k.slice(3)} ${v}`).join(', ')}`);
    // Operations the run never got accepted (no 2xx/3xx): their writes and read-backs went untested this time.
    const neverAccepted = Object.entries(result.byOperation).filter(([, st]) => !Object.keys(st).some((code) => Number(code) < 400))
      .map(([opName, st]) => `${opName} ${JSON.stringify(st)}`);
    if (neverAccepted.length > 0) console.log(`fuzz: never accepted this run:\n  ${neverAccepted.join('\n  ')}`);
    const summary = result.classes
      .sort((a, b) => a.key.localeCompare(b.key))
      .map((c) => `${c.key}  (×${c.count})`);
    // The same defect across operations, for a reader: "invariant | reason [traits]" → the operations that hit it.
    const byCause = new Map<string, string[]>();
    for (const c of result.classes) {
      const cause = c.key.slice(0, c.key.lastIndexOf(' | '));
      byCause.set(cause, [...(byCause.get(cause) ?? []), `${c.key.slice(c.key.lastIndexOf(' | ') + 3)} ×${c.count}`]);
    }
    if (summary.length > 0) {
      console.log(`fuzz: ${summary.length} failure classes, ${byCause.size} causes (seed ${seed}):\n${[...byCause].sort().map(([k, ops]) => `${k}\n    ${ops.join(', ')}`).join('\n')}`);
    }
    expect(summary, `fuzz seed ${seed} — each class's first request and response is printed above`).toEqual([]);
  });
});

describe('fuzzing the provider fields', () => {
  // Every hostile value must be refused before a provider is called: the closed port would answer 502.
  it(`each Svc-* field's hostile lengths and shapes (seed ${seed}): 400 naming the field, never a provider call or 5xx`, { timeout: 60_000 }, async () => {
    const kit = certificateKit();
    const client = rawClient(app.url);
    try {
      const tenant = await createTenant(app, 'fuzz-providers');
      const bases = providerBases(kit);
      const cases = providerFieldCases(bases, seed);
      const breaches = await providerFieldBreaches(client, app.config.basePath, tenant.admin.token, bases, cases);
      console.log(`fuzz: ${cases.length} hostile provider field values × 4 operations, ${breaches.length} breaches`);
      expect(breaches, `provider field fuzz, seed ${seed}`).toEqual([]);
    } finally {
      client.close();
      kit.cleanup();
    }
  });
});
