/**
 * operationId → handler: the operations of a generic kind of every registered resource (handlers/resources.ts),
 * derived from its descriptor, and the handlers of their own, the exported functions of the modules below, each
 * named after its operationId. The type check fails when an operation of the spec has no handler, a handler is
 * named after no operation, or a handler of its own takes a generic one's place without `replacesGeneric`.
 */
import type { OperationId } from '../generated/operations';
import type { Handler } from './_lib/reply';
import { rerunOnConflict } from './_lib/conflict-retry';
import { wire, type DerivedOperationId, type DescriptorProblem, type Replacement } from './_lib/wiring';
import { resources } from './resources';
import * as general from './general';
import * as referencePage from './reference-page';
import * as health from './health';
import * as profile from './profile';
import * as groups from './groups';
import * as users from './users';
import * as userLockout from './user-lockout';
import * as userSessions from './user-sessions';
import * as environments from './environments';
import * as schemas from './schemas';
import * as schemaCheck from './schema-check';
import * as streamConfigs from './stream-configs';
import * as streamConfigPermissions from './stream-config-permissions';
import * as streamConfigAsyncApi from './stream-config-asyncapi';
import * as streamConfigPromotion from './stream-config-promotion';
import * as schemaVersions from './schema-versions';
import * as tenants from './tenants';
import * as authorization from './authorization';
import * as auditHistory from './audit-history';
import * as applicationAccess from './application-access';
import * as applicationAccessGrants from './application-access-grants';
import * as applicationPrincipals from './application-principals';
import * as applicationCredentials from './application-credentials';
import * as applicationDeployments from './application-deployments';
import * as providers from './providers';
import * as graph from './graph';
import * as webhooks from './webhooks';

type HandlersOf<M> = { [K in keyof M as M[K] extends Handler ? K : never]: M[K] };

/** The exported functions of a module (its descriptors and other values left out). */
function handlersOf<M extends object>(module: M): HandlersOf<M> {
  return Object.fromEntries(Object.entries(module).filter(([, v]) => typeof v === 'function')) as HandlersOf<M>;
}

const own = {
  ...handlersOf(general),
  ...handlersOf(referencePage),
  ...handlersOf(health),
  ...handlersOf(profile),
  ...handlersOf(groups),
  ...handlersOf(users),
  ...handlersOf(userLockout),
  ...handlersOf(userSessions),
  ...handlersOf(webhooks),
  ...handlersOf(environments),
  ...handlersOf(schemas),
  ...handlersOf(schemaCheck),
  ...handlersOf(streamConfigs),
  ...handlersOf(streamConfigPermissions),
  ...handlersOf(streamConfigAsyncApi),
  ...handlersOf(streamConfigPromotion),
  ...handlersOf(schemaVersions),
  ...handlersOf(tenants),
  ...handlersOf(authorization),
  ...handlersOf(auditHistory),
  ...handlersOf(applicationAccess),
  ...handlersOf(applicationAccessGrants),
  ...handlersOf(graph),
  ...handlersOf(applicationPrincipals),
  ...handlersOf(applicationCredentials),
  ...handlersOf(applicationDeployments),
  ...handlersOf(providers),
};

/** The providers' operations call the provider (and an import commits topic by topic): a collision is not re-run. */
export const handlers = rerunOnConflict(wire(resources, own), Object.keys(handlersOf(providers))) as Record<OperationId, Handler>;

type Own = typeof own;
type Derived = DerivedOperationId<(typeof resources)[number]>;
/** `true`, or the type check names what is wrong. */
type Nothing<T> = [T] extends [never] ? true : T;

/** Operations of the spec that neither a descriptor nor a handler of its own answers. */
const everyOperationAnswered: Nothing<Exclude<OperationId, Derived | keyof Own>> = true;
/** Handlers named after no operation. */
const noStrayHandler: Nothing<Exclude<keyof Own, OperationId>> = true;
/** Handlers of their own for operations a descriptor answers, not marked `replacesGeneric`. */
const noUnmarkedReplacement: Nothing<{ [K in keyof Own & Derived]: Own[K] extends Replacement ? never : K }[keyof Own & Derived]> = true;
/** `replacesGeneric` on handlers whose operation no descriptor answers. */
const noNeedlessMark: Nothing<{ [K in Exclude<keyof Own, Derived>]: Own[K] extends Replacement ? K : never }[Exclude<keyof Own, Derived>]> = true;
/** Descriptors whose literal type (`Resource<'clusters', 'findByName'>`) is missing or disagrees with the spec. */
const descriptorsTyped: Nothing<DescriptorProblem<(typeof resources)[number]>> = true;
void [everyOperationAnswered, noStrayHandler, noUnmarkedReplacement, noNeedlessMark, descriptorsTyped];
