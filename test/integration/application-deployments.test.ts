/**
 * Application deployments end to end (docs/contract.md §5.15, §6.2, §6.3, §7, §7.1, §8, §11.6, §11.12, §11.13), through the
 * API alone: a Connector (active principal, approved grant) and a Ksml application (credential, YAML definition)
 * each deployed, started, looked at, stopped and removed; every refusal as 400 (never 422) with the exact text the
 * Terraform provider reads; config checks at POST, PUT, PATCH and START; the state machine and its action links;
 * who sees and who operates (the environment's owners see, never operate); `GET /auth` against the links; delete
 * blockers of environments, applications and the active principal; the audit rows; ten concurrent STARTs; and, in
 * the last block, the provider's calls replayed exactly as `axual-webclient/application_deployment.go` and
 * `internal/provider/resource_application_deployment.go` make them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createUser, passwordToken, startTestApp, startWithTenant, type TestApp, type TestTenant, type TestUser } from '../support/app';
import { auditOf } from '../support/audit';
import { expectError } from '../support/errors';
import { newApplication, requestedGrant, type ApplicationKind } from '../support/fixtures';
import { authAnswer, call, created, expectStatus, lastSegment, type CallResult } from '../support/http';
import { goOk, queryEscape, terraformCall } from '../support/terraform-client';

const D = '/application_deployments';
const UID = /^[0-9a-f]{32}$/;

const ONLY_CONNECTOR_AND_KSML = 'Only Connector and Ksml applications can be deployed';
const NO_ACTIVE_PRINCIPAL = 'No active Application Principal for this application in this environment';
const NO_APPROVED_GRANT = 'No approved Application Access Grant for this application in this environment';
const INVALID_CONFIG = 'Invalid config uploaded';
const KSML_DEFINITION_MISSING = 'KSML_DEFINITION must be provided';
const INVALID_STATE = 'Invalid action for this state of deployment';
const ACTIVE_PRINCIPAL_DEPLOYED = 'Unable to delete the active principal of a deployed connector; activate another principal first';

const KSML_DEFINITION = [
  'streams:',
  '  payments:',
  '    topic: dp-payments',
  '    keyType: string',
  '    valueType: string',
  'pipelines:',
  '  main:',
  '    from: payments',
  '    forEach:',
  '      code: log.info("payment {}", key)',
  '',
].join('\n');

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
/** APPLICATION_AUTHOR + STREAM_AUTHOR + ENVIRONMENT_AUTHOR in a group that owns nothing here. */
let stranger: TestUser;
/** APPLICATION_ADMIN without a group. */
let appAdmin: TestUser;
let n = 0;

beforeAll(async () => {
  ({ app, t } = await startWithTenant('deploy'));
  w = await accessWorld(app, t, 'dp');
  stranger = await createUser(app, t, ['APPLICATION_AUTHOR', 'STREAM_AUTHOR', 'ENVIRONMENT_AUTHOR'], 'stranger');
  appAdmin = await createUser(app, t, ['APPLICATION_ADMIN'], 'appadmin');
  await post('/groups', { name: 'dp Strangers', members: [stranger.user.uid] }, t.admin.token);
});
afterAll(async () => app?.stop());

// ---------------------------------------------------------------------------------------------------------------
// helpers

const post = (path: string, body: unknown, token = w.appOwner.token) => created(app, path, body, token);
/** A new Public application of the app team. */
const freshApp = (kind: ApplicationKind) => newApplication(app, w.appOwner.token, { tag: 'dp', owners: w.appTeam.uid, kind });

/** A custom principal (one-element array) → its uid; activated through the API if asked. */
async function principal(application: any, environment: any, activate = true): Promise<string> {
  n += 1;
  const res = await call(app, 'POST', '/application_principals', {
    token: w.appOwner.token, body: [{ principal: `dp-client-${n}`, custom: true, application: application.uid, environment: environment.uid }],
  });
  expectStatus(res, 201);
  const uid = lastSegment(res.body);
  if (activate) expectStatus(await call(app, 'POST', `/application_authentications/${uid}/activate`, { token: w.appOwner.token }), 200);
  return uid;
}

async function credential(application: any, environment: any): Promise<void> {
  const res = await call(app, 'POST', '/application_authentications', { token: w.appOwner.token, body: { applicationId: application.uid, environmentId: environment.uid } });
  expectStatus(res, 201);
}

/** A grant request by the app owner; in the `Stream owner` environment approved by the stream owner unless told not to. */
async function grant(application: any, environment: any, o: { approve?: boolean; stream?: any } = {}): Promise<string> {
  const requested = await requestedGrant(app, w.appOwner.token, { application: application.uid, stream: (o.stream ?? w.stream).uid, environment: environment.uid });
  const uid = requested.uid as string;
  if (requested.status === 'Pending' && o.approve !== false) {
    expectStatus(await call(app, 'PUT', `/application_access_grants/${uid}`, { token: w.streamOwner.token }), 200);
  }
  return uid;
}

const connectorConfigs = (extra: Record<string, string> = {}) => ({ topics: 'dp-payments', 'tasks.max': '2', ...extra });
const ksmlConfigs = (extra: Record<string, string> = {}) => ({ ksml_definition: KSML_DEFINITION, ...extra });

/** A Connector application with an active principal and an approved grant in `managed`. */
async function readyConnector(environment = w.managed): Promise<{ application: any; principal: string; grant: string }> {
  const application = await freshApp('Connector');
  const p = await principal(application, environment);
  const g = await grant(application, environment);
  return { application, principal: p, grant: g };
}

/** A Ksml application with a credential and an (auto-)approved grant in `auto`. */
async function readyKsml(environment = w.auto): Promise<{ application: any; grant: string }> {
  const application = await freshApp('Ksml');
  await credential(application, environment);
  const g = await grant(application, environment);
  return { application, grant: g };
}

const deploy = (application: any, environment: any, configs?: unknown, token = w.appOwner.token) =>
  call(app, 'POST', D, { token, body: { application: application.uid, environment: environment.uid, ...(configs === undefined ? {} : { configs }) } });

/** POST, expecting 201, → the new deployment's uid (from Location). */
async function deployed(application: any, environment: any, configs?: unknown): Promise<string> {
  const res = await deploy(application, environment, configs);
  expectStatus(res, 201);
  return lastSegment(res.headers.get('location'));
}

const item = (uid: string, token = w.appOwner.token) => call(app, 'GET', `${D}/${uid}`, { token });
const status = (uid: string, token = w.appOwner.token) => call(app, 'GET', `${D}/${uid}/status`, { token });
const operate = (uid: string, action: string, body: Record<string, unknown> = { action }, token = w.appOwner.token) =>
  call(app, 'PUT', `${D}/${uid}/operation?action=${encodeURIComponent(action)}`, { token, body });
const put = (uid: string, body: unknown, token = w.appOwner.token) => call(app, 'PUT', `${D}/${uid}`, { token, body });
const patch = (uid: string, body: unknown, token = w.appOwner.token) => call(app, 'PATCH', `${D}/${uid}`, { token, body });
const remove = (uid: string, token = w.appOwner.token) => call(app, 'DELETE', `${D}/${uid}`, { token });

async function started(uid: string) {
  expectStatus(await operate(uid, 'START'), 200);
}

/** A 400 with `message` and exactly `errors` (the message alone unless told). */
const expectRefusal = (res: CallResult, message: string, errors: string[] = [message]) => expectError(res, 400, { message, errors });

/** The config refusal: one errors[] entry per key, each naming the problem; the keys are in subErrors. */
function expectConfigRefusal(res: CallResult, message: string, keys: string[]) {
  expectError(res, 400, { message });
  expect(res.body.errors).toHaveLength(keys.length);
  for (const e of res.body.errors) expect(e).toContain(message);
  expect((res.body.subErrors as any[]).map((s) => s.field).sort()).toEqual(keys.map((k) => `configs.${k}`).sort());
}

