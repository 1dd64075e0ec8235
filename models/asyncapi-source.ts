/**
 * The rows an AsyncAPI document is made of (docs/contract.md §9): the stream config, its stream and environment, the
 * environment's instance and clusters, the tenant and the key/value schema versions (pinned, else the latest of
 * the stream's schema). One query finds them and their stamp (uid, lock version and modification time of each, the
 * clusters in the instance's order); the rows themselves are read only when the document has to be made anew.
 */
import { Op } from 'sequelize';
import type { AsyncApiInput } from '../asyncapi/document';
import type { Row } from './define';
import type { Models } from '../core/context';

export interface AsyncApiSource {
  /** Changes whenever any of the rows does, or a row joins or leaves the set. */
  stamp: string;
  input: () => Promise<AsyncApiInput>;
}

// Every row that goes into the document, with what changes on each write: `version` (optimistic lock) and
// `modified_at`. A side's version is the pinned one, else the latest upload of the stream's schema on that side.
const latest = (side: 'key' | 'value') =>
  `(SELECT l.uid FROM schema_versions l WHERE l.schema_uid = s.${side}_schema_uid ORDER BY l.created_at DESC, l.uid DESC LIMIT 1)`;
const STAMP_SQL = `
SELECT sc.version AS config_v, sc.modified_at AS config_m,
  s.uid AS stream_uid, s.version AS stream_v, s.modified_at AS stream_m,
  e.uid AS env_uid, e.version AS env_v, e.modified_at AS env_m,
  i.uid AS instance_uid, i.version AS instance_v, i.modified_at AS instance_m,
  t.short_name AS realm, t.version AS tenant_v, t.modified_at AS tenant_m,
  kv.uid AS key_uid, kv.version AS key_v, kv.modified_at AS key_m,
  vv.uid AS value_uid, vv.version AS value_v, vv.modified_at AS value_m,
  c.uid AS cluster_uid, c.version AS cluster_v, c.modified_at AS cluster_m
FROM stream_configs sc
JOIN streams s ON s.uid = sc.stream_uid
JOIN environments e ON e.uid = sc.environment_uid
JOIN instances i ON i.uid = e.instance_uid
JOIN tenants t ON t.uid = sc.tenant_uid
LEFT JOIN schema_versions kv ON kv.uid = COALESCE(sc.key_schema_version_uid, ${latest('key')})
LEFT JOIN schema_versions vv ON vv.uid = COALESCE(sc.value_schema_version_uid, ${latest('value')})
LEFT JOIN instance_clusters ic ON ic.source_uid = i.uid
LEFT JOIN clusters c ON c.uid = ic.target_uid
WHERE sc.uid = ? AND sc.tenant_uid = ?
ORDER BY ic.position, ic.target_uid`;

type StampRow = Record<string, string | number | Date | null>;

const time = (value: unknown) => (value === null ? '-' : new Date(value as string).getTime());
const part = (row: StampRow, name: string) => `${row[`${name}_v`] ?? '-'}.${time(row[`${name}_m`])}`;

function stampOf(rows: StampRow[], tokenUrl: string): string {
  const [first] = rows;
  const fixed = ['config', 'stream', 'env', 'instance', 'tenant'].map((name) => part(first, name));
  const sides = ['key', 'value'].map((side) => `${first[`${side}_uid`] ?? '-'}.${part(first, side)}`);
  const clusters = rows.filter((r) => r.cluster_uid !== null).map((r) => `${r.cluster_uid}.${part(r, 'cluster')}`);
  return [tokenUrl, ...fixed, ...sides, ...clusters].join('|');
}

/** The stream config's source, or null when the tenant has no such stream config. */
export async function asyncApiSource(models: Models, tenantUid: string, configUid: string, tokenUrl: (realm: string) => string): Promise<AsyncApiSource | null> {
  // Prepared on PostgreSQL (models/data-access-pg): sent as text, the nine-table join would be planned on every
  // call, and its planning costs more than its execution.
  const rows = await models.data.select(STAMP_SQL, [configUid, tenantUid]) as StampRow[];
  if (rows.length === 0) return null;
  const [first] = rows;
  const realmTokenUrl = tokenUrl(String(first.realm));
  const clusterUids = rows.map((r) => r.cluster_uid).filter((uid): uid is string => uid !== null);
  const versionUids = [first.key_uid, first.value_uid].filter((uid): uid is string => uid !== null);

  const input = async (): Promise<AsyncApiInput> => {
    const [tenant, config, stream, environment, clusterRows, versionRows] = await Promise.all([
      models.Tenant.findOne({ where: { uid: tenantUid } }),
      models.StreamConfig.findOne({ where: { uid: configUid } }),
      models.Stream.findOne({ where: { uid: first.stream_uid } }),
      models.Environment.findOne({ where: { uid: first.env_uid } }),
      clusterUids.length === 0 ? [] : models.Cluster.findAll({ where: { uid: { [Op.in]: clusterUids } } }),
      versionUids.length === 0 ? [] : models.SchemaVersion.findAll({ where: { uid: { [Op.in]: versionUids } } }),
    ]) as [Row, Row, Row, Row, Row[], Row[]];
    const clusters = [...clusterRows].sort((a, b) => clusterUids.indexOf(a.uid) - clusterUids.indexOf(b.uid));
    const side = (s: 'key' | 'value') => {
      const version = versionRows.find((v) => v.uid === first[`${s}_uid`]);
      return { type: stream[`${s}Type`] as string, schema: version ? { version: version.versionName as string, body: version.schemaBody as string } : null };
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
      pinnedValueVersion: config.valueSchemaVersionUid ? (versionRows.find((v) => v.uid === config.valueSchemaVersionUid)?.versionName ?? null) : null,
    };
  };
  return { stamp: stampOf(rows, realmTokenUrl), input };
}
