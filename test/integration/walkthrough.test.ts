/**
 * README.md's "First ten minutes" works as written: its ```sh blocks, in order, run as one bash script
 * (`set -euo pipefail`, so any failing curl fails the test) against a real server, signed in as an admin with the
 * roles `npm start` gives its printed demo admin, in a tenant of its own. The last steps' outputs are what a
 * reader is told to expect: the grant Pending then Approved, the AsyncAPI document of the deployed stream, and the
 * audit history of every step.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { WALKTHROUGH_AUDIT } from '../support/walkthrough-audit';

const README = new URL('../../README.md', import.meta.url);
const SECTION = '## First ten minutes';
/** Printed between blocks, so each block's output can be read apart. */
const MARK = '@@walkthrough-block@@';
/** The roles of the admin that `npm start` creates on its first start. */
const DEMO_ADMIN_ROLES = ['SUPER_ADMIN', 'TENANT_ADMIN', 'APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'];

/** The ```sh blocks of the walkthrough section, in order. */
function walkthroughBlocks(readme: string): string[] {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const rest = readme.slice(start + SECTION.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

interface Run { code: number | null; stdout: string; stderr: string }

/** Asynchronous on purpose: the server answering the script runs in this same process. */
function runBash(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let app: TestApp;
let t: TestTenant;
let admin: TestUser;
let blocks: string[];
let outputs: string[];
let stderr: string;

beforeAll(async () => {
  blocks = walkthroughBlocks(readFileSync(README, 'utf8'));
  app = await startTestApp();
  t = await createTenant(app, 'walk');
  admin = await createUser(app, t, DEMO_ADMIN_ROLES, 'admin');
  const script = ['set -euo pipefail', ...blocks.map((block) => `echo '${MARK}'\n${block}`)].join('\n');
  const run = await runBash(script, { API: app.api, AUTH: app.authUrl, TENANT: t.shortName, ADMIN: admin.email, PASSWORD: admin.password });
  outputs = run.stdout.split(`${MARK}\n`).slice(1);
  stderr = run.stderr;
  if (run.code !== 0) {
    const failed = outputs.length - 1;
    throw new Error(`walkthrough block ${failed + 1} of ${blocks.length} failed (exit ${run.code}):\n${blocks[failed]}\n--- stderr:\n${run.stderr}--- stdout:\n${outputs[failed] ?? ''}`);
  }
}, 120_000);
afterAll(async () => app?.stop());

/** The output of the one block whose text matches `step`. */
function outputOf(step: RegExp): string {
  const found = blocks.flatMap((block, i) => (step.test(block) ? [i] : []));
  expect(found, `blocks matching ${step}`).toHaveLength(1);
  return outputs[found[0]];
}

describe('README: First ten minutes', () => {
  it('runs every block, from a token to the audit history, with no field ignored', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(outputs).toHaveLength(blocks.length);
    expect(stderr).toBe('');
  });

  it('defaults to the tenant, admin and API root of npm start', () => {
    const first = blocks[0];
    expect(first).toContain(`"\${API:=http://localhost:8080${app.config.basePath}}"`);
    expect(first).toContain(`"\${TENANT:=${app.config.bootstrapTenant}}"`);
    expect(first).toContain(`"\${ADMIN:=${app.config.bootstrapAdminEmail}}"`);
  });

  it('deploys the stream to the environment with the uploaded schema version pinned', () => {
    const deployed = JSON.parse(outputOf(/"\$API\/stream_configs"/));
    expect(deployed).toEqual({ uid: expect.stringMatching(/^[0-9a-f]{32}$/), topicName: `${t.shortName}-local-dev-orders`, valueSchemaVersion: '1.0.0' });
  });

  it('shows the generated credential once', () => {
    const credential = JSON.parse(outputOf(/application_authentications/));
    expect(credential).toMatchObject({ username: expect.stringMatching(/^billing-dev-[0-9a-f]{8}$/), provider: 'apache-kafka', clusters: 'local' });
    expect(credential.password).toMatch(/^.{32}$/);
  });

  it('requests access (Pending) and approves it (Approved)', () => {
    expect(outputOf(/application_access_grants/).trim().split('\n')).toEqual(['Pending', 'Approved']);
  });

  it('fetches the AsyncAPI 2.6.0 document of the stream config, with the stream\'s channel and Avro payload', () => {
    const doc = yaml.load(outputOf(/asyncapi/)) as any;
    const topic = `${t.shortName}-local-dev-orders`;
    expect(doc.asyncapi).toBe('2.6.0');
    expect(Object.keys(doc.channels)).toEqual([topic]);
    expect(doc.channels[topic].subscribe.message).toEqual({ $ref: '#/components/messages/Order' });
    expect(doc.components.messages.Order.payload).toMatchObject({ type: 'record', name: 'Order', namespace: 'io.shop' });
  });

  it("promotes the stream config to the successor environment (the plan first), then draws the stream's graph", () => {
    const [plan, topic, ...graph] = outputOf(/\/promote"/).trim().split('\n');
    expect(JSON.parse(plan)).toEqual({ action: 'create', topic: `${t.shortName}-local-acc-orders` });
    expect(topic).toBe(`${t.shortName}-local-acc-orders`);
    // Per environment in name order: its short name, then its consumers.
    expect(graph).toEqual(['acc', 'dev\tbilling']);
  });

  it('reads every step back from the audit history, newest first', () => {
    const entries = outputOf(/audit-history/).trim().split('\n').map((line) => line.split('\t').slice(1).join(' '));
    expect(entries).toEqual(WALKTHROUGH_AUDIT);
  });
});

describe('README: login and api say what went wrong', () => {
  /** The first block (it defines `login` and `api`, then signs in) as a reader pastes it, then `after`. */
  const firstBlockThen = (after: string, password: string) =>
    runBash(['set -euo pipefail', 'TOKEN=stale', 'trap \'echo "TOKEN=[$TOKEN]"\' EXIT', blocks[0], after].join('\n'),
      { API: app.api, AUTH: app.authUrl, TENANT: t.shortName, ADMIN: admin.email, PASSWORD: password });

  it("login with a wrong password fails with the issuer's error_description and leaves no token", async () => {
    const run = await firstBlockThen('echo never reached', 'not-the-password');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toBe('login failed: Invalid user credentials\n');
    expect(run.stdout).toBe('TOKEN=[]\n');
  });

  it('api warns on stderr of a misspelt field the API ignored; stdout stays the body', async () => {
    const run = await firstBlockThen(`api "$API/groups" -d '{"name": "Typo team", "emailAdress": {"email": "typo@example.com"}}' | jq -c '{name, emailAddress}'`, admin.password);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('warning: the API ignored these fields (misspelt?): emailAdress\n');
    const lines = run.stdout.trim().split('\n');
    expect(lines.at(-2)).toBe('{"name":"Typo team","emailAddress":null}');
  });
});