const OPERATION_RELS = ['start', 'stop', 'restart', 'reset', 'restartTask'];
const operationRels = (links: Record<string, unknown>) => OPERATION_RELS.filter((r) => r in links).sort();
const href = (l: any) => l.href as string;

/** Deployment events of an application (APPLICATION_*, not the grant's APPLICATION_ACCESS_*), oldest first. */
const deploymentAudit = async (applicationUid: string): Promise<any[]> =>
  (await auditOf(app, applicationUid, 'APPLICATION_')).filter((r) => !r.action.startsWith('APPLICATION_ACCESS_'));
const actions = async (applicationUid: string) => (await deploymentAudit(applicationUid)).map((r: any) => r.action as string);
const auditCount = async () => app.models.AuditEvent.count({ where: { tenantUid: t.tenant.uid } });

// ---------------------------------------------------------------------------------------------------------------

describe('a Connector application, through the API alone', () => {
  it('principal → activate → grant approved by the stream owner → deploy (201, empty) → START → status → STOP → DELETE', async () => {
    const application = await freshApp('Connector');

    // Principal: a one-element array; a Connector's starts inactive and is activated.
    const created = await call(app, 'POST', '/application_principals', {
      token: w.appOwner.token, body: [{ principal: 'dp-connector-client', custom: true, application: application.uid, environment: w.managed.uid }],
    });
    expectStatus(created, 201);
    const principalUid = String(created.body).split('/').pop()!;
    expect((await call(app, 'GET', `/application_principals/${principalUid}`, { token: w.appOwner.token })).body.active).toBe(false);
    // Not deployable yet: no active principal.
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_ACTIVE_PRINCIPAL);
    const activated = await call(app, 'POST', `/application_authentications/${principalUid}/activate`, { token: w.appOwner.token });
    expectStatus(activated, 200);
    expect(activated.body.active).toBe(true);

    // Grant: Pending in the `Stream owner` environment, so not deployable yet; approved by the stream owner.
    const requested = await call(app, 'POST', '/application_access_grants', {
      token: w.appOwner.token, body: { applicationId: application.uid, streamId: w.stream.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' },
    });
    expectStatus(requested, 201);
    expect(requested.body.status).toBe('Pending');
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_APPROVED_GRANT);
    const approved = await call(app, 'PUT', `/application_access_grants/${requested.body.uid}`, { token: w.streamOwner.token });
    expectStatus(approved, 200);
    expect(approved.body.status).toBe('Approved');

    // Deploy: 201, an empty body, Location.
    const before = await auditCount();
    const res = await deploy(application, w.managed, connectorConfigs({ file: '/tmp/dp-sink.txt' }));
    expect(res.status, res.text).toBe(201);
    expect(res.text).toBe('');
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${app.api}${D}/[0-9a-f]{32}$`));
    const uid = location.split('/').pop()!;
    expect(await auditCount()).toBe(before + 1);

    const got = await call(app, 'GET', location, { token: w.appOwner.token });
    expectStatus(got, 200);
    expect(got.body.uid).toBe(uid);
    expect(got.body.state).toBe('Stopped');
    expect(got.body.configs).toEqual([
      { configKey: 'file', configValue: '/tmp/dp-sink.txt' },
      { configKey: 'tasks.max', configValue: '2' },
      { configKey: 'topics', configValue: 'dp-payments' },
    ]);
    expect(got.body._embedded.application.uid).toBe(application.uid);
    expect(got.body._embedded.environment.uid).toBe(w.managed.uid);
    expect(href(got.body._links.self)).toBe(location);
    expect(operationRels(got.body._links)).toEqual(['reset', 'start']);

    // START: PUT {self}/operation?action=START with {action: "START"} → 200 status.
    const start = await call(app, 'PUT', href(got.body._links.start), { token: w.appOwner.token, body: { action: 'START' } });
    expectStatus(start, 200);
    expect(start.body.connectorState).toEqual({ state: 'Running', trace: null, workerId: 'embedded' });
    expect(start.body.ksmlStatus).toBeNull();

    const running = await status(uid);
    expectStatus(running, 200);
    expect(running.body.connectorState.state).toBe('Running');
    expect(running.body.taskStates).toEqual([
      { id: 0, status: 'Running', trace: null, workerId: 'embedded' },
      { id: 1, status: 'Running', trace: null, workerId: 'embedded' },
    ]);
    expect(running.body.ksmlStatus).toBeNull();
    expect(href(running.body._links.self)).toBe(`${location}/status`);
    expect(operationRels(running.body._links)).toEqual(['restart', 'restartTask', 'stop']);
    expect((await item(uid)).body.state).toBe('Running');

    const stop = await operate(uid, 'STOP');
    expectStatus(stop, 200);
    expect(stop.body.connectorState.state).toBe('Stopped');
    expect((await status(uid)).body.connectorState).toEqual({ state: 'Stopped', trace: null, workerId: 'embedded' });
    expect((await item(uid)).body.state).toBe('Stopped');

    const removed = await remove(uid);
    expect(removed.status, removed.text).toBe(204);
    expect((await item(uid)).status).toBe(404);

    expect(await actions(application.uid)).toEqual(['APPLICATION_CONFIGURED', 'APPLICATION_STARTED', 'APPLICATION_STOPPED', 'APPLICATION_UNCONFIGURED']);
  });

  it('GET {self}/logs and VIEW_STATUS / VIEW_LOGS answer without changing anything', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const before = await auditCount();
    const logs = await call(app, 'GET', `${D}/${uid}/logs`, { token: w.appOwner.token });
    expectStatus(logs, 200);
    expect(logs.body).toEqual({ logs: [] });
    const viewStatus = await operate(uid, 'VIEW_STATUS');
    expectStatus(viewStatus, 200);
    expect(viewStatus.body.connectorState.state).toBe('Stopped');
    const viewLogs = await operate(uid, 'VIEW_LOGS');
    expectStatus(viewLogs, 200);
    expect(viewLogs.body).toEqual({ logs: [] });
    expect(await auditCount()).toBe(before);
    expect((await item(uid)).body.state).toBe('Stopped');
  });
});

describe('a Ksml application, through the API alone', () => {
  it('credential → grant → deploy with a ksml_definition → START (ksmlStatus Running) → STOP (Undeployed) → DELETE', async () => {
    const application = await freshApp('Ksml');
    const cred = await call(app, 'POST', '/application_authentications', { token: w.appOwner.token, body: { applicationId: application.uid, environmentId: w.managed.uid } });
    expectStatus(cred, 201);
    await grant(application, w.managed);

    const res = await deploy(application, w.managed, { ksml_definition: KSML_DEFINITION, ksml_deployment_size: 'M', ksml_restart_policy: 'never' });
    expect(res.status, res.text).toBe(201);
    expect(res.text).toBe('');
    const uid = res.headers.get('location')!.split('/').pop()!;

    const got = await item(uid);
    expect(got.body.state).toBe('Stopped');
    expect(got.body.configs).toEqual([
      { configKey: 'ksml_definition', configValue: KSML_DEFINITION },
      { configKey: 'ksml_deployment_size', configValue: 'M' },
      { configKey: 'ksml_restart_policy', configValue: 'never' },
    ]);
    expect(operationRels(got.body._links)).toEqual(['reset', 'start']);

    const idle = await status(uid);
    expect(idle.body.connectorState).toBeNull();
    expect(idle.body.taskStates).toBeNull();
    expect(idle.body.ksmlStatus).toMatchObject({ status: 'Undeployed', replicas: null });

    const start = await operate(uid, 'START');
    expectStatus(start, 200);
    expect(start.body.ksmlStatus).toMatchObject({ status: 'Running', replicas: 1, readyReplicas: 1 });
    const running = await status(uid);
    expect(running.body.ksmlStatus.status).toBe('Running');
    expect(running.body.ksmlStatus.deployedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(running.body.connectorState).toBeNull();
    expect(running.body.taskStates).toBeNull();
    // No task to restart for KSML.
    expect(operationRels(running.body._links)).toEqual(['restart', 'stop']);

    const restart = await operate(uid, 'RESTART');
    expectStatus(restart, 200);
    expect(restart.body.ksmlStatus.restartsCount).toBe(1);

    const stop = await operate(uid, 'STOP');
    expectStatus(stop, 200);
    expect(stop.body.ksmlStatus).toMatchObject({ status: 'Undeployed', replicas: null });
    expect((await status(uid)).body.ksmlStatus.status).toBe('Undeployed');

    expect((await remove(uid)).status).toBe(204);
    expect(await actions(application.uid)).toEqual(['APPLICATION_CONFIGURED', 'APPLICATION_STARTED', 'APPLICATION_RESTARTED', 'APPLICATION_STOPPED', 'APPLICATION_UNCONFIGURED']);
  });

  it('a Ksml application may deploy on a principal instead of a credential; with neither it is refused (400)', async () => {
    const withPrincipal = await freshApp('Ksml');
    await principal(withPrincipal, w.auto, false);
    await grant(withPrincipal, w.auto);
    expectStatus(await deploy(withPrincipal, w.auto, ksmlConfigs()), 201);

    const bare = await freshApp('Ksml');
    const res = await deploy(bare, w.auto, ksmlConfigs());
    expectError(res, 400);
    expect(res.body.errors).toHaveLength(1);
  });
});

describe('refusals: 400 BAD_REQUEST with the message the provider reads (never 422), nothing stored, nothing audited', () => {
  it('a Custom application: `Only Connector and Ksml applications can be deployed`', async () => {
    // The world's application is Custom, with a principal in `managed`; give it an approved grant too.
    await grant(w.application, w.managed);
    const before = await auditCount();
    expectRefusal(await deploy(w.application, w.managed, { anything: 'x' }), ONLY_CONNECTOR_AND_KSML);
    expectRefusal(await deploy(w.application, w.managed), ONLY_CONNECTOR_AND_KSML);
    expect(await auditCount()).toBe(before);
    expect(await app.models.ApplicationDeployment.count({ where: { applicationUid: w.application.uid } })).toBe(0);
  });

  it('a Connector without a principal, or with inactive ones only: `No active Application Principal …`', async () => {
    const application = await freshApp('Connector');
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_ACTIVE_PRINCIPAL);
    await principal(application, w.managed, false);
    await grant(application, w.managed);
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_ACTIVE_PRINCIPAL);
    // An active principal in another environment does not count.
    await principal(application, w.auto);
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_ACTIVE_PRINCIPAL);
    expect(await actions(application.uid)).toEqual([]);
  });

  it('no approved grant there (none, Pending, Revoked, or approved elsewhere): `No approved Application Access Grant …`', async () => {
    const application = await freshApp('Connector');
    await principal(application, w.managed);
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_APPROVED_GRANT);
    const pending = await grant(application, w.managed, { approve: false });
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_APPROVED_GRANT);
    expectStatus(await call(app, 'PUT', `/application_access_grants/${pending}`, { token: w.streamOwner.token }), 200);
    expectStatus(await call(app, 'POST', `/application_access_grants/${pending}/revoke`, { token: w.streamOwner.token, body: { reason: 'no' } }), 200);
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_APPROVED_GRANT);
    // Approved in `auto` does not make `managed` deployable.
    await principal(application, w.auto);
    await grant(application, w.auto);
    expectRefusal(await deploy(application, w.managed, connectorConfigs()), NO_APPROVED_GRANT);
    expectStatus(await deploy(application, w.auto, connectorConfigs()), 201);

    const ksml = await freshApp('Ksml');
    await credential(ksml, w.managed);
    expectRefusal(await deploy(ksml, w.managed, ksmlConfigs()), NO_APPROVED_GRANT);
  });

  it('a second deployment of the application in that environment → 409, no second row, nothing audited', async () => {
    const { application } = await readyConnector();
    await deployed(application, w.managed, connectorConfigs());
    const before = await auditCount();
    const again = await deploy(application, w.managed, connectorConfigs());
    expectError(again, 409);
    expect(await auditCount()).toBe(before);
    expect(await app.models.ApplicationDeployment.count({ where: { applicationUid: application.uid } })).toBe(1);
  });

  it('ten concurrent POSTs of one application+environment through a pool of two connections: exactly one 201, the rest 409, one row, one audit entry', async () => {
    const { application } = await readyConnector();
    // More writers than connections: a write that needed a second connection beside its transaction's would leave
    // all ten waiting on each other until the pool gave up (503).
    const narrow = await startTestApp({}, { pool: { max: 2, min: 0, idle: 10_000, acquire: 10_000 } });
    try {
      const token = await passwordToken(narrow, t.shortName, w.appOwner.email, w.appOwner.password);
      const body = { application: application.uid, environment: w.managed.uid, configs: connectorConfigs() };
      const replies = await Promise.all(Array.from({ length: 10 }, () => call(narrow, 'POST', D, { token, body })));
      const codes = replies.map((r) => r.status);
      expect(codes.filter((c) => c === 201), codes.join(',')).toHaveLength(1);
      expect(codes.filter((c) => c === 409), codes.join(',')).toHaveLength(9);
      // Each loser hears what a later duplicate hears, naming the field, whether its check or the index met the winner.
      for (const lost of replies.filter((r) => r.status === 409)) {
        expectError(lost, 409, { errors: [`environment: application ${application.shortName} is already deployed in environment ${w.managed.shortName}`] });
      }
    } finally {
      await narrow.stop();
    }
    expect(await app.models.ApplicationDeployment.count({ where: { applicationUid: application.uid } })).toBe(1);
    expect(await actions(application.uid)).toEqual(['APPLICATION_CONFIGURED']);
  });

  it('§2 order: a duplicate POST with invalid configs hears about the configs (400) before the uniqueness conflict (409)', async () => {
    const { application } = await readyConnector();
    await deployed(application, w.managed, connectorConfigs());
    expectConfigRefusal(await deploy(application, w.managed, { 'tasks.max': 'x', topics: 'dp-payments' }), INVALID_CONFIG, ['tasks.max']);
  });

  it('only app editors deploy: the environment owner and a stranger are refused (403), APPLICATION_ADMIN may', async () => {
    const { application } = await readyConnector();
    const asEnvOwner = await deploy(application, w.managed, connectorConfigs(), w.streamOwner.token);
    expect(asEnvOwner.status, asEnvOwner.text).toBe(403);
    const asStranger = await deploy(application, w.managed, connectorConfigs(), stranger.token);
    expect(asStranger.status, asStranger.text).toBe(403);
    const asAdmin = await deploy(application, w.managed, connectorConfigs(), appAdmin.token);
    expect(asAdmin.status, asAdmin.text).toBe(201);
  });
});

describe('Connector configs (plugin definitions + standard keys), checked at POST, PUT, PATCH and START', () => {
  it('POST: a missing required key, a mistyped tasks.max → `Invalid config uploaded`, one errors[] entry per key', async () => {
    const { application } = await readyConnector();
    expectConfigRefusal(await deploy(application, w.managed, { 'tasks.max': '1' }), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await deploy(application, w.managed, connectorConfigs({ 'tasks.max': 'two' })), INVALID_CONFIG, ['tasks.max']);
    expectConfigRefusal(await deploy(application, w.managed, connectorConfigs({ 'tasks.max': '0' })), INVALID_CONFIG, ['tasks.max']);
    expectConfigRefusal(await deploy(application, w.managed, connectorConfigs({ 'tasks.max': '1.5' })), INVALID_CONFIG, ['tasks.max']);
    expectConfigRefusal(await deploy(application, w.managed, { 'tasks.max': 'many' }), INVALID_CONFIG, ['tasks.max', 'topics']);
    expectConfigRefusal(await deploy(application, w.managed, { topics: '' }), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await deploy(application, w.managed, connectorConfigs({ 'value.converter': 'not a class' })), INVALID_CONFIG, ['value.converter']);
    // Whatever configs holds: absent and {} are checked too.
    expectConfigRefusal(await deploy(application, w.managed), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await deploy(application, w.managed, {}), INVALID_CONFIG, ['topics']);
    expect(await app.models.ApplicationDeployment.count({ where: { applicationUid: application.uid } })).toBe(0);
    expect(await actions(application.uid)).toEqual([]);
  });

  it('unknown keys pass; configs are echoed as sent, sorted by key, without injected defaults', async () => {
    const { application } = await readyConnector();
    const sent = { topics: 'dp-payments', 'z.custom': 'Zeta', 'a.custom': '', 'tasks.max': ' 3 ', 'consumer.override.auto.offset.reset': 'earliest' };
    const uid = await deployed(application, w.managed, sent);
    const got = await item(uid);
    expect(got.body.configs).toEqual([
      { configKey: 'a.custom', configValue: '' },
      { configKey: 'consumer.override.auto.offset.reset', configValue: 'earliest' },
      { configKey: 'tasks.max', configValue: ' 3 ' },
      { configKey: 'topics', configValue: 'dp-payments' },
      { configKey: 'z.custom', configValue: 'Zeta' },
    ]);
    await started(uid);
    expect((await status(uid)).body.taskStates.map((s: any) => s.id)).toEqual([0, 1, 2]);
  });

  it('tasks.max absent → one task; configs values must be strings (400)', async () => {
    const { application } = await readyConnector();
    const bad = await deploy(application, w.managed, { topics: 'dp-payments', 'tasks.max': 2 });
    expect(bad.status, bad.text).toBe(400);
    const uid = await deployed(application, w.managed, { topics: 'dp-payments' });
    expect((await item(uid)).body.configs).toEqual([{ configKey: 'topics', configValue: 'dp-payments' }]);
    await started(uid);
    expect((await status(uid)).body.taskStates).toHaveLength(1);
  });

  it('PUT replaces configs (absent = none, so checked as {}); PATCH merges; every change is checked and audited', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const before = await auditCount();
    expectConfigRefusal(await put(uid, {}), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await put(uid, { configs: {} }), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await put(uid, { configs: { topics: 'dp-payments', 'tasks.max': '-1' } }), INVALID_CONFIG, ['tasks.max']);
    expectConfigRefusal(await patch(uid, { configs: {} }), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await patch(uid, { configs: { topics: null } }), INVALID_CONFIG, ['topics']);
    expectConfigRefusal(await patch(uid, { configs: { 'tasks.max': 'x' } }), INVALID_CONFIG, ['tasks.max']);
    expect(await auditCount()).toBe(before);
    expect((await item(uid)).body.configs).toEqual([{ configKey: 'tasks.max', configValue: '2' }, { configKey: 'topics', configValue: 'dp-payments' }]);

    const replaced = await put(uid, { configs: { topics: 'dp-refunds', extra: 'kept' } });
    expectStatus(replaced, 200);
    expect(replaced.body.configs).toEqual([{ configKey: 'extra', configValue: 'kept' }, { configKey: 'topics', configValue: 'dp-refunds' }]);
    // PUT may re-send application and environment unchanged.
    const same = await put(uid, { application: application.uid, environment: w.managed.uid, configs: { topics: 'dp-refunds', extra: 'kept' } });
    expectStatus(same, 200);
    const patched = await patch(uid, { configs: { extra: null, 'tasks.max': '4' } });
    expectStatus(patched, 200);
    expect(patched.body.configs).toEqual([{ configKey: 'tasks.max', configValue: '4' }, { configKey: 'topics', configValue: 'dp-refunds' }]);
    expect(patched.body.state).toBe('Stopped');
    // POST, the changing PUT and the PATCH; the PUT that changed nothing writes no entry.
    expect(await actions(application.uid)).toEqual(['APPLICATION_CONFIGURED', 'APPLICATION_CONFIGURED', 'APPLICATION_CONFIGURED']);
  });

  it('START checks again: a grant revoked after creation → 400 and nothing changes; configs that stopped fitting → 400', async () => {
    const { application, grant: g } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    expectStatus(await call(app, 'POST', `/application_access_grants/${g}/revoke`, { token: w.appOwner.token, body: { reason: 'done' } }), 200);
    const before = await auditCount();
    expectRefusal(await operate(uid, 'START'), NO_APPROVED_GRANT);
    expect(await auditCount()).toBe(before);
    expect((await item(uid)).body.state).toBe('Stopped');
    // A new grant makes it startable again.
    await grant(application, w.managed);
    await started(uid);
    expect((await item(uid)).body.state).toBe('Running');

    // Configs stored before a check could see them (written straight to the database) are refused at START.
    const other = await readyConnector();
    const second = await deployed(other.application, w.managed, connectorConfigs());
    await app.models.ApplicationDeployment.update({ configs: { 'tasks.max': 'lots' } }, { where: { uid: second } });
    expectConfigRefusal(await operate(second, 'START'), INVALID_CONFIG, ['tasks.max', 'topics']);
    expect((await item(second)).body.state).toBe('Stopped');
  });
});

describe('Ksml configs', () => {
  it('`KSML_DEFINITION must be provided` without ksml_definition (absent, {}, other keys only, blank)', async () => {
    const { application } = await readyKsml();
    expectConfigRefusal(await deploy(application, w.auto), KSML_DEFINITION_MISSING, ['ksml_definition']);
    expectConfigRefusal(await deploy(application, w.auto, {}), KSML_DEFINITION_MISSING, ['ksml_definition']);
    expectConfigRefusal(await deploy(application, w.auto, { ksml_deployment_size: 'S' }), KSML_DEFINITION_MISSING, ['ksml_definition']);
    expectConfigRefusal(await deploy(application, w.auto, { ksml_definition: '' }), KSML_DEFINITION_MISSING, ['ksml_definition']);
    expect(await actions(application.uid)).toEqual([]);
  });

  it('`Invalid config uploaded`: a definition that is not YAML, a bad ksml_deployment_size or ksml_restart_policy', async () => {
    const { application } = await readyKsml();
    expectConfigRefusal(await deploy(application, w.auto, { ksml_definition: 'streams: [unclosed' }), INVALID_CONFIG, ['ksml_definition']);
    expectConfigRefusal(await deploy(application, w.auto, ksmlConfigs({ ksml_deployment_size: 'XXL' })), INVALID_CONFIG, ['ksml_deployment_size']);
    expectConfigRefusal(await deploy(application, w.auto, ksmlConfigs({ ksml_restart_policy: 'always' })), INVALID_CONFIG, ['ksml_restart_policy']);
    expectConfigRefusal(await deploy(application, w.auto, ksmlConfigs({ ksml_deployment_size: 'huge', ksml_restart_policy: 'sometimes' })), INVALID_CONFIG,
      ['ksml_deployment_size', 'ksml_restart_policy']);
    const uid = await deployed(application, w.auto, ksmlConfigs({ ksml_deployment_size: 'XS', ksml_restart_policy: 'never' }));
    for (const size of ['XS', 'S', 'M', 'L', 'XL']) {
      for (const policy of ['on_exit', 'never']) expectStatus(await put(uid, { configs: ksmlConfigs({ ksml_deployment_size: size, ksml_restart_policy: policy }) }), 200);
    }
    // No injected defaults: a deployment without size or policy echoes none.
    expectStatus(await put(uid, { configs: ksmlConfigs() }), 200);
    expect((await item(uid)).body.configs).toEqual([{ configKey: 'ksml_definition', configValue: KSML_DEFINITION }]);
    expectConfigRefusal(await put(uid, { configs: { ksml_restart_policy: 'never' } }), KSML_DEFINITION_MISSING, ['ksml_definition']);
    expectConfigRefusal(await patch(uid, { configs: { ksml_definition: '- a\n- list' } }), INVALID_CONFIG, ['ksml_definition']);
  });
});

describe('the state machine (§6.2): refusals are 400 `Invalid action for this state of deployment`', () => {
  it('PUT, PATCH and DELETE while Running → 400; START on Running → 400; after STOP all work again', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    await started(uid);
    const before = await auditCount();
    expectRefusal(await put(uid, { configs: connectorConfigs() }), INVALID_STATE);
    expectRefusal(await patch(uid, { configs: { 'tasks.max': '1' } }), INVALID_STATE);
    expectRefusal(await remove(uid), INVALID_STATE);
    expectRefusal(await operate(uid, 'START'), INVALID_STATE);
    expectRefusal(await operate(uid, 'RESET'), INVALID_STATE);
    expect(await auditCount()).toBe(before);
    expect((await item(uid)).body.state).toBe('Running');

    expectStatus(await operate(uid, 'STOP'), 200);
    expectRefusal(await operate(uid, 'STOP'), INVALID_STATE);
    expectRefusal(await operate(uid, 'RESTART'), INVALID_STATE);
    expectRefusal(await operate(uid, 'RESTART_TASK', { action: 'RESTART_TASK', taskId: 0 }), INVALID_STATE);
    expectStatus(await patch(uid, { configs: { 'tasks.max': '1' } }), 200);
    expectStatus(await put(uid, { configs: connectorConfigs() }), 200);
    expect((await remove(uid)).status).toBe(204);
  });

  it('unknown action, missing action, query ≠ body → 400; the action may come in the query or the body alone, any case', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const before = await auditCount();
    const unknown = await operate(uid, 'FLY');
    expectError(unknown, 400);
    const missing = await call(app, 'PUT', `${D}/${uid}/operation`, { token: w.appOwner.token, body: {} });
    expect(missing.status, missing.text).toBe(400);
    const differing = await operate(uid, 'START', { action: 'STOP' });
    expect(differing.status, differing.text).toBe(400);
    expect(await auditCount()).toBe(before);
    expect((await item(uid)).body.state).toBe('Stopped');

    const bodyOnly = await call(app, 'PUT', `${D}/${uid}/operation`, { token: w.appOwner.token, body: { action: 'start' } });
    expectStatus(bodyOnly, 200);
    expect(bodyOnly.body.connectorState.state).toBe('Running');
    const queryOnly = await call(app, 'PUT', `${D}/${uid}/operation?action=STOP`, { token: w.appOwner.token });
    expectStatus(queryOnly, 200);
    expect(queryOnly.body.connectorState.state).toBe('Stopped');
  });

  it('RESTART_TASK: taskId out of range, missing or not an integer → 400; in range → 200 and APPLICATION_RESTARTED with details.taskId', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs({ 'tasks.max': '3' }));
    await started(uid);
    const before = await auditCount();
    for (const taskId of [3, 99, -1, 'one', 1.5]) {
      const res = await operate(uid, 'RESTART_TASK', { action: 'RESTART_TASK', taskId });
      expect(res.status, `${taskId}: ${res.text}`).toBe(400);
      expect(res.body.status).toBe('BAD_REQUEST');
    }
    expect((await operate(uid, 'RESTART_TASK')).status).toBe(400);
    expect(await auditCount()).toBe(before);

    const ok = await operate(uid, 'RESTART_TASK', { action: 'RESTART_TASK', taskId: 2 });
    expectStatus(ok, 200);
    expect(ok.body.connectorState.state).toBe('Running');
    // taskId in the query works too.
    expectStatus(await call(app, 'PUT', `${D}/${uid}/operation?action=RESTART_TASK&taskId=0`, { token: w.appOwner.token }), 200);
    const restarts = (await deploymentAudit(application.uid)).filter((r: any) => r.action === 'APPLICATION_RESTARTED');
    expect(restarts.map((r: any) => r.details.taskId)).toEqual([2, 0]);
    for (const r of restarts) expect(r.details.deployment).toBe(uid);

    const ksml = await readyKsml();
    const k = await deployed(ksml.application, w.auto, ksmlConfigs());
    await started(k);
    expect((await operate(k, 'RESTART_TASK', { action: 'RESTART_TASK', taskId: 0 })).status).toBe(400);
  });

  it('RESET on Stopped → APPLICATION_RESET, stays Stopped; RESTART on Running → APPLICATION_RESTARTED', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const reset = await operate(uid, 'RESET');
    expectStatus(reset, 200);
    expect(reset.body.connectorState.state).toBe('Stopped');
    expect((await item(uid)).body.state).toBe('Stopped');
    await started(uid);
    const restart = await operate(uid, 'RESTART');
    expectStatus(restart, 200);
    expect(restart.body.connectorState.state).toBe('Running');
    expect(await actions(application.uid)).toEqual(['APPLICATION_CONFIGURED', 'APPLICATION_RESET', 'APPLICATION_STARTED', 'APPLICATION_RESTARTED']);
  });

  it('ten concurrent STARTs on one Stopped deployment: exactly one 200 and one APPLICATION_STARTED', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const replies = await Promise.all(Array.from({ length: 10 }, () => operate(uid, 'START')));
    const codes = replies.map((r) => r.status);
    expect(codes.filter((c) => c === 200), codes.join(',')).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 200)) {
      expect([400, 409], r.text).toContain(r.status);
      if (r.status === 400) expect(r.body.message).toBe(INVALID_STATE);
    }
    expect((await actions(application.uid)).filter((a) => a === 'APPLICATION_STARTED')).toHaveLength(1);
    expect((await item(uid)).body.state).toBe('Running');
  });
});

describe('links, visibility and GET /auth', () => {
  it('operation links follow the state, only for app editors; the environment owner sees but may not operate (403)', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const self = `${app.api}${D}/${uid}`;

    const stopped = (await item(uid)).body._links;
    expect(href(stopped.start)).toBe(`${self}/operation?action=START`);
    expect(href(stopped.reset)).toBe(`${self}/operation?action=RESET`);
    expect(href(stopped.status)).toBe(`${self}/status`);
    expect(href(stopped.logs)).toBe(`${self}/logs`);
    expect(href(stopped.edit)).toBe(self);
    expect(href(stopped.delete)).toBe(self);
    expect(href(stopped.applicationDeployment)).toBe(self);
    expect(operationRels(stopped)).toEqual(['reset', 'start']);

    for (const who of [w.streamOwner]) {
      const seen = await item(uid, who.token);
      expectStatus(seen, 200);
      expect(operationRels(seen.body._links)).toEqual([]);
      expect(seen.body._links.edit).toBeUndefined();
      expect(seen.body._links.delete).toBeUndefined();
      expect(seen.body._links.status).toBeDefined();
      const st = await status(uid, who.token);
      expectStatus(st, 200);
      expect(operationRels(st.body._links)).toEqual([]);
      expect((await operate(uid, 'START', { action: 'START' }, who.token)).status).toBe(403);
      expect((await put(uid, { configs: connectorConfigs() }, who.token)).status).toBe(403);
      expect((await patch(uid, { configs: { 'tasks.max': '1' } }, who.token)).status).toBe(403);
      expect((await remove(uid, who.token)).status).toBe(403);
    }
    // A user who neither edits the application nor owns the environment does not see it at all.
    expect((await item(uid, stranger.token)).status).toBe(404);
    expect((await operate(uid, 'START', { action: 'START' }, stranger.token)).status).toBe(404);
    // APPLICATION_ADMIN edits every application.
    expect(operationRels((await item(uid, appAdmin.token)).body._links)).toEqual(['reset', 'start']);

    await started(uid);
    const running = (await item(uid)).body._links;
    expect(operationRels(running)).toEqual(['restart', 'restartTask', 'stop']);
    expect(href(running.stop)).toBe(`${self}/operation?action=STOP`);
    expect(href(running.restart)).toBe(`${self}/operation?action=RESTART`);
    expect(href(running.restartTask)).toBe(`${self}/operation?action=RESTART_TASK`);
    expect(operationRels((await status(uid)).body._links)).toEqual(['restart', 'restartTask', 'stop']);
    expect(operationRels((await item(uid, w.streamOwner.token)).body._links)).toEqual([]);
    expect((await operate(uid, 'STOP', { action: 'STOP' }, w.streamOwner.token)).status).toBe(403);
  });

  it('the collection and searches show a deployment to app editors and environment owners, not to others', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    const uidsIn = (res: CallResult) => (res.body._embedded.application_deployments as any[]).map((d) => d.uid);
    for (const who of [w.appOwner, w.streamOwner, appAdmin, t.admin]) {
      expect(uidsIn(await call(app, 'GET', `${D}?size=9999`, { token: who.token }))).toContain(uid);
      expect(uidsIn(await call(app, 'GET', `${D}/search/findByApplication?application=${application.uid}`, { token: who.token }))).toEqual([uid]);
    }
    expect(uidsIn(await call(app, 'GET', `${D}?size=9999`, { token: stranger.token }))).not.toContain(uid);
  });

  it('GET /auth DEPLOYMENT_OPERATE and APPLICATION_DEPLOYMENT_* agree with the links', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    for (const who of [w.appOwner, appAdmin, t.admin, w.streamOwner]) {
      for (const state of ['Stopped', 'Running']) {
        if (state === 'Running' && (await item(uid)).body.state !== 'Running') await started(uid);
        const links = (await item(uid, who.token)).body._links;
        const operateAnswer = await authAnswer(app, who.token, 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', uid);
        expect(operateAnswer.status === 200, `${who.email} ${state}: ${operateAnswer.text}`).toBe(operationRels(links).length > 0);
        if (operateAnswer.status === 200) expect(operateAnswer.text).toBe('');
        else expect(operateAnswer.status).toBe(403);
        expect((await authAnswer(app, who.token, 'APPLICATION_DEPLOYMENT_VIEW', 'APPLICATION_DEPLOYMENT', uid)).status).toBe(200);
        expect((await authAnswer(app, who.token, 'APPLICATION_DEPLOYMENT_EDIT', 'APPLICATION_DEPLOYMENT', uid)).status === 200).toBe('edit' in links);
        expect((await authAnswer(app, who.token, 'APPLICATION_DEPLOYMENT_DELETE', 'APPLICATION_DEPLOYMENT', uid)).status === 200).toBe('delete' in links);
      }
      expectStatus(await operate(uid, 'STOP'), 200);
    }
    // The environment owner is not an app editor: 403 on all but VIEW.
    expect((await authAnswer(app, w.streamOwner.token, 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', uid)).status).toBe(403);
    // CREATE with the application as parent: its editors only.
    expect((await authAnswer(app, w.appOwner.token, 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', application.uid)).status).toBe(200);
    expect((await authAnswer(app, w.streamOwner.token, 'APPLICATION_DEPLOYMENT_CREATE', 'APPLICATION_DEPLOYMENT', application.uid)).status).toBe(403);
    // Invisible → 404.
    expect((await authAnswer(app, stranger.token, 'DEPLOYMENT_OPERATE', 'APPLICATION_DEPLOYMENT', uid)).status).toBe(404);
  });
});

describe('delete blockers', () => {
  it('the environment and the application of a deployment cannot be deleted (422) until the deployment goes', async () => {
    // A dedicated Auto environment, emptied of everything but the deployment.
    const iso = await post('/environments', { name: 'dp-iso', shortName: 'dpiso', instance: w.instance.uid, owners: w.streamTeam.uid, authorizationIssuer: 'Auto' }, t.admin.token);
    const config = await post('/stream_configs', { stream: w.stream.uid, environment: iso.uid }, w.streamOwner.token);
    const { application, grant: g } = await readyKsml(iso);
    const uid = await deployed(application, iso, ksmlConfigs());

    expectStatus(await call(app, 'POST', `/application_access_grants/${g}/revoke`, { token: w.appOwner.token, body: { reason: 'x' } }), 200);
    const creds = await call(app, 'GET', `/application_credentials/search/findAllByApplicationIdAndEnvironmentId?applicationId=${application.uid}&environmentId=${iso.uid}`, { token: w.appOwner.token });
    for (const c of creds.body as any[]) expect((await call(app, 'DELETE', `/application_credentials/${c.uid}`, { token: w.appOwner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/stream_configs/${config.uid}`, { token: w.streamOwner.token })).status).toBe(204);

    const envDelete = await call(app, 'DELETE', `/environments/${iso.uid}`, { token: t.admin.token });
    expectError(envDelete, 422);
    expect(envDelete.text).toContain('1 deployment');
    const appDelete = await call(app, 'DELETE', `/applications/${application.uid}`, { token: w.appOwner.token });
    expect(appDelete.status, appDelete.text).toBe(422);
    expect(appDelete.text).toContain('1 deployment');

    expect((await remove(uid)).status).toBe(204);
    expect((await call(app, 'DELETE', `/applications/${application.uid}`, { token: w.appOwner.token })).status).toBe(204);
    expect((await call(app, 'DELETE', `/environments/${iso.uid}`, { token: t.admin.token })).status).toBe(204);
  });

  it('the active principal of a deployed connector → 400 with the exact message; an inactive one → 204; undeployed → 204', async () => {
    const { application, principal: active } = await readyConnector();
    const spare = await principal(application, w.managed, false);
    const uid = await deployed(application, w.managed, connectorConfigs());
    const before = await auditCount();
    const refused = await call(app, 'DELETE', `/application_principals/${active}`, { token: w.appOwner.token });
    expectRefusal(refused, ACTIVE_PRINCIPAL_DEPLOYED);
    expect(await auditCount()).toBe(before);
    expect((await call(app, 'GET', `/application_principals/${active}`, { token: w.appOwner.token })).status).toBe(200);
    // Running makes no difference.
    await started(uid);
    expectRefusal(await call(app, 'DELETE', `/application_principals/${active}`, { token: w.appOwner.token }), ACTIVE_PRINCIPAL_DEPLOYED);
    expect((await call(app, 'DELETE', `/application_principals/${spare}`, { token: w.appOwner.token })).status).toBe(204);

    // Activating another principal frees the former one.
    const next = await principal(application, w.managed, true);
    expect((await call(app, 'DELETE', `/application_principals/${active}`, { token: w.appOwner.token })).status).toBe(204);
    expectRefusal(await call(app, 'DELETE', `/application_principals/${next}`, { token: w.appOwner.token }), ACTIVE_PRINCIPAL_DEPLOYED);
    expectStatus(await operate(uid, 'STOP'), 200);
    expect((await remove(uid)).status).toBe(204);
    expect((await call(app, 'DELETE', `/application_principals/${next}`, { token: w.appOwner.token })).status).toBe(204);
  });
});

