/**
 * Secrets never come back (docs/contract.md §5.11, §5.12, §8, §1.2): one full flow — a generated credential, a Connector
 * principal uploaded with its private key (and replaced by another certificate and key, and a refused upload with a
 * key that does not match), activation, an approved grant, a deployment started and stopped, and every read the
 * UI or the Terraform provider makes in between — records every response (status line, headers, body), every
 * audit row of the tenant and every line the service logs, and asserts that no generated password and no private
 * key (PEM, its base64 body, or any line of it) appears anywhere, except the password exactly once: in the reply
 * to `POST /application_authentications`. The stored rows hold neither in clear either.
 *
 * The same holds for what the service reports about itself: its metrics (`/metrics`) and its traces (tracing on,
 * into an in-memory exporter) hold no password, no private key, no client or provider secret and no token, also
 * after sign-ins (a right and a wrong password) and a provider call with its credentials.
 *
 * Log capture: test/support/log-capture.ts (every line the process writes during the flow, at level trace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '../../core/logger';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { startWithTenant, type TestApp, type TestTenant } from '../support/app';
import { auditOf } from '../support/audit';
import { call, expectStatus, type CallOptions, type CallResult } from '../support/http';
import { startLogCapture, type LogCapture } from '../support/log-capture';
import { certificateKit, type CertificateKit, type TestLeaf } from '../support/certificates';
import { queryEscape, terraformCall } from '../support/terraform-client';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startTracing, type Tracing } from '../../server/telemetry/tracing-sdk';
import { startFakeAiven, type FakeAiven } from '../support/fake-aiven';

const SINK = 'org.apache.kafka.connect.file.FileStreamSinkConnector';

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let kit: CertificateKit;
let tracing: Tracing;
let aiven: FakeAiven;
const spans = new InMemorySpanExporter();
const AIVEN_TOKEN = 'sc-aiven-token-never-shown-0001';

interface Recorded { label: string; status: number; text: string; headers: string }
const responses: Recorded[] = [];
let capture: LogCapture | undefined;

beforeAll(async () => {
  kit = certificateKit();
  tracing = await startTracing({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  aiven = await startFakeAiven({ token: AIVEN_TOKEN, projects: { acme: [{ name: 'kafka-prod', type: 'kafka', uri: 'kafka-prod.example:1234' }] } });
  ({ app, t } = await startWithTenant('secret', { aivenApiUrl: aiven.url }));
  w = await accessWorld(app, t, 'sc');
  // The world's fixture credential is inserted through the model, not the API (its `types` are not in the stored
  // form, so listing it fails the response validation); this flow makes its credentials through the API.
  await app.models.ApplicationCredential.destroy({ where: { tenantUid: t.tenant.uid } });
}, 120_000);

afterAll(async () => {
  capture?.stop();
  kit?.cleanup();
  await app?.stop();
  await aiven?.close();
  await tracing?.stop();
});

/** One API call, recorded whole: status, every header, the body as sent on the wire. */
async function rec(label: string, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const res = await call(app, method, path, o);
  responses.push({ label: `${label}: ${method} ${path}`, status: res.status, text: res.text, headers: [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n') });
  return res;
}

/** The same, with the headers the Terraform provider's client sends. */
async function recTf(label: string, method: string, path: string, token: string, body?: unknown): Promise<CallResult> {
  const res = await terraformCall(app, t.shortName, token, method, path, body);
  responses.push({ label: `tf ${label}: ${method} ${path}`, status: res.status, text: res.text, headers: [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n') });
  return res;
}

/** What must never be seen of a PEM private key: the whole text, its base64 body, and each of its base64 lines. */
function keyNeedles(pem: string): string[] {
  const lines = pem.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('-----'));
  return [pem.trim(), lines.join(''), ...lines.filter((l) => l.length >= 16)];
}

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('no generated password and no private key is ever shown again, audited or logged', () => {
  it('a full credential / principal / deployment flow', async () => {
    const owner = w.appOwner.token;
    const streamOwner = w.streamOwner.token;

    // Made before the capture starts: openssl's own output is not the service's.
    const rsa: TestLeaf = kit.leaf('/C=NL/O=Secret Org/OU=Connect/CN=sc-connector', { keyType: 'rsa' });
    const ec: TestLeaf = kit.leaf('/C=NL/O=Secret Org/OU=Connect/CN=sc-connector-2', { keyType: 'ec' });
    const strayKey = kit.newKey('rsa');
    const standby: TestLeaf = kit.leaf('/C=NL/O=Secret Org/OU=Connect/CN=sc-standby', { keyType: 'ec' });

    capture = startLogCapture();
    const logLines = capture.lines;
    logger.info({ canary: 'sc-canary-line' }, 'capture check');
    expect(logLines.join('')).toContain('sc-canary-line');
    const afterCanary = logLines.length;

    // The Connector application.
    const application = expectStatus(await rec('application', 'POST', '/applications', {
      token: owner,
      body: { applicationId: 'io.sc.sink', name: 'sc Sink', shortName: 'sc_sink', applicationType: 'Connector', type: 'SINK', applicationClass: SINK, owners: w.appTeam.uid },
    }), 201).body;

    // 1. A credential: the password is in this reply and nowhere else, ever.
    const created = expectStatus(await rec('credential create', 'POST', '/application_authentications', {
      token: owner, body: { applicationId: application.uid, environmentId: w.managed.uid, description: 'sc kafka' },
    }), 201);
    const creationIndex = responses.length - 1;
    const { username, password } = created.body[0].authData;
    expect(password).toMatch(/^[A-Za-z0-9]{32}$/);
    const second = expectStatus(await rec('credential create (registry)', 'POST', '/application_authentications', {
      token: owner, body: { applicationId: application.uid, environmentId: w.managed.uid, target: 'SCHEMA_REGISTRY' },
    }), 201);
    const secondIndex = responses.length - 1;
    const password2 = second.body[0].authData.password as string;
    expect(password2).toMatch(/^[A-Za-z0-9]{32}$/);

    // 2. A principal with its private key, one-element array; a refused upload whose key does not match.
    const refused = await rec('principal with a foreign key', 'POST', '/application_principals', {
      token: owner, body: [{ principal: rsa.chain, privateKey: strayKey, application: application.uid, environment: w.managed.uid }],
    });
    expect(refused.status).toBe(400);
    const principalUri = expectStatus(await rec('principal create', 'POST', '/application_principals', {
      token: owner, body: [{ principal: rsa.chain, privateKey: rsa.key, application: application.uid, environment: w.managed.uid }],
    }), 201).body as string;
    const principalUid = principalUri.split('/').pop()!;
    const standbyUid = (expectStatus(await rec('standby principal', 'POST', '/application_principals', {
      token: owner, body: [{ principal: standby.chain, privateKey: standby.key, application: application.uid, environment: w.managed.uid }],
    }), 201).body as string).split('/').pop()!;
    const shown = expectStatus(await rec('principal item', 'GET', `/application_principals/${principalUid}`, { token: owner }), 200).body;
    expect(shown.privateKeyUploaded).toBe(true);
    expect(shown).not.toHaveProperty('privateKey');
    expectStatus(await rec('activate', 'POST', `/application_authentications/${principalUid}/activate`, { token: owner }), 200);
    // Replace the certificate and key (PATCH), then refuse a replacement with a key of another certificate.
    expectStatus(await rec('principal patch', 'PATCH', `/application_principals/${principalUid}`, { token: owner, body: { principal: ec.chain, privateKey: ec.key } }), 200);
    expect((await rec('principal patch, foreign key', 'PATCH', `/application_principals/${principalUid}`, { token: owner, body: { principal: ec.chain, privateKey: strayKey } })).status).toBe(400);

    // What the database holds for the principals (before they are deleted below).
    const storedPrincipals = await app.models.ApplicationPrincipal.findAll({ where: { applicationUid: application.uid } });
    expect(storedPrincipals).toHaveLength(2);

    // 3. Access and deployment.
    const grant = expectStatus(await rec('grant request', 'POST', '/application_access_grants', {
      token: owner, body: { applicationId: application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' },
    }), 201).body;
    expectStatus(await rec('grant approve', 'PUT', `/application_access_grants/${grant.uid}`, { token: streamOwner }), 200);
    const deployment = expectStatus(await rec('deploy', 'POST', '/application_deployments', {
      token: owner, body: { application: application.uid, environment: w.managed.uid, configs: { topics: 'sc-payments', 'tasks.max': '1' } },
    }), 201);
    expect(deployment.text).toBe('');
    const deploymentUid = deployment.headers.get('location')!.split('/').pop()!;
    expectStatus(await rec('start', 'PUT', `/application_deployments/${deploymentUid}/operation?action=START`, { token: owner, body: { action: 'START' } }), 200);
    expectStatus(await rec('status', 'GET', `/application_deployments/${deploymentUid}/status`, { token: owner }), 200);
    expect((await rec('delete active principal', 'DELETE', `/application_principals/${principalUid}`, { token: owner })).status).toBe(400);

    // 4. Every read that shows credentials, principals, the application or the deployment, as the UI and the provider make them.
    const api = app.api;
    for (const who of [w.appOwner, t.admin]) {
      for (const path of [
        `/applications/${application.uid}`,
        '/application_principals?size=9999',
        `/application_principals/${principalUid}`,
        `/application_principals/${principalUid}/application`,
        `/application_principals/search/findByApplication?application=${application.uid}`,
        `/application_principals/search/findByApplicationAndEnvironment?application=${application.uid}&environment=${w.managed.uid}`,
        `/application_principals/search/findByEnvironment?environment=${w.managed.uid}`,
        '/application_credentials?size=9999',
        `/application_credentials/search/findAllByApplicationIdAndEnvironmentId?applicationId=${application.uid}&environmentId=${w.managed.uid}`,
        `/application_credentials/search/findByApplicationIdAndEnvironmentId?applicationId=${application.uid}&environmentId=${w.managed.uid}`,
        `/application_credentials/search/findByApplicationId?applicationId=${application.uid}`,
        `/application_credentials/search/findAllByApplicationIdAndEnvironmentIdAndTypesType?applicationId=${application.uid}&environmentId=${w.managed.uid}&type=SCRAM_SHA_512`,
        '/application_deployments?size=9999',
        `/application_deployments/${deploymentUid}`,
        `/application_access_grants/${grant.uid}`,
        `/application_access_grants/search/findByAttributes?applicationId=${application.uid}`,
      ]) {
        const res = await rec(`read as ${who.email}`, 'GET', path, { token: who.token });
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
    }
    // The environment owner sees principals and deployments there.
    expectStatus(await rec('env owner principal', 'GET', `/application_principals/${principalUid}`, { token: streamOwner }), 200);
    expectStatus(await rec('env owner principals', 'GET', `/application_principals/search/findByEnvironment?environment=${w.managed.uid}`, { token: streamOwner }), 200);
    // The provider's reads (Realm, Accept hal+json, URL references).
    const appUrl = `${api}/applications/${application.uid}`;
    const envUrl = `${api}/environments/${w.managed.uid}`;
    expectStatus(await recTf('principals', 'GET', `/application_principals/search/findByApplicationAndEnvironment?application=${queryEscape(appUrl)}&environment=${queryEscape(envUrl)}`, owner), 200);
    expectStatus(await recTf('principal', 'GET', `/application_principals/${principalUid}`, owner), 200);
    expectStatus(await recTf('credentials', 'GET', `/application_credentials/search/findByApplicationIdAndEnvironmentId?applicationId=${queryEscape(appUrl)}&environmentId=${queryEscape(envUrl)}`, owner), 200);
    expectStatus(await recTf('deployment', 'GET', `/application_deployments/search/findByApplicationAndEnvironment?application=${queryEscape(appUrl)}&environment=${queryEscape(envUrl)}`, owner), 200);

    // 5. Credential changes and removals, then the rest of the lifecycle.
    const credentials = expectStatus(await rec('credentials', 'GET', `/application_credentials/search/findAllByApplicationIdAndEnvironmentId?applicationId=${application.uid}&environmentId=${w.managed.uid}`, { token: owner }), 200).body as any[];
    const kafkaCredential = credentials.find((c) => c.username === username);
    expectStatus(await rec('credential patch', 'PATCH', `/application_credentials/${kafkaCredential.uid}`, { token: owner, body: { description: 'sc kafka, renamed' } }), 200);
    expectStatus(await rec('credential item', 'GET', `/application_credentials/${kafkaCredential.uid}`, { token: owner }), 200);
    expectStatus(await rec('stop', 'PUT', `/application_deployments/${deploymentUid}/operation?action=STOP`, { token: owner, body: { action: 'STOP' } }), 200);
    expectStatus(await rec('undeploy', 'DELETE', `/application_deployments/${deploymentUid}`, { token: owner }), 204);
    expectStatus(await rec('delete standby principal', 'DELETE', `/application_principals/${standbyUid}`, { token: owner }), 204);
    expectStatus(await rec('delete credential by username', 'DELETE', '/application_authentications', {
      token: owner, body: { applicationId: application.uid, environmentId: w.managed.uid, configs: { username } },
    }), 204);
    expectStatus(await rec('delete principal', 'DELETE', `/application_principals/${principalUid}`, { token: owner }), 204);
    // A second flow on a Ksml application with a credential, as the provider drives it.
    const ksml = expectStatus(await rec('ksml application', 'POST', '/applications', {
      token: owner, body: { applicationId: 'io.sc.ksml', name: 'sc Ksml', shortName: 'sc_ksml', applicationType: 'Ksml', owners: w.appTeam.uid },
    }), 201).body;
    const ksmlCreated = expectStatus(await rec('ksml credential', 'POST', '/application_authentications', { token: owner, body: { applicationId: ksml.uid, environmentId: w.auto.uid } }), 201);
    const ksmlIndex = responses.length - 1;
    const password3 = ksmlCreated.body[0].authData.password as string;
    expectStatus(await rec('ksml grant', 'POST', '/application_access_grants', {
      token: owner, body: { applicationId: ksml.uid, streamId: w.stream.uid, environmentId: w.auto.uid, accessType: 'PRODUCER' },
    }), 201);
    expectStatus(await recTf('ksml deploy', 'POST', '/application_deployments', owner, { application: ksml.uid, environment: w.auto.uid, configs: { ksml_definition: 'streams: {}\n' } }), 201);
    expectStatus(await recTf('ksml credentials', 'GET', `/application_credentials/search/findByApplicationIdAndEnvironmentId?applicationId=${ksml.uid}&environmentId=${w.auto.uid}`, owner), 200);

    // 6. Sign-ins, right and wrong, and a provider call with its token: none of it may be reported.
    const wrongPassword = `sc-wrong-password-${Date.now()}`;
    const signIn = (password: string) => fetch(`${app.authUrl}/realms/${t.shortName}/protocol/openid-connect/token`, {
      method: 'POST', body: new URLSearchParams({ client_id: 'self-service', grant_type: 'password', username: t.admin.email, password }),
    });
    const issued = await signIn(t.admin.password);
    expect(issued.status).toBe(200);
    const freshToken = ((await issued.json()) as { access_token: string }).access_token;
    expect((await signIn(wrongPassword)).status).toBe(401);
    expectStatus(await rec('provider', 'POST', '/providers/validateCredentials', {
      token: t.admin.token, body: { 'Svc-Provider-Type': 'AIVEN', 'Svc-Project-Id-A': 'acme', 'Svc-Auth-Token-A': AIVEN_TOKEN },
    }), 200);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();

    const audit = await auditOf(app, { tenantUid: t.tenant.uid });
    const auditTexts = audit.map((r: any) => JSON.stringify(r.get({ plain: true })));
    const [rawAudit] = (await app.models.sequelize.query('SELECT * FROM audit_events WHERE tenant_uid = :tenant', { replacements: { tenant: t.tenant.uid } })) as [unknown[], unknown];
    const storedCredentials = await app.models.ApplicationCredential.findAll({ where: { tenantUid: t.tenant.uid } });
    capture.stop();

    // The flow did what it says: the audit has the credential, principal and deployment rows.
    const auditActions = audit.map((r: any) => r.action as string);
    for (const action of ['AUTHENTICATION_CONFIGURED', 'AUTHENTICATION_UNCONFIGURED', 'APPLICATION_CONFIGURED', 'APPLICATION_STARTED', 'APPLICATION_STOPPED', 'APPLICATION_UNCONFIGURED']) {
      expect(auditActions).toContain(action);
    }
    expect(rawAudit.length).toBe(audit.length);
    expect(responses.length).toBeGreaterThan(60);

    const passwords = [password, password2, password3];
    const keys = [...keyNeedles(rsa.key), ...keyNeedles(ec.key), ...keyNeedles(strayKey), ...keyNeedles(standby.key)];
    const serviceLog = logLines.slice(afterCanary).join('');

    // Passwords: exactly once each, in their own creation reply; never in headers, other replies, audit or logs.
    const creationReplies: Record<string, number> = { [password]: creationIndex, [password2]: secondIndex, [password3]: ksmlIndex };
    for (const secret of passwords) {
      const where = responses.map((r, i) => ({ i, label: r.label, n: occurrences(r.text, secret) + occurrences(r.headers, secret) })).filter((x) => x.n > 0);
      expect(where.map((x) => x.label)).toEqual([responses[creationReplies[secret]].label]);
      expect(where[0].n).toBe(1);
      expect(where[0].i).toBe(creationReplies[secret]);
      for (const text of auditTexts) expect(text).not.toContain(secret);
      expect(JSON.stringify(rawAudit)).not.toContain(secret);
      expect(serviceLog).not.toContain(secret);
      for (const row of storedCredentials) expect(JSON.stringify(row.get({ plain: true }))).not.toContain(secret);
    }

    // Private keys: nowhere at all (the uploads are requests, never replies), in no encoding the PEM carries.
    for (const needle of keys) {
      const leaks = responses.filter((r) => r.text.includes(needle) || r.headers.includes(needle) || r.text.includes(JSON.stringify(needle).slice(1, -1)));
      expect(leaks.map((r) => r.label), needle.slice(0, 40)).toEqual([]);
      for (const text of auditTexts) expect(text).not.toContain(needle);
      expect(JSON.stringify(rawAudit)).not.toContain(needle);
      expect(serviceLog).not.toContain(needle);
      for (const row of storedPrincipals) expect(JSON.stringify(row.get({ plain: true }))).not.toContain(needle);
    }
    // Metrics and traces: no secret of the flow, no token and no credential a request carried.
    const traced = JSON.stringify(spans.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, resource: s.resource.attributes })));
    expect(traced).toContain('createApplicationPrincipal');
    expect(metrics).toContain('http_server_request_duration_seconds_count{operation="createApplicationPrincipal"');
    const tokens = [owner, streamOwner, t.admin.token, freshToken];
    const others = [t.admin.password, wrongPassword, AIVEN_TOKEN, ...tokens, ...tokens.map((tk) => tk.split('.')[2])];
    for (const needle of [...passwords, ...keys, ...others]) {
      expect(metrics, needle.slice(0, 40)).not.toContain(needle);
      expect(traced, needle.slice(0, 40)).not.toContain(needle);
    }
    for (const needle of others) expect(serviceLog, needle.slice(0, 40)).not.toContain(needle);

    // The certificates themselves are public and do come back (the check above is not vacuous for PEM text).
    expect(responses.some((r) => r.text.includes(rsa.cert.split('\n')[1]))).toBe(true);
  });
});
