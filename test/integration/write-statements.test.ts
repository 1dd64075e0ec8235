/**
 * Issue 34: the statements of every write, pinned per operation and per dialect family. Every round trip to the
 * database passes Sequelize's `afterQuery` hook (its own queries and the prepared ones of models/sequelize-adapter
 * alike), so counting that hook counts them all. The whole scenario runs twice and only the second run counts:
 * the first builds what is built once per process (statements, plans).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialectOf } from '../../models/db';
import { accessWorld, type AccessWorld } from '../support/access-world';
import { createTenant, startTestApp, type TestApp, type TestTenant } from '../support/app';
import { configuredStream, requestedGrant } from '../support/fixtures';
import { call, created } from '../support/http';

const family = dialectOf(inject('databaseUrl')) === 'postgres' ? 'postgres' : 'mysql';

/**
 * Statements per write: `B` BEGIN, `S` SELECT, `I` INSERT, `U` UPDATE, `D` DELETE, `P` SAVEPOINT, `C` COMMIT (a kind is left
 * out when none ran). The request's own reads outside the transaction (the caller, the target) count too.
 */
const EXPECTED: Record<string, { postgres: string; mysql: string }> = {
  createGroup:                    { postgres: '7: B1 S2 I3 C1', mysql: '8: B1 S3 I3 C1' },
  replaceGroup:                   { postgres: '10: B1 S6 I1 U1 C1', mysql: '10: B1 S6 I1 U1 C1' },
  patchGroup:                     { postgres: '9: B1 S5 I1 U1 C1', mysql: '9: B1 S5 I1 U1 C1' },
  deleteGroup:                    { postgres: '9: B1 S5 I1 D1 C1', mysql: '9: B1 S5 I1 D1 C1' },
  createCluster:                  { postgres: '5: B1 S1 I2 C1', mysql: '6: B1 S2 I2 C1' },
  replaceCluster:                 { postgres: '6: B1 S2 I1 U1 C1', mysql: '6: B1 S2 I1 U1 C1' },
  patchCluster:                   { postgres: '5: B1 S1 I1 U1 C1', mysql: '5: B1 S1 I1 U1 C1' },
  createInstance:                 { postgres: '7: B1 S2 I3 C1', mysql: '9: B1 S4 I3 C1' },
  replaceInstance:                { postgres: '8: B1 S4 I1 U1 C1', mysql: '8: B1 S4 I1 U1 C1' },
  patchInstance:                  { postgres: '7: B1 S3 I1 U1 C1', mysql: '7: B1 S3 I1 U1 C1' },
  createEnvironment:              { postgres: '7: B1 S3 I2 C1', mysql: '9: B1 S5 I2 C1' },
  replaceEnvironment:             { postgres: '9: B1 S5 I1 U1 C1', mysql: '11: B1 S7 I1 U1 C1' },
  patchEnvironment:               { postgres: '6: B1 S2 I1 U1 C1', mysql: '8: B1 S4 I1 U1 C1' },
  createStream:                   { postgres: '6: B1 S2 I2 C1', mysql: '7: B1 S3 I2 C1' },
  replaceStream:                  { postgres: '7: B1 S3 I1 U1 C1', mysql: '8: B1 S4 I1 U1 C1' },
  patchStream:                    { postgres: '6: B1 S2 I1 U1 C1', mysql: '7: B1 S3 I1 U1 C1' },
  createStreamConfig:             { postgres: '11: B1 S7 I2 C1', mysql: '11: B1 S7 I2 C1' },
  replaceStreamConfig:            { postgres: '7: B1 S3 I1 U1 C1', mysql: '11: B1 S7 I1 U1 C1' },
  patchStreamConfig:              { postgres: '5: B1 S1 I1 U1 C1', mysql: '9: B1 S5 I1 U1 C1' },
  deleteStreamConfig:             { postgres: '6: B1 S2 I1 D1 C1', mysql: '8: B1 S4 I1 D1 C1' },
  deleteStream:                   { postgres: '7: B1 S3 I1 D1 C1', mysql: '7: B1 S3 I1 D1 C1' },
  deleteEnvironment:              { postgres: '10: B1 S6 I1 D1 C1', mysql: '10: B1 S6 I1 D1 C1' },
  deleteInstance:                 { postgres: '7: B1 S3 I1 D1 C1', mysql: '7: B1 S3 I1 D1 C1' },
  deleteCluster:                  { postgres: '6: B1 S2 I1 D1 C1', mysql: '6: B1 S2 I1 D1 C1' },
  createApplication:              { postgres: '7: B1 S3 I2 C1', mysql: '10: B1 S6 I2 C1' },
  replaceApplication:             { postgres: '9: B1 S5 I1 U1 C1', mysql: '10: B1 S6 I1 U1 C1' },
  patchApplication:               { postgres: '8: B1 S4 I1 U1 C1', mysql: '9: B1 S5 I1 U1 C1' },
  deleteApplication:              { postgres: '9: B1 S5 I1 D1 C1', mysql: '9: B1 S5 I1 D1 C1' },
  createConfidentiality:          { postgres: '5: B1 S1 I2 C1', mysql: '6: B1 S2 I2 C1' },
  replaceConfidentiality:         { postgres: '6: B1 S2 I1 U1 C1', mysql: '6: B1 S2 I1 U1 C1' },
  patchConfidentiality:           { postgres: '5: B1 S1 I1 U1 C1', mysql: '5: B1 S1 I1 U1 C1' },
  deleteConfidentiality:          { postgres: '6: B1 S2 I1 D1 C1', mysql: '6: B1 S2 I1 D1 C1' },
  createUser:                     { postgres: '5: B1 S1 I2 C1', mysql: '6: B1 S2 I2 C1' },
  replaceUser:                    { postgres: '5: B1 S1 I1 U1 C1', mysql: '5: B1 S1 I1 U1 C1' },
  patchUser:                      { postgres: '5: B1 S1 I1 U1 C1', mysql: '5: B1 S1 I1 U1 C1' },
  deleteUser:                     { postgres: '5: B1 S1 I1 D1 C1', mysql: '5: B1 S1 I1 D1 C1' },
  createApplicationAccessGrant:   { postgres: '23: B1 S17 I3 P1 C1', mysql: '23: B1 S17 I3 P1 C1' },
  approveApplicationAccessGrant:  { postgres: '9: B1 S5 I1 U1 C1', mysql: '12: B1 S8 I1 U1 C1' },
  revokeApplicationAccessGrant:   { postgres: '9: B1 S5 I1 U1 C1', mysql: '12: B1 S8 I1 U1 C1' },
  denyApplicationAccessGrant:     { postgres: '9: B1 S5 I1 U1 C1', mysql: '12: B1 S8 I1 U1 C1' },
  cancelApplicationAccessGrant:   { postgres: '7: B1 S3 I1 U1 C1', mysql: '10: B1 S6 I1 U1 C1' },
  replaceGroupAssociation:        { postgres: '11: B1 S6 I1 U1 D1 C1', mysql: '11: B1 S6 I1 U1 D1 C1' },
};