describe('audit (§8): filed under the Application with details.deployment', () => {
  it('CONFIGURED / STARTED / RESTARTED / STOPPED / RESET / UNCONFIGURED, one per change, by the actor', async () => {
    const { application } = await readyConnector();
    const uid = await deployed(application, w.managed, connectorConfigs());
    expectStatus(await put(uid, { configs: connectorConfigs({ 'tasks.max': '1' }) }), 200);
    expectStatus(await patch(uid, { configs: { file: '/tmp/x' } }), 200);
    expectStatus(await operate(uid, 'RESET'), 200);
    await started(uid);
    expectStatus(await operate(uid, 'RESTART'), 200);
    expectStatus(await operate(uid, 'RESTART_TASK', { action: 'RESTART_TASK', taskId: 0 }), 200);
    expectStatus(await operate(uid, 'STOP'), 200);
    expect((await remove(uid)).status).toBe(204);

    const rows = await deploymentAudit(application.uid);
    expect(rows.map((r: any) => r.action)).toEqual([
      'APPLICATION_CONFIGURED', 'APPLICATION_CONFIGURED', 'APPLICATION_CONFIGURED', 'APPLICATION_RESET', 'APPLICATION_STARTED',
      'APPLICATION_RESTARTED', 'APPLICATION_RESTARTED', 'APPLICATION_STOPPED', 'APPLICATION_UNCONFIGURED',
    ]);
    for (const r of rows as any[]) {
      expect(r.resourceType).toBe('Application');
      expect(r.resourceId).toBe(application.uid);
      expect(r.resourceName).toBe(application.shortName);
      expect(r.actor).toBe(w.appOwner.email);
      expect(r.tenant).toBe(t.shortName);
      expect(r.details.deployment).toBe(uid);
      expect(r.details.environment).toBe(w.managed.shortName);
    }
    expect(rows[5].details.taskId).toBeUndefined();
    expect(rows[6].details.taskId).toBe(0);

  });
});

