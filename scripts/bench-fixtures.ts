/**
 * What the bench tenant needs before seeding, made through the HTTP API as a user would (a group owning everything
 * with the admin as member, three clusters, an instance, an environment, an AVRO schema with a stream deployed on it, an application
 * with a principal there), and what the write scenarios consume: pending access grants to approve, stream configs to delete. Each fixture found by name
 * is reused, so a second run on the same DATABASE_URL goes on where the first stopped.
 */
import { QueryTypes } from 'sequelize';
import type { Models } from '../models';
import { newUid, type RowModel } from '../models/define';
import { topicNameOf } from '../core/rules/stream-config-rules';
import { inParallel, type Api } from './bench-api';
import { columnsOf, progress, settle, type StreamSeed } from './bench-seed';

export interface Fixtures {
  tenantUid: string;
  environmentUid: string;
  applicationUid: string;
  /** Three clusters: the GET item of a resource without associations. */
  clusterUids: string[];
  /** The stream config whose AsyncAPI document is asked for: an AVRO value schema, version pinned. */
  asyncapiConfig: string;
  seed: StreamSeed;
}

/** The uid of the tenant's row of `model` matching `where` (a lowercase twin), else of what `create` makes. */
async function once(model: RowModel, tenantUid: string, where: Record<string, string>, create: () => Promise<{ uid: string }>): Promise<string> {
  const found = await model.findOne({ where: { tenantUid, ...where } });
  return found ? (found.uid as string) : (await create()).uid;
}

export async function createFixtures(api: Api, models: Models): Promise<Fixtures> {
  const tenant = (await models.Tenant.findOne({ where: { shortName: api.tenant } }))!;
  const tenantUid = tenant.uid as string;
  const me = await api.call('GET', '/user');
  const owners = await once(models.Group, tenantUid, { nameKey: 'bench owners' }, () => api.call('POST', '/groups', { name: 'Bench Owners', members: [me.uid] }));
  const clusterUids: string[] = [];
  for (const name of ['bench-cluster-a', 'bench-cluster-b', 'bench-cluster-c']) {
    clusterUids.push(await once(models.Cluster, tenantUid, { nameKey: name }, () => api.call('POST', '/clusters', { name, bootstrapServers: [`${name}:9092`] })));
  }
  const instanceUid = await once(models.Instance, tenantUid, { shortNameKey: 'benchinst' }, () => api.call('POST', '/instances', { name: 'Bench Instance', shortName: 'benchinst' }));
  const environmentUid = await once(models.Environment, tenantUid, { shortNameKey: 'dev' }, () => api.call('POST', '/environments', { name: 'bench-dev', shortName: 'dev', instance: instanceUid, owners }));

  const avro = await models.Stream.findOne({ where: { tenantUid, nameKey: 'avro-events' } });
  let asyncapiConfig: string;
  if (avro) {
    asyncapiConfig = (await models.StreamConfig.findOne({ where: { streamUid: avro.uid, environmentUid } }))!.uid as string;
  } else {
    const fields = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, type: i % 2 ? 'string' : { type: 'long', logicalType: 'timestamp-millis' } }));
    const version = await api.call('POST', '/schemas/upload', { schema: JSON.stringify({ type: 'record', name: 'BenchEvent', namespace: 'io.bench', fields }), version: '1' });
    const stream = await api.call('POST', '/streams', { name: 'avro-events', keyType: 'String', valueType: 'AVRO', valueSchema: version.schemaUid, owners });
    asyncapiConfig = (await api.call('POST', '/stream_configs', { stream: stream.uid, environment: environmentUid, valueSchemaVersion: version.id })).uid;
  }

  const applicationUid = await once(models.Application, tenantUid, { applicationIdKey: 'io.bench.consumer' }, async () => {
    const app = await api.call('POST', '/applications', { applicationId: 'io.bench.consumer', name: 'Bench Consumer', shortName: 'bench_consumer', applicationType: 'Custom', type: 'Java', owners });
    // A grant is refused for an application that cannot authenticate in the environment.
    await api.call('POST', '/application_principals', [{ principal: 'bench-consumer-client', custom: true, application: app.uid, environment: environmentUid }]);
    return app;
  });

  const environment = (await models.Environment.findByPk(environmentUid))!;
  const instance = (await models.Instance.findByPk(instanceUid))!;
  const names = { tenant: api.tenant, instance: instance.shortName as string, environment: environment.shortName as string };
  return {
    tenantUid, environmentUid, applicationUid, clusterUids, asyncapiConfig,
    seed: {
      tenantUid, actor: api.email, ownersUid: owners,
      environment: { uid: environmentUid, partitions: Number(environment.partitions), retentionTime: Number(environment.retentionTime) },
      topicName: (stream) => topicNameOf(instance.topicNamePattern as string, { ...names, stream }),
    },
  };
}

