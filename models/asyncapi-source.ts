/**
 * The rows an AsyncAPI document is made of (CONTRACT §9): the stream config, its stream and environment, the
 * environment's instance and clusters, the tenant and the key/value schema versions (pinned, else the latest of
 * the stream's schema). First only what identifies them (the stamp), the schema texts only when the document has
 * to be assembled anew.
 */
import { Op } from 'sequelize';
import type { AsyncApiInput } from '../asyncapi/document';
import type { Row } from './define';
import { SCHEMA_TYPES } from './stream-rules';
import type { Models } from '.';

export interface AsyncApiSource {
  /** Changes whenever any of the rows does (their uid, lock version and modification time). */
  stamp: string;
  input: () => Promise<AsyncApiInput>;
}

const VERSION_META = ['uid', 'schemaUid', 'versionName', 'version', 'modifiedAt'];

const stampOf = (row: Row | null) => (row ? `${row.uid}.${row.version}.${new Date(row.modifiedAt).getTime()}` : '-');

/** The version a side uses: the pinned one, else the stream's schema's most recent upload; null for plain types. */
function sideVersion(models: Models, stream: Row, config: Row, side: 'key' | 'value'): Promise<Row | null> {
  const pinned = config[`${side}SchemaVersionUid`] as string | null;
  if (pinned) return models.SchemaVersion.findOne({ where: { uid: pinned }, attributes: VERSION_META });
  const schemaUid = stream[`${side}SchemaUid`] as string | null;
  if (!SCHEMA_TYPES.has(stream[`${side}Type`]) || !schemaUid) return Promise.resolve(null);
  return models.SchemaVersion.findOne({ where: { schemaUid }, attributes: VERSION_META, order: [['createdAt', 'DESC'], ['uid', 'DESC']] });
}

/** The stream config's source rows, or null when the tenant has no such stream config. */
export async function asyncApiSource(models: Models, tenantUid: string, configUid: string, tokenUrl: (realm: string) => string): Promise<AsyncApiSource | null> {
  const config = await models.StreamConfig.findOne({ where: { uid: configUid, tenantUid } });
  if (!config) return null;
  const [tenant, stream, environment] = await Promise.all([
    models.Tenant.findOne({ where: { uid: tenantUid } }),
    models.Stream.findOne({ where: { uid: config.streamUid } }),
    models.Environment.findOne({ where: { uid: config.environmentUid } }),
  ]) as [Row, Row, Row];
  const [instance, links, key, value] = await Promise.all([
    models.Instance.findOne({ where: { uid: environment.instanceUid } }),
    models.InstanceCluster.findAll({ where: { sourceUid: environment.instanceUid }, order: [['position', 'ASC'], ['targetUid', 'ASC']] }),
    sideVersion(models, stream, config, 'key'),
    sideVersion(models, stream, config, 'value'),
  ]);
  const order = links.map((l) => l.targetUid);
  const clusters = order.length === 0 ? [] : (await models.Cluster.findAll({ where: { uid: { [Op.in]: order } } }))
    .sort((a, b) => order.indexOf(a.uid) - order.indexOf(b.uid));
  const versions = { key, value };
  const realmTokenUrl = tokenUrl(tenant.shortName);
  const stamp = [realmTokenUrl, ...[tenant, config, stream, environment, instance, ...clusters, key, value].map(stampOf)].join('|');

  const input = async (): Promise<AsyncApiInput> => {
    const uids = [key, value].filter((v): v is Row => v !== null).map((v) => v.uid as string);
    const bodies = new Map((uids.length === 0 ? [] : await models.SchemaVersion.findAll({ where: { uid: { [Op.in]: uids } }, attributes: ['uid', 'schemaBody'] }))
      .map((v) => [v.uid as string, v.schemaBody as string]));
    const side = (s: 'key' | 'value') => {
      const version = versions[s];
      return { type: stream[`${s}Type`] as string, schema: version ? { version: version.versionName as string, body: bodies.get(version.uid)! } : null };
    };
    return {
      tenant: { shortName: tenant.shortName, supportedAuthenticationMethods: tenant.supportedAuthenticationMethods, properties: tenant.properties },
      tokenUrl: realmTokenUrl,
      streamConfig: { uid: config.uid, topicName: config.topicName, partitions: config.partitions, retentionTime: config.retentionTime, properties: config.properties },
      stream: { name: stream.name, description: stream.description ?? null, retentionPolicy: stream.retentionPolicy },
      environment: { name: environment.name, shortName: environment.shortName },
      clusters: clusters.map((c) => ({
        name: c.name, description: c.description ?? null, location: c.location ?? null, bootstrapServers: c.bootstrapServers, schemaRegistryUrls: c.schemaRegistryUrls,
      })),
      key: side('key'),
      value: side('value'),
      pinnedValueVersion: config.valueSchemaVersionUid && value ? value.versionName : null,
    };
  };
  return { stamp, input };
}
