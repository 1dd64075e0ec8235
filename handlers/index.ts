/**
 * operationId → handler. The type check fails when an operation of the spec has no handler here, or a handler
 * is named after no operation. Handler files may also export their resource descriptors; only functions count.
 */
import type { OperationId } from '../generated/operations';
import type { Handler } from './_lib/reply';
import * as general from './general';
import * as profile from './profile';
import * as clusters from './clusters';
import * as groups from './groups';
import * as users from './users';
import * as instances from './instances';
import * as environments from './environments';
import * as applications from './applications';
import * as schemas from './schemas';
import * as streams from './streams';
import * as streamConfigs from './stream-configs';
import * as streamConfigPermissions from './stream-config-permissions';
import * as streamConfigAsyncApi from './stream-config-asyncapi';
import * as schemaVersions from './schema-versions';
import * as tenants from './tenants';
import * as authorization from './authorization';
import * as auditHistory from './audit-history';
import * as referenceData from './reference-data';
import * as applicationAccess from './application-access';
import * as applicationAccessGrants from './application-access-grants';
import * as applicationPrincipals from './application-principals';
import * as applicationCredentials from './application-credentials';
import * as applicationDeployments from './application-deployments';
import * as providers from './providers';

type HandlersOf<M> = { [K in keyof M as M[K] extends Handler ? K : never]: M[K] };

function handlersOf<M extends object>(module: M): HandlersOf<M> {
  return Object.fromEntries(Object.entries(module).filter(([, v]) => typeof v === 'function')) as HandlersOf<M>;
}

export const handlers = {
  ...handlersOf(general),
  ...handlersOf(profile),
  ...handlersOf(clusters),
  ...handlersOf(groups),
  ...handlersOf(users),
  ...handlersOf(instances),
  ...handlersOf(environments),
  ...handlersOf(applications),
  ...handlersOf(schemas),
  ...handlersOf(streams),
  ...handlersOf(streamConfigs),
  ...handlersOf(streamConfigPermissions),
  ...handlersOf(streamConfigAsyncApi),
  ...handlersOf(schemaVersions),
  ...handlersOf(tenants),
  ...handlersOf(authorization),
  ...handlersOf(auditHistory),
  ...handlersOf(referenceData),
  ...handlersOf(applicationAccess),
  ...handlersOf(applicationAccessGrants),
  ...handlersOf(applicationPrincipals),
  ...handlersOf(applicationCredentials),
  ...handlersOf(applicationDeployments),
  ...handlersOf(providers),
} satisfies Record<OperationId, Handler>;

type Extra = Exclude<keyof typeof handlers, OperationId>;
const noExtraHandlers: [Extra] extends [never] ? true : Extra = true;
void noExtraHandlers;
