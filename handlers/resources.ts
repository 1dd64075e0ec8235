/**
 * Every resource the generic layer serves: the one place a resource is registered. Its descriptor answers the
 * operations of its collection (handlers/_lib/wiring.ts); the index and the profiles list the collections in this
 * order.
 */
import { applicationResource } from './applications';
import { schemaResource } from './schemas';
import { streamResource } from './streams';
import { streamConfigResource } from './stream-configs';
import { schemaVersionResource } from './schema-versions';
import { clusterResource } from './clusters';
import { environmentResource } from './environments';
import { groupResource } from './groups';
import { instanceResource } from './instances';
import { confidentialityResource, connectPluginResource, integrityResource, supportTierResource } from './reference-data';
import { tenantResource } from './tenants';
import { userResource } from './users';
import { accessResource } from './application-access';
import { grantResource } from './application-access-grants';
import { principalResource } from './application-principals';
import { credentialResource } from './application-credentials';
import { deploymentResource } from './application-deployments';
import { webhookResource } from './webhooks';

export const resources = [
  userResource, groupResource, instanceResource, clusterResource, environmentResource, tenantResource, streamResource,
  streamConfigResource, schemaResource, schemaVersionResource, applicationResource, principalResource, accessResource,
  grantResource, deploymentResource, connectPluginResource, credentialResource, confidentialityResource,
  integrityResource, supportTierResource, webhookResource,
] as const;

export const resourceByCollection = (collection: string) => resources.find((r) => r.collection === collection);