let app: TestApp;
let t: TestTenant;
let w: AccessWorld;
let recording: string[] | undefined;

/** The statement's kind, by its first word (a CTE is a read). */
function kindOf(sql: string): string {
  const text = sql.replace(/^Executing \([^)]*\):\s*/, '').trimStart().toUpperCase();
  if (/^(START TRANSACTION|BEGIN)/.test(text)) return 'B';
  if (/^COMMIT/.test(text)) return 'C';
  if (/^(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO)/.test(text)) return 'P';
  if (/^ROLLBACK/.test(text)) return 'R';
  if (/^(SELECT|WITH|\(SELECT)/.test(text)) return 'S';
  if (/^INSERT/.test(text)) return 'I';
  if (/^UPDATE/.test(text)) return 'U';
  if (/^DELETE/.test(text)) return 'D';
  return `?${text.slice(0, 30)}`;
}

/** `B1 S3 I2 C1`: the kinds in a fixed order, each with its count. */
function summary(kinds: string[]): string {
  const order = ['B', 'S', 'I', 'U', 'D', 'P', 'C', 'R'];
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  const known = order.filter((k) => counts.has(k)).map((k) => `${k}${counts.get(k)}`);
  const other = [...counts.keys()].filter((k) => !order.includes(k)).map((k) => `${k}×${counts.get(k)}`);
  return [...known, ...other].join(' ');
}

/** What each operation of the counted run cost. */
const measured = new Map<string, { count: number; kinds: string; sql: string[] }>();

async function counted(op: string, method: string, path: string, token: string, status: number, body?: unknown, raw?: { text: string; type: string }) {
  recording = [];
  const res = await call(app, method, path, raw ? { token, raw: raw.text, headers: { 'Content-Type': raw.type } } : { token, body });
  const sql = recording;
  recording = undefined;
  expect(res.status, `${op}: ${res.text.slice(0, 300)}`).toBe(status);
  measured.set(op, { count: sql.length, kinds: summary(sql.map(kindOf)), sql });
  return res;
}