/**
 * `count` Pending grants of the application, CONSUMER and PRODUCER on seeded streams that have none yet (the
 * environment approves nothing by itself), requested through the API 16 at a time. Answers their uids.
 */
export async function pendingGrants(api: Api, models: Models, f: Fixtures, count: number): Promise<string[]> {
  const streams = await models.sequelize.query<{ uid: string }>(
    `SELECT s.uid FROM streams s WHERE s.tenant_uid = :tenant AND s.name_key LIKE 'bench-%'
       AND NOT EXISTS (SELECT 1 FROM application_access_grants g WHERE g.stream_uid = s.uid) ORDER BY s.name_key LIMIT :limit`,
    { replacements: { tenant: f.tenantUid, limit: Math.ceil(count / 2) }, type: QueryTypes.SELECT },
  );
  const requests = streams.flatMap((s) => ['CONSUMER', 'PRODUCER'].map((accessType) => ({ streamId: s.uid, accessType }))).slice(0, count);
  const uids: string[] = [];
  const bar = progress('requesting access grants', requests.length);
  await inParallel(requests, 16, async (r) => {
    const grant = await api.call('POST', '/application_access_grants', { applicationId: f.applicationUid, environmentId: f.environmentUid, ...r });
    if (grant.status !== 'Pending') throw new Error(`a bench grant is ${grant.status}, not Pending`);
    uids.push(grant.uid);
    bar(uids.length);
  });
  return uids;
}

/**
 * `count` stream configs in the bench environment that nothing blocks from being deleted (no grant names their
 * stream), each on a stream of its own named `<tag>-<i>`. Written straight into the database, rows as the create
 * handlers write them (as bench-seed.ts does): through the API they would take longer than the runs deleting them.
 * Answers their uids.
 */
export async function configsToDelete(models: Models, f: Fixtures, tag: string, count: number): Promise<string[]> {
  const s = f.seed;
  const at = new Date();
  const common = { tenantUid: s.tenantUid, createdBy: s.actor, modifiedBy: s.actor, createdAt: at, modifiedAt: at, version: 0 };
  const streams: Record<string, unknown>[] = [];
  const configs: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${tag}-${i}`;
    const uid = newUid();
    streams.push({
      ...common, uid, name, nameKey: name.toLowerCase(), description: null, keyType: 'String', valueType: 'JSON', keySchemaUid: null, valueSchemaUid: null,
      retentionPolicy: 'delete', visibility: 'Public', ownersUid: s.ownersUid, confidentialityUid: null, integrityUid: null, properties: '{}',
    });
    configs.push({
      ...common, uid: newUid(), streamUid: uid, environmentUid: s.environment.uid, partitions: s.environment.partitions,
      retentionTime: s.environment.retentionTime, properties: '{}', keySchemaVersionUid: null, valueSchemaVersionUid: null, topicName: s.topicName(name),
    });
  }
  const qi = models.sequelize.getQueryInterface();
  const [streamColumns, configColumns] = [columnsOf(models.Stream), columnsOf(models.StreamConfig)];
  for (let from = 0; from < count; from += 2_000) {
    await models.sequelize.transaction(async (transaction) => {
      await qi.bulkInsert('streams', streams.slice(from, from + 2_000).map(streamColumns), { transaction });
      await qi.bulkInsert('stream_configs', configs.slice(from, from + 2_000).map(configColumns), { transaction });
    });
  }
  await settle(models, ['streams', 'stream_configs']);
  return configs.map((c) => c.uid as string);
}
