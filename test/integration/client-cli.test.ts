/**
 * The client package's CLI end to end (issue 45): the package is built as `npm pack` builds it (its `build`
 * script, tsc, into dist/ beside its package.json), its `bin` is run as npx runs it, against the running service,
 * with credentials from the environment as CI keeps them: a service account's client secret, a federated CI
 * job's OIDC token, or a token as is. Exit status 0 / 1 / 2 and the lines a CI log and GitHub show.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExternalIssuer, type ExternalIssuer } from '../support/external-issuer';
import { createTenant, createUser, startTestApp, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { call, created, expectStatus } from '../support/http';

const run = promisify(execFile);
// Inside the repository, so the built package resolves openapi-fetch from its node_modules as an installed one would.
const PACKAGE = resolve(`node_modules/.cache/platform-management-service/client-cli-${process.pid}`);
const FILES = join(PACKAGE, 'documents');

let app: TestApp;
let idp: ExternalIssuer;
let t: TestTenant;
let member: TestUser;
let bin: string;
let secret: string;
let topic: string;
let closedPort: number;

const record = (fields: unknown[]) => JSON.stringify({ type: 'record', name: 'Payment', namespace: 'io.cli', fields }, null, 2);
const v1 = record([{ name: 'id', type: 'long' }]);
const v2 = record([{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }]);
const documents: Record<string, string> = {
  'next.avsc': record([{ name: 'id', type: 'long' }, { name: 'note', type: 'string', default: '' }, { name: 'tag', type: ['null', 'string'], default: null }]),
  // Reads version 2's data, not version 1's (which production pins): `note` has no default any more.
  'strict-note.avsc': record([{ name: 'id', type: 'long' }, { name: 'note', type: 'string' }]),
  'breaking.avsc': record([{ name: 'id', type: 'long' }, { name: 'currency', type: 'string' }]),
  'broken.avsc': '{\n  "type": "record",\n  "name": "Payment",\n  "fields": [ , ]\n}',
};

beforeAll(async () => {
  mkdirSync(FILES, { recursive: true });
  copyFileSync('client/package.json', join(PACKAGE, 'package.json'));
  const build = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'client/tsconfig.json', '--outDir', join(PACKAGE, 'dist')]);
  for (const [name, text] of Object.entries(documents)) writeFileSync(join(FILES, name), text);
  idp = await startExternalIssuer();
  app = await startTestApp({ trustedIssuers: [{ issuer: idp.url, jwksUri: idp.jwksUri }] });
  t = await createTenant(app, 'cli');
  member = await createUser(app, t, ['STREAM_AUTHOR'], 'member');
  const admin = t.admin.token;
  secret = (await created(app, '/users', { clientId: 'schema-ci' }, admin)).clientSecret;
  await created(app, '/users', { clientId: 'schema-ci-fed', federatedIssuer: idp.url, federatedSubject: 'repo:acme/payments:ref:refs/heads/main' }, admin);
  const group = await created(app, '/groups', { name: 'CLI Team', members: [t.admin.user.uid] }, admin);
  const instance = await created(app, '/instances', { name: 'CLI', shortName: 'cli' }, admin);
  const prod = await created(app, '/environments', { name: 'Production', shortName: 'prod', instance: instance.uid, owners: group.uid }, admin);
  await created(app, '/environments', { name: 'Acceptance', shortName: 'acc', instance: instance.uid, owners: group.uid }, admin);
  const first = expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: v1, version: '1', owners: group.uid } }), 201).body;
  const stream = await created(app, '/streams', { name: 'payments', keyType: 'String', valueType: 'AVRO', valueSchema: first.schemaUid, owners: group.uid }, admin);
  topic = (await created(app, '/stream_configs', { stream: stream.uid, environment: prod.uid, valueSchemaVersion: first.id }, admin)).topicName;
  expectStatus(await call(app, 'POST', '/schemas/upload', { token: admin, body: { schema: v2, version: '2' } }), 201);
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  closedPort = (closed.address() as AddressInfo).port;
  closed.close();
  await build;
  const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  // npx runs a package's only bin.
  expect(Object.keys(pkg.bin)).toHaveLength(1);
  bin = join(PACKAGE, Object.values(pkg.bin)[0]!);
  expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await idp?.close();
  rmSync(PACKAGE, { recursive: true, force: true });
});

interface Outcome { status: number; stdout: string[]; stderr: string[] }

/** Runs the bin in FILES (so the report names files as given) with only PATH and `env` set. */
async function cli(args: string[], env: Record<string, string>): Promise<Outcome> {
  const lines = (s: string) => s.split('\n').filter((line) => line !== '');
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: FILES, env: { PATH: process.env.PATH ?? '', ...env } });
    return { status: 0, stdout: lines(stdout), stderr: lines(stderr) };
  } catch (e) {
    const failed = e as { code?: number; stdout: string; stderr: string };
    if (typeof failed.code !== 'number') throw e;
    return { status: failed.code, stdout: lines(failed.stdout), stderr: lines(failed.stderr) };
  }
}

