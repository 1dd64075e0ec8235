/**
 * The common fixtures, made through the API the way a client makes them; each answers the created body and fails
 * the test's setup with the reply when the service refuses. Names carry the suite's tag and a running number, so
 * two fixtures of one suite never clash.
 */
import type { TestApp } from './app';
import { created } from './http';

let made = 0;
const next = () => (made += 1);

export type ApplicationKind = 'Custom' | 'Connector' | 'Ksml';
export const SINK_CONNECTOR = 'org.apache.kafka.connect.file.FileStreamSinkConnector';

const KINDS: Record<ApplicationKind, Record<string, unknown>> = {
  Custom: { applicationType: 'Custom', type: 'Java' },
  Connector: { applicationType: 'Connector', type: 'SINK', applicationClass: SINK_CONNECTOR },
  Ksml: { applicationType: 'Ksml' },
};

/** A Public application of `owners` (a group uid): `io.<tag>.app<n>`, `<tag> App <n>`, `<tag>_app_<n>`. */
export async function newApplication(app: TestApp, token: string, o: { tag: string; owners: string; kind?: ApplicationKind; extra?: Record<string, unknown> }): Promise<any> {
  const n = next();
  return created(app, '/applications', {
    applicationId: `io.${o.tag}.app${n}`, name: `${o.tag} App ${n}`, shortName: `${o.tag}_app_${n}`, owners: o.owners, ...KINDS[o.kind ?? 'Custom'], ...o.extra,
  }, token);
}

/** A Public environment of `owners` on `instance`, holding nothing: `<tag>-env-<n>`, short name `<tag>env<n>`. */
export async function newEnvironment(app: TestApp, token: string, o: { tag: string; instance: string; owners: string; extra?: Record<string, unknown> }): Promise<any> {
  const n = next();
  return created(app, '/environments', { name: `${o.tag}-env-${n}`, shortName: `${o.tag}env${n}`, instance: o.instance, owners: o.owners, ...o.extra }, token);
}

/** A String/String stream of `owners` named `name`, configured in each of `environments` (uids); answers the stream and its configs. */
export async function configuredStream(app: TestApp, token: string, o: { name: string; owners: string; environments: string[] }): Promise<{ stream: any; configs: any[] }> {
  const stream = await created(app, '/streams', { name: o.name, keyType: 'String', valueType: 'String', owners: o.owners }, token);
  const configs = [];
  for (const environment of o.environments) configs.push(await created(app, '/stream_configs', { stream: stream.uid, environment }, token));
  return { stream, configs };
}

/** An access grant requested by `token` (201): answers the grant, Pending or, where the environment says Auto, Approved. */
export async function requestedGrant(app: TestApp, token: string, o: { application: string; stream: string; environment: string; accessType?: string }): Promise<any> {
  return created(app, '/application_access_grants', {
    applicationId: o.application, streamId: o.stream, environmentId: o.environment, accessType: o.accessType ?? 'CONSUMER',
  }, token);
}