/** Every write of the scenario; `r` names this run's rows. */
async function scenario(r: string): Promise<void> {
  const admin = t.admin.token;
  const me = t.admin.user.uid;

  // groups
  const group = (await counted('createGroup', 'POST', '/groups', admin, 201, { name: `${r} Group`, members: [me] })).body;
  await counted('replaceGroup', 'PUT', `/groups/${group.uid}`, admin, 200, { name: `${r} Group 2`, members: [me] });
  await counted('patchGroup', 'PATCH', `/groups/${group.uid}`, admin, 200, { name: `${r} Group 3` });
  await counted('deleteGroup', 'DELETE', `/groups/${group.uid}`, admin, 204);

  // clusters
  const cluster = (await counted('createCluster', 'POST', '/clusters', admin, 201, { name: `${r}-cluster`, bootstrapServers: ['k:9092'] })).body;
  await counted('replaceCluster', 'PUT', `/clusters/${cluster.uid}`, admin, 200, { name: `${r}-cluster-2`, bootstrapServers: ['k:9093'] });
  await counted('patchCluster', 'PATCH', `/clusters/${cluster.uid}`, admin, 200, { location: 'Amsterdam' });

  // instances (an instance links clusters)
  const instance = (await counted('createInstance', 'POST', '/instances', admin, 201, { name: `${r} Instance`, shortName: `${r}inst`, clusters: [cluster.uid] })).body;
  await counted('replaceInstance', 'PUT', `/instances/${instance.uid}`, admin, 200, { name: `${r} Instance 2`, shortName: `${r}inst`, clusters: [cluster.uid] });
  await counted('patchInstance', 'PATCH', `/instances/${instance.uid}`, admin, 200, { name: `${r} Instance 3` });

  // environments
  const env = (await counted('createEnvironment', 'POST', '/environments', admin, 201, { name: `${r}-env`, shortName: `${r}env`, instance: instance.uid, owners: w.streamTeam.uid })).body;
  await counted('replaceEnvironment', 'PUT', `/environments/${env.uid}`, admin, 200, { name: `${r}-env-2`, shortName: `${r}env`, instance: instance.uid, owners: w.streamTeam.uid });
  await counted('patchEnvironment', 'PATCH', `/environments/${env.uid}`, admin, 200, { description: 'patched' });

  // streams
  const streamBody = { keyType: 'String', valueType: 'String', owners: w.streamTeam.uid };
  const stream = (await counted('createStream', 'POST', '/streams', admin, 201, { name: `${r}-stream`, ...streamBody })).body;
  await counted('replaceStream', 'PUT', `/streams/${stream.uid}`, admin, 200, { name: `${r}-stream`, ...streamBody, description: 'replaced' });
  await counted('patchStream', 'PATCH', `/streams/${stream.uid}`, admin, 200, { description: 'patched' });

  // stream configs
  const config = (await counted('createStreamConfig', 'POST', '/stream_configs', admin, 201, { stream: stream.uid, environment: env.uid })).body;
  await counted('replaceStreamConfig', 'PUT', `/stream_configs/${config.uid}`, admin, 200, { stream: stream.uid, environment: env.uid, retentionTime: 3600000 });
  await counted('patchStreamConfig', 'PATCH', `/stream_configs/${config.uid}`, admin, 200, { retentionTime: 7200000 });
  await counted('deleteStreamConfig', 'DELETE', `/stream_configs/${config.uid}`, admin, 204);

  await counted('deleteStream', 'DELETE', `/streams/${stream.uid}`, admin, 204);
  await counted('deleteEnvironment', 'DELETE', `/environments/${env.uid}`, admin, 204);
  await counted('deleteInstance', 'DELETE', `/instances/${instance.uid}`, admin, 204);
  await counted('deleteCluster', 'DELETE', `/clusters/${cluster.uid}`, admin, 204);

  // applications
  const appBody = { applicationType: 'Custom', type: 'Java', owners: w.appTeam.uid };
  const application = (await counted('createApplication', 'POST', '/applications', admin, 201, { applicationId: `io.${r}.app`, name: `${r} App`, shortName: `${r}_app`, ...appBody })).body;
  await counted('replaceApplication', 'PUT', `/applications/${application.uid}`, admin, 200, { applicationId: `io.${r}.app`, name: `${r} App 2`, shortName: `${r}_app`, ...appBody });
  await counted('patchApplication', 'PATCH', `/applications/${application.uid}`, admin, 200, { name: `${r} App 3` });
  await counted('deleteApplication', 'DELETE', `/applications/${application.uid}`, admin, 204);

  // reference data
  const level = (await counted('createConfidentiality', 'POST', '/confidentialities', admin, 201, { name: `${r} Secret`, level: 7 })).body;
  await counted('replaceConfidentiality', 'PUT', `/confidentialities/${level.uid}`, admin, 200, { name: `${r} Secret 2`, level: 8 });
  await counted('patchConfidentiality', 'PATCH', `/confidentialities/${level.uid}`, admin, 200, { level: 9 });
  await counted('deleteConfidentiality', 'DELETE', `/confidentialities/${level.uid}`, admin, 204);

  // users
  const user = (await counted('createUser', 'POST', '/users', admin, 201, { firstName: 'Write', lastName: r, emailAddress: { email: `${r}.user@example.test` } })).body;
  await counted('replaceUser', 'PUT', `/users/${user.uid}`, admin, 200, { firstName: 'Written', lastName: r, emailAddress: { email: `${r}.user@example.test` } });
  await counted('patchUser', 'PATCH', `/users/${user.uid}`, admin, 200, { firstName: 'Patched' });
  await counted('deleteUser', 'DELETE', `/users/${user.uid}`, admin, 204);

  // grants: requested by the application's owner in the environment its stream owner approves
  const grantOf = async (suffix: string) => {
    const { stream: s } = await configuredStream(app, w.streamOwner.token, { name: `${r}-g-${suffix}`, owners: w.streamTeam.uid, environments: [w.managed.uid] });
    return s;
  };
  const grantBody = (s: { uid: string }) => ({ applicationId: w.application.uid, streamId: s.uid, environmentId: w.managed.uid, accessType: 'CONSUMER' });
  const approved = (await counted('createApplicationAccessGrant', 'POST', '/application_access_grants', w.appOwner.token, 201, grantBody(await grantOf('a')))).body;
  await counted('approveApplicationAccessGrant', 'PUT', `/application_access_grants/${approved.uid}`, w.streamOwner.token, 200);
  await counted('revokeApplicationAccessGrant', 'POST', `/application_access_grants/${approved.uid}/revoke`, w.streamOwner.token, 200, { reason: 'done' });
  const denied = await requestedGrant(app, w.appOwner.token, { application: w.application.uid, stream: (await grantOf('d')).uid, environment: w.managed.uid });
  await counted('denyApplicationAccessGrant', 'POST', `/application_access_grants/${denied.uid}/deny`, w.streamOwner.token, 200, { reason: 'no' });
  const cancelled = await requestedGrant(app, w.appOwner.token, { application: w.application.uid, stream: (await grantOf('c')).uid, environment: w.managed.uid });
  await counted('cancelApplicationAccessGrant', 'DELETE', `/application_access_grants/${cancelled.uid}`, w.appOwner.token, 204);

  // an association endpoint: a group's members replaced by a uri-list
  const team = await created(app, '/groups', { name: `${r} Team`, members: [me] }, admin);
  await counted('replaceGroupAssociation', 'PUT', `/groups/${team.uid}/members`, admin, 204, undefined, { text: `${app.api}/users/${me}`, type: 'text/uri-list' });
}

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenant(app, 'wstat');
  w = await accessWorld(app, t, 'ws');
  app.models.sequelize.addHook('afterQuery', (_options, query) => {
    recording?.push(String((query as { sql?: unknown }).sql ?? ''));
  });
  await scenario('wsa');
  measured.clear();
  await scenario('wsb');
}, 300_000);
afterAll(async () => app?.stop());

describe('the statements of every write', () => {
  it('every operation of the scenario has its expected count, and only those', () => {
    const seen = Object.fromEntries([...measured].map(([op, m]) => [op, `${m.count}: ${m.kinds}`]));
    const expected = Object.fromEntries(Object.entries(EXPECTED).map(([op, e]) => [op, e[family]]));
    if (process.env.DUMP_SQL) for (const [op, m] of measured) if (op === process.env.DUMP_SQL) console.log(m.sql.join('\n'));
    expect(seen).toEqual(expected);
  });

  it('every write is one transaction: one BEGIN, one COMMIT, no ROLLBACK', () => {
    for (const [op, m] of measured) {
      const kinds = m.sql.map(kindOf);
      expect(kinds.filter((k) => k === 'B'), op).toHaveLength(1);
      expect(kinds.filter((k) => k === 'C'), op).toHaveLength(1);
      expect(kinds.filter((k) => k === 'R'), op).toHaveLength(0);
    }
  });
});
