/** Every resource descriptor served by the generic layer, by collection (profiles read it). */
import type { Resource } from './_lib/resource';
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

export const resources: Resource[] = [tenantResource, userResource, groupResource, clusterResource, instanceResource, environmentResource, applicationResource, schemaResource, schemaVersionResource, streamResource, streamConfigResource];
resources.push(confidentialityResource, integrityResource, supportTierResource, connectPluginResource);
resources.push(accessResource, grantResource, principalResource, credentialResource, deploymentResource);

export const resourceByCollection = (collection: string) => resources.find((r) => r.collection === collection);