// ---------------------------------------------------------------------------------------------------------------
// The Axual Terraform provider, call by call

describe('the Terraform provider (axual-webclient/application_deployment.go, resource_application_deployment.go)', () => {
  const tf = (who: TestUser, method: string, path: string, body?: unknown) => terraformCall(app, t.shortName, who.token, method, path, body);
  /** RequestAndMap into a value: an empty body is not decoded at all; anything else must be JSON of the target's shape. */
  const decode = (res: CallResult): unknown => (res.text.length === 0 ? undefined : JSON.parse(res.text));
  /** The error text the provider matches on: `status: <code>, body: <body>`. */
  const goError = (res: CallResult) => `status: ${res.status}, body: ${res.text}`;
  const apiUrl = () => app.api;

  const findByAppAndEnv = (who: TestUser, application: string, environment: string) =>
    tf(who, 'GET', `${D}/search/findByApplicationAndEnvironment?application=${queryEscape(application)}&environment=${queryEscape(environment)}`);
  const operateTf = (who: TestUser, id: string, action: string) => tf(who, 'PUT', `${D}/${id}/operation?action=${action}`, { action });

  /** The resource's Create, step by step, as far as the API answers; returns the deployment id the provider saves. */
  async function providerCreate(who: TestUser, application: any, environment: any, configs: Record<string, string>): Promise<{ id?: string; error?: string; create?: CallResult }> {
    const got = await tf(who, 'GET', `/applications/${application.uid}`);
    expect(got.status).toBe(200);
    const type = got.body.applicationType as string;
    const applicationURL = `${apiUrl()}/applications/${application.uid}`;
    const environmentURL = `${apiUrl()}/environments/${environment.uid}`;
    const principals = await tf(who, 'GET', `/application_principals/search/findByApplicationAndEnvironment?application=${queryEscape(applicationURL)}&environment=${queryEscape(environmentURL)}`);
    expect(principals.status).toBe(200);
    let count = (principals.body._embedded.application_principals as any[]).length;
    if (type === 'Ksml') {
      const creds = await tf(who, 'GET', `/application_credentials/search/findByApplicationIdAndEnvironmentId?applicationId=${queryEscape(applicationURL)}&environmentId=${queryEscape(environmentURL)}`);
      expect(creds.status).toBe(200);
      count += (creds.body as any[]).length;
    }
    if (count === 0) return { error: 'no authentication' };
    if (type !== 'Ksml' && !(principals.body._embedded.application_principals as any[]).some((p) => p.active === true)) return { error: 'no active principal' };
    // GetApplicationAccessGrantsByAttributes{ApplicationId, EnvironmentId, Statuses: "APPROVED"}: url.Values.Encode sorts the keys.
    const grants = await tf(who, 'GET', `/application_access_grants/search/findByAttributes?applicationId=${queryEscape(application.uid)}&environmentId=${queryEscape(environment.uid)}&statuses=APPROVED`);
    expect(grants.status, grants.text).toBe(200);
    if ((grants.body._embedded.applicationAccessGrantResponses as any[]).length === 0) return { error: 'no approved grant' };
    // CreateApplicationDeployment: json.Marshal(ApplicationDeploymentCreateRequest), decoded into a string type.
    const create = await tf(who, 'POST', D, { application: application.uid, environment: environment.uid, configs });
    if (!goOk(create)) return { error: goError(create), create };
    expect(create.status).toBe(201);
    expect(create.text).toBe('');
    expect(decode(create)).toBeUndefined();
    // The provider finds the new uid by searching.
    const found = await findByAppAndEnv(who, applicationURL, environmentURL);
    expect(found.status).toBe(200);
    const list = found.body._embedded.application_deployments as any[];
    expect(list).toHaveLength(1);
    return { id: list[0].uid, create };
  }

  it('Connector: create (empty 201) → find → START (retry on "Invalid action…") → status → update (STOP, PUT, START) → import → delete', async () => {
    const { application, grant: g } = await readyConnector();
    const configs = { topics: 'dp-payments', 'tasks.max': '2', file: '/tmp/tf.txt' };
    const { id, create } = await providerCreate(w.appOwner, application, w.managed, configs);
    expect(id).toMatch(UID);
    expect(create!.headers.get('location')).toBe(`${app.api}${D}/${id}`);
    expect((await app.models.AuditEvent.findAll({ where: { resourceId: application.uid, action: 'APPLICATION_CONFIGURED' } }))).toHaveLength(1);

    // mapApplicationDeploymentByApplicationAndEnvironmentResponseToData
    const found = (await findByAppAndEnv(w.appOwner, `${apiUrl()}/applications/${application.uid}`, `${apiUrl()}/environments/${w.managed.uid}`)).body._embedded.application_deployments[0];
    expect(found.uid).toBe(id);
    expect(found.state).toBe('Stopped');
    expect(found._embedded.application).toMatchObject({ uid: application.uid, shortName: application.shortName, applicationType: 'Connector' });
    expect(found._embedded.environment).toMatchObject({ uid: w.managed.uid, shortName: w.managed.shortName });
    const asMap = Object.fromEntries((found.configs as any[]).map((c) => [c.configKey, c.configValue]));
    expect(asMap).toEqual(configs);
    for (const c of found.configs) expect(Object.keys(c).sort()).toEqual(['configKey', 'configValue']);

    // START with Retry: the first succeeds (200, body ignored); a retried START answers a 400 whose text the provider matches.
    const first = await operateTf(w.appOwner, id!, 'START');
    expect(first.status, first.text).toBe(200);
    const retried = await operateTf(w.appOwner, id!, 'START');
    expect(retried.status).toBe(400);
    expect(goError(retried)).toContain('Invalid action for this state of deployment');

    // Update: GetApplicationDeploymentStatus → shouldStopDeployment (connectorState.state != "Stopped") → STOP → PUT {configs} → START.
    let st = await tf(w.appOwner, 'GET', `${D}/${id}/status`);
    expect(st.status).toBe(200);
    expect(st.body.connectorState.state).toBe('Running');
    expect(st.body.ksmlStatus).toBeNull();
    expect((await operateTf(w.appOwner, id!, 'STOP')).status).toBe(200);
    const updated = await tf(w.appOwner, 'PUT', `${D}/${id}`, { configs: { topics: 'dp-payments', 'tasks.max': '1' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.configs).toEqual([{ configKey: 'tasks.max', configValue: '1' }, { configKey: 'topics', configValue: 'dp-payments' }]);
    expect((await operateTf(w.appOwner, id!, 'START')).status).toBe(200);

    // ImportState: GetApplicationDeployment must be Running, then mapApplicationDeploymentByIdResponseToData.
    const imported = await tf(w.appOwner, 'GET', `${D}/${id}`);
    expect(imported.status).toBe(200);
    expect(imported.body.state).toBe('Running');
    expect(imported.body.uid).toBe(id);
    expect(imported.body._embedded.application).toMatchObject({ uid: application.uid, shortName: application.shortName, applicationType: 'Connector' });
    expect(imported.body._embedded.environment).toMatchObject({ uid: w.managed.uid, shortName: w.managed.shortName });
    expect(imported.body.configs).toEqual(updated.body.configs);

    // A PUT while Running (an update the provider did not stop first) is readable.
    const runningPut = await tf(w.appOwner, 'PUT', `${D}/${id}`, { configs: { topics: 'dp-payments' } });
    expect(runningPut.status).toBe(400);
    expect(goError(runningPut)).toContain(INVALID_STATE);

    // Delete: status → STOP → DELETE (204) → Read finds nothing.
    st = await tf(w.appOwner, 'GET', `${D}/${id}/status`);
    expect(st.body.connectorState.state).not.toBe('Stopped');
    expect((await operateTf(w.appOwner, id!, 'STOP')).status).toBe(200);
    st = await tf(w.appOwner, 'GET', `${D}/${id}/status`);
    expect(st.body.connectorState.state).toBe('Stopped');
    const deleted = await tf(w.appOwner, 'DELETE', `${D}/${id}`);
    expect(deleted.status).toBe(204);
    expect((await tf(w.appOwner, 'GET', `${D}/${id}`)).status).toBe(404);
    const after = await findByAppAndEnv(w.appOwner, `${apiUrl()}/applications/${application.uid}`, `${apiUrl()}/environments/${w.managed.uid}`);
    expect(after.status).toBe(200);
    expect(after.body._embedded.application_deployments).toEqual([]);
    expect(g).toMatch(UID);
  });

  it('Ksml: configs built from definition / deployment_size / restart_policy; ksmlStatus drives stop-before-delete', async () => {
    const { application } = await readyKsml();
    // createConfigsForDeploymentType: only the set attributes; a missing definition is the API's to refuse, readably.
    const missing = await tf(w.appOwner, 'POST', D, { application: application.uid, environment: w.auto.uid, configs: { ksml_restart_policy: 'on_exit' } });
    expect(missing.status).toBe(400);
    expect(goError(missing)).toContain(KSML_DEFINITION_MISSING);
    const notYaml = await tf(w.appOwner, 'POST', D, { application: application.uid, environment: w.auto.uid, configs: { ksml_definition: '{{{' } });
    expect(notYaml.status).toBe(400);
    expect(goError(notYaml)).toContain(INVALID_CONFIG);

    const { id } = await providerCreate(w.appOwner, application, w.auto, { ksml_definition: KSML_DEFINITION, ksml_restart_policy: 'on_exit' });
    const found = (await findByAppAndEnv(w.appOwner, `${apiUrl()}/applications/${application.uid}`, `${apiUrl()}/environments/${w.auto.uid}`)).body._embedded.application_deployments[0];
    expect(found._embedded.application.applicationType).toBe('Ksml');
    // mapResponseConfigsToData: no ksml_deployment_size came back, so the provider keeps it null (no injected default).
    expect(found.configs).toEqual([
      { configKey: 'ksml_definition', configValue: KSML_DEFINITION },
      { configKey: 'ksml_restart_policy', configValue: 'on_exit' },
    ]);
    expect((await operateTf(w.appOwner, id!, 'START')).status).toBe(200);
    let st = await tf(w.appOwner, 'GET', `${D}/${id}/status`);
    expect(st.body.ksmlStatus.status).toBe('Running');
    expect(st.body.connectorState).toBeNull();
    expect((await operateTf(w.appOwner, id!, 'STOP')).status).toBe(200);
    st = await tf(w.appOwner, 'GET', `${D}/${id}/status`);
    expect(st.body.ksmlStatus.status).toBe('Undeployed');
    expect((await tf(w.appOwner, 'DELETE', `${D}/${id}`)).status).toBe(204);
  });

  it('refusals reach the provider as 400 with readable bodies, never as a bodiless 422', async () => {
    const custom = await tf(w.appOwner, 'POST', D, { application: w.application.uid, environment: w.managed.uid, configs: {} });
    expect(custom.status).toBe(400);
    expect(goError(custom)).toContain(ONLY_CONNECTOR_AND_KSML);

    const bare = await freshApp('Connector');
    const noPrincipal = await tf(w.appOwner, 'POST', D, { application: bare.uid, environment: w.managed.uid, configs: connectorConfigs() });
    expect(noPrincipal.status).toBe(400);
    expect(goError(noPrincipal)).toContain(NO_ACTIVE_PRINCIPAL);
    await principal(bare, w.managed);
    const noGrant = await tf(w.appOwner, 'POST', D, { application: bare.uid, environment: w.managed.uid, configs: connectorConfigs() });
    expect(noGrant.status).toBe(400);
    expect(goError(noGrant)).toContain(NO_APPROVED_GRANT);
    // The provider's own pre-check sees the same: no APPROVED grant.
    const grants = await tf(w.appOwner, 'GET', `/application_access_grants/search/findByAttributes?applicationId=${bare.uid}&environmentId=${w.managed.uid}&statuses=APPROVED`);
    expect(grants.body._embedded.applicationAccessGrantResponses).toEqual([]);
    await grant(bare, w.managed);
    const grantsNow = await tf(w.appOwner, 'GET', `/application_access_grants/search/findByAttributes?applicationId=${bare.uid}&environmentId=${w.managed.uid}&statuses=APPROVED`);
    expect(grantsNow.body._embedded.applicationAccessGrantResponses).toHaveLength(1);
    expect(grantsNow.body._embedded.applicationAccessGrantResponses[0].status).toBe('Approved');

    const badConfig = await tf(w.appOwner, 'POST', D, { application: bare.uid, environment: w.managed.uid, configs: { 'tasks.max': 'x' } });
    expect(badConfig.status).toBe(400);
    expect(goError(badConfig)).toContain(INVALID_CONFIG);
    // Go marshals a nil map as null: treated as no configs, and checked.
    const nullConfigs = await tf(w.appOwner, 'POST', D, { application: bare.uid, environment: w.managed.uid, configs: null });
    expect(nullConfigs.status).toBe(400);
    expect(goError(nullConfigs)).toContain(INVALID_CONFIG);

    const ok = await providerCreate(w.appOwner, bare, w.managed, connectorConfigs());
    expect(ok.id).toMatch(UID);
    // Create retried after a lost reply: 409, never a second row.
    const again = await tf(w.appOwner, 'POST', D, { application: bare.uid, environment: w.managed.uid, configs: connectorConfigs() });
    expect(again.status).toBe(409);
    expect(await app.models.ApplicationDeployment.count({ where: { applicationUid: bare.uid } })).toBe(1);
    // Deleting the active principal (the principal resource's destroy) is readable too.
    const principals = await tf(w.appOwner, 'GET', `/application_principals/search/findByApplicationAndEnvironment?application=${bare.uid}&environment=${w.managed.uid}`);
    const active = (principals.body._embedded.application_principals as any[]).find((p) => p.active);
    const del = await tf(w.appOwner, 'DELETE', `/application_principals/${active.uid}`);
    expect(del.status).toBe(400);
    expect(goError(del)).toContain(ACTIVE_PRINCIPAL_DEPLOYED);
    // DELETE of a gone deployment → 404.
    expect((await operateTf(w.appOwner, ok.id!, 'RESET')).status).toBe(200);
    expect((await tf(w.appOwner, 'DELETE', `${D}/${ok.id}`)).status).toBe(204);
    expect((await tf(w.appOwner, 'DELETE', `${D}/${ok.id}`)).status).toBe(404);
  });
});
