import type { Sequelize } from 'sequelize';
import type { DataAccess } from './data-access';
import { pgDataAccess } from './data-access-pg';
import { mysqlDataAccess } from './data-access-mysql';
import { defineTenant } from './tenant';
import { defineTenantContact } from './tenant-contact';
import { defineUser } from './user';
import { defineGroup } from './group';
import { defineCluster } from './cluster';
import { defineInstance } from './instance';
import { defineEnvironment } from './environment';
import { defineSigningKey } from './signing-key';
import { defineServiceFact } from './service-fact';
import { defineAuditEvent } from './audit-event';
import { defineJoin } from './join';
import { defineApplication } from './application';
import { defineSchema, defineSchemaVersion } from './schema';
import { defineStream } from './stream';
import { defineApplicationAccess, defineApplicationAccessGrant } from './application-access';
import { defineStreamConfig } from './stream-config';
import { defineApplicationCredential, defineApplicationPrincipal } from './application-auth';
import { defineApplicationDeployment } from './application-deployment';
import { defineConnectPlugin, defineRankedReference } from './reference-data';
import { defineLoginFailure } from './login-failure';
import { defineNotification } from './notification';
import { defineWebhook } from './webhook';
import { defineIssuerState } from './issuer-state';

/**
 * All models of one database connection, and `data`, the reads of their rows: the one place the dialect decides
 * which data-access implementation serves them (models/data-access).
 */
export function initModels(sequelize: Sequelize) {
  const models = {
    sequelize,
    Tenant: defineTenant(sequelize),
    TenantContact: defineTenantContact(sequelize),
    User: defineUser(sequelize),
    Group: defineGroup(sequelize),
    GroupMember: defineJoin(sequelize, 'GroupMember', 'group_members'),
    GroupManager: defineJoin(sequelize, 'GroupManager', 'group_managers'),
    GroupResourceManager: defineJoin(sequelize, 'GroupResourceManager', 'group_resource_managers'),
    Cluster: defineCluster(sequelize),
    Instance: defineInstance(sequelize),
    InstanceCluster: defineJoin(sequelize, 'InstanceCluster', 'instance_clusters'),
    Environment: defineEnvironment(sequelize),
    EnvironmentViewer: defineJoin(sequelize, 'EnvironmentViewer', 'environment_viewers'),
    Confidentiality: defineRankedReference(sequelize, 'Confidentiality', 'confidentialities'),
    Integrity: defineRankedReference(sequelize, 'Integrity', 'integrities'),
    SupportTier: defineRankedReference(sequelize, 'SupportTier', 'support_tiers'),
    ConnectPlugin: defineConnectPlugin(sequelize),
    Application: defineApplication(sequelize),
    ApplicationViewer: defineJoin(sequelize, 'ApplicationViewer', 'application_viewers'),
    Schema: defineSchema(sequelize),
    SchemaVersion: defineSchemaVersion(sequelize),
    Stream: defineStream(sequelize),
    StreamViewer: defineJoin(sequelize, 'StreamViewer', 'stream_viewers'),
    StreamConfig: defineStreamConfig(sequelize),
    StreamConfigBrowseUser: defineJoin(sequelize, 'StreamConfigBrowseUser', 'stream_config_browse_users'),
    StreamConfigBrowseGroup: defineJoin(sequelize, 'StreamConfigBrowseGroup', 'stream_config_browse_groups'),
    ApplicationAccess: defineApplicationAccess(sequelize),
    ApplicationAccessGrant: defineApplicationAccessGrant(sequelize),
    ApplicationPrincipal: defineApplicationPrincipal(sequelize),
    ApplicationCredential: defineApplicationCredential(sequelize),
    ApplicationDeployment: defineApplicationDeployment(sequelize),
    SigningKey: defineSigningKey(sequelize),
    ServiceFact: defineServiceFact(sequelize),
    AuditEvent: defineAuditEvent(sequelize),
    LoginFailure: defineLoginFailure(sequelize),
    Notification: defineNotification(sequelize),
    Webhook: defineWebhook(sequelize),
    ...defineIssuerState(sequelize),
  };
  const data: DataAccess = sequelize.getDialect() === 'postgres' ? pgDataAccess(models) : mysqlDataAccess(models);
  return Object.assign(models, { data });
}

type ModelSet = ReturnType<typeof initModels>;

declare module '../core/context' {
  // The core's registry of models is this set (see core/context.ts).
  interface Models extends ModelSet {}
}

export type { Models } from '../core/context';
