/**
 * A tenant ready for access requests: an application owned by one group, a stream owned by another, configured
 * in a "Stream owner" environment and an Auto one, and the application able to authenticate in both.
 * The principal (a custom one) and the credential are made through the API as the app owner;
 * `insertPrincipal` and `insertCredential` stay for tests that need a row without going through HTTP.
 */
import { randomBytes } from 'node:crypto';
import { createUser, type TestApp, type TestTenant, type TestUser } from './app';
import { configuredStream } from './fixtures';
import { created } from './http';

const hex = () => randomBytes(4).toString('hex');

export async function insertPrincipal(app: TestApp, tenantUid: string, applicationUid: string, environmentUid: string) {
  const id = hex();
  return app.models.ApplicationPrincipal.create({
    tenantUid, applicationUid, environmentUid, principal: `CN=fixture-${id}`, identity: `custom:fixture-${id}`, type: 'OAUTH', custom: true, active: true,
  });
}

export async function insertCredential(app: TestApp, tenantUid: string, applicationUid: string, environmentUid: string) {
  return app.models.ApplicationCredential.create({
    tenantUid, applicationUid, environmentUid, target: 'KAFKA', username: `fixture-${hex()}`, types: ['SCRAM_SHA_512'], secret: 'fixture',
  });
}

export interface AccessWorld {
  appOwner: TestUser;
  streamOwner: TestUser;
  appTeam: any;
  streamTeam: any;
  instance: any;
  /** authorizationIssuer `Stream owner`. */
  managed: any;
  /** authorizationIssuer `Auto`. */
  auto: any;
  application: any;
  stream: any;
  /** A second stream, configured in both environments. */
  other: any;
}

export async function accessWorld(app: TestApp, t: TestTenant, tag = 'aw'): Promise<AccessWorld> {
  const admin = t.admin.token;
  const post = (path: string, body: unknown, token = admin) => created(app, path, body, token);
  const appOwner = await createUser(app, t, ['APPLICATION_AUTHOR'], `${tag}-appowner`);
  const streamOwner = await createUser(app, t, ['STREAM_AUTHOR'], `${tag}-streamowner`);
  const appTeam = await post('/groups', { name: `${tag} App Team`, members: [appOwner.user.uid] });
  const streamTeam = await post('/groups', { name: `${tag} Stream Team`, members: [streamOwner.user.uid] });
  const instance = await post('/instances', { name: `${tag} Instance`, shortName: `${tag}inst` });
  const managed = await post('/environments', { name: `${tag}-managed`, shortName: `${tag}managed`, instance: instance.uid, owners: streamTeam.uid });
  const auto = await post('/environments', { name: `${tag}-auto`, shortName: `${tag}auto`, instance: instance.uid, owners: streamTeam.uid, authorizationIssuer: 'Auto' });
  const application = await post('/applications', {
    applicationId: `io.${tag}.billing`, name: `${tag} Billing`, shortName: `${tag}_billing`, applicationType: 'Custom', type: 'Java', owners: appTeam.uid,
  }, appOwner.token);
  const stream = await post('/streams', { name: `${tag}-payments`, keyType: 'String', valueType: 'String', owners: streamTeam.uid }, streamOwner.token);
  const other = await post('/streams', { name: `${tag}-refunds`, keyType: 'String', valueType: 'String', owners: streamTeam.uid }, streamOwner.token);
  for (const s of [stream, other]) {
    for (const env of [managed, auto]) await post('/stream_configs', { stream: s.uid, environment: env.uid }, streamOwner.token);
  }
  await post('/application_principals', [{ principal: `${tag}-billing-client`, custom: true, application: application.uid, environment: managed.uid }], appOwner.token);
  await post('/application_authentications', { applicationId: application.uid, environmentId: auto.uid, target: 'KAFKA' }, appOwner.token);
  return { appOwner, streamOwner, appTeam, streamTeam, instance, managed, auto, application, stream, other };
}

/** A stream of the world's stream team named `name`, configured in both world environments. */
export async function worldStream(app: TestApp, w: AccessWorld, name: string): Promise<any> {
  return (await configuredStream(app, w.streamOwner.token, { name, owners: w.streamTeam.uid, environments: [w.managed.uid, w.auto.uid] })).stream;
}