const tokenUrl = () => `${app.authUrl}/realms/${t.shortName}/protocol/openid-connect/token`;
const bySecret = (clientSecret = secret) => ({ PMS_API_URL: app.api, PMS_TOKEN_URL: tokenUrl(), PMS_CLIENT_ID: 'schema-ci', PMS_CLIENT_SECRET: clientSecret });
const check = (file: string, ...more: string[]) => ['schema', 'check', file, '--schema', 'io.cli.Payment', ...more];

describe('npx @platform-management-service/client schema check', () => {
  it('exits 0 for a compatible version, with a service account\'s client credentials from the environment', async () => {
    const out = await cli(check('next.avsc'), bySecret());
    expect(out).toEqual({ status: 0, stdout: ['next.avsc: compatible with io.cli.Payment (BACKWARD); the versions pinned in prod too'], stderr: [] });
  });

  it('exits 1 for an incompatible one, a plain line per reason: against the versions and what each environment pins', async () => {
    const out = await cli(check('breaking.avsc'), bySecret());
    expect(out.status).toBe(1);
    expect(out.stdout).toEqual([
      'breaking.avsc: not compatible with io.cli.Payment (BACKWARD): 2 problems',
      'breaking.avsc: version 2, new reads old data: currency: field \'currency\' is not in the writer\'s record and has no default (FIELD_NO_DEFAULT)',
      `breaking.avsc: prod: ${topic} value pins version 1, new reads old data: currency: field 'currency' is not in the writer's record and has no default (FIELD_NO_DEFAULT)`,
    ]);
  });

  it('writes GitHub workflow annotations with --format github', async () => {
    const out = await cli(check('breaking.avsc', '--format', 'github', '--mode', 'FULL'), bySecret());
    expect(out.status).toBe(1);
    expect(out.stdout[0]).toBe('breaking.avsc: not compatible with io.cli.Payment (FULL): 2 problems');
    expect(out.stdout.slice(1)).toEqual([
      '::error file=breaking.avsc,title=Not FULL compatible with io.cli.Payment::version 2, new reads old data: currency: field \'currency\' is not in the writer\'s record and has no default (FIELD_NO_DEFAULT)',
      `::error file=breaking.avsc,title=Not FULL compatible with io.cli.Payment::prod: ${topic} value pins version 1, new reads old data: currency: field 'currency' is not in the writer's record and has no default (FIELD_NO_DEFAULT)`,
    ]);
  });

  it('judges only the environments named by --environment', async () => {
    const acc = await cli(check('strict-note.avsc', '--environment', 'acc'), bySecret());
    expect(acc).toEqual({ status: 0, stdout: ['strict-note.avsc: compatible with io.cli.Payment (BACKWARD); the versions pinned in acc too'], stderr: [] });
    const prod = await cli(check('strict-note.avsc', '--environment', 'acc', '--environment', 'prod'), bySecret());
    expect(prod.status).toBe(1);
    expect(prod.stdout).toEqual([
      'strict-note.avsc: not compatible with io.cli.Payment (BACKWARD): 1 problem',
      `strict-note.avsc: prod: ${topic} value pins version 1, new reads old data: note: field 'note' is not in the writer's record and has no default (FIELD_NO_DEFAULT)`,
    ]);
  });

  it('takes a federated CI job\'s OIDC token as the client assertion, or an access token as is', async () => {
    const jobToken = idp.sign({ iss: idp.url, sub: 'repo:acme/payments:ref:refs/heads/main', exp: Math.floor(Date.now() / 1000) + 60 });
    const federated = await cli(check('next.avsc'), { PMS_API_URL: app.api, PMS_TOKEN_URL: tokenUrl(), PMS_CLIENT_ASSERTION: jobToken });
    expect(federated.status).toBe(0);
    const asIs = await cli(check('breaking.avsc', '--format', 'json'), { PMS_API_URL: app.api, PMS_TOKEN: member.token, PMS_REALM: t.shortName });
    expect(asIs.status).toBe(1);
    expect(JSON.parse(asIs.stdout.join('\n'))).toMatchObject({ schema: { name: 'io.cli.Payment' }, mode: 'BACKWARD', compatible: false });
  });

  it('exits 2 when the document does not parse, with an annotation on the line the service names', async () => {
    const out = await cli(check('broken.avsc', '--format', 'github'), bySecret());
    expect(out.status).toBe(2);
    expect(out.stdout).toEqual([expect.stringMatching(/^::error file=broken\.avsc,line=4,col=\d+,title=Could not check compatibility::400: Invalid schema: schema: line 4, column \d+: invalid JSON: /)]);
    expect(out.stderr[0]).toBe('broken.avsc: could not check: 400: Invalid schema');
  });

  it('says its usage and its version, the package\'s', async () => {
    const version = (JSON.parse(readFileSync('client/package.json', 'utf8')) as { version: string }).version;
    expect(await cli(['--version'], {})).toEqual({ status: 0, stdout: [version], stderr: [] });
    const help = await cli(['--help'], {});
    expect(help.status).toBe(0);
    expect(help.stdout[0]).toBe('Usage: npx @platform-management-service/client schema check <file> --schema <name>');
  });

  it.each([
    ['an unknown environment', check('next.avsc', '--environment', 'nowhere'), {}, 'next.avsc: environments: unknown environment nowhere'],
    ['an unknown schema', ['schema', 'check', 'next.avsc', '--schema', 'io.cli.Nothing'], {}, 'next.avsc: name: unknown schema io.cli.Nothing'],
    ['an unknown mode', check('next.avsc', '--mode', 'SOMETIMES'), {}, 'mode'],
    ['a missing file', check('absent.avsc'), {}, 'absent.avsc: could not check: cannot read the file: ENOENT'],
    ['a wrong secret', check('next.avsc'), { PMS_CLIENT_SECRET: 'wrong' }, 'invalid_client'],
    ['no credentials', check('next.avsc'), { PMS_TOKEN_URL: '', PMS_CLIENT_SECRET: '' }, 'error: set PMS_TOKEN, or PMS_TOKEN_URL with PMS_CLIENT_ID and PMS_CLIENT_SECRET (or PMS_CLIENT_ASSERTION)'],
    ['no API root', check('next.avsc'), { PMS_API_URL: '' }, 'error: set PMS_API_URL'],
    ['no --schema', ['schema', 'check', 'next.avsc'], {}, 'error: --schema <name> is required'],
    ['an unknown option', check('next.avsc', '--colour'), {}, "error: Unknown option '--colour'"],
    ['an unknown format', check('next.avsc', '--format', 'xml'), {}, 'error: --format must be one of text, github, json'],
    ['a service that does not answer', check('next.avsc'), { PMS_API_URL: 'http://127.0.0.1:{closed}/api', PMS_TOKEN: 'x' }, 'next.avsc: could not check: fetch failed: connect ECONNREFUSED'],
  ])('exits 2 for %s, saying why', async (_case, args, env, said) => {
    const given = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('{closed}', String(closedPort))]));
    const out = await cli(args, { ...bySecret(), ...given });
    expect(out.status).toBe(2);
    expect(out.stderr.join('\n')).toContain(said);
  });
});
