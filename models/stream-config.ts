import { DataTypes, Op, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, type Row, type RowModel } from './define';

/** A stream deployed to one environment (docs/contract.md §5.8); browse permissions live in two join tables. */
export function defineStreamConfig(sequelize: Sequelize) {
  return defineModel(sequelize, 'StreamConfig', 'stream_configs', {
    streamUid: { type: DataTypes.CHAR(32), allowNull: false },
    environmentUid: { type: DataTypes.CHAR(32), allowNull: false },
    partitions: { type: DataTypes.INTEGER, allowNull: false },
    retentionTime: { type: DataTypes.BIGINT, allowNull: false, get(this: any) { return Number(this.getDataValue('retentionTime')); } },
    properties: jsonText('properties', {}),
    keySchemaVersionUid: { type: DataTypes.CHAR(32), allowNull: true },
    valueSchemaVersionUid: { type: DataTypes.CHAR(32), allowNull: true },
    topicName: { type: DataTypes.STRING(249), allowNull: false },
  });
}

type StreamConfigModels = { StreamConfig: RowModel };

/** Topic names of the stream configs pinning any of the schema versions (as key or value version). */
export async function configsPinning(models: StreamConfigModels, versionUids: string[], transaction?: Transaction): Promise<string[]> {
  if (versionUids.length === 0) return [];
  const rows = await models.StreamConfig.findAll({
    where: { [Op.or]: [{ keySchemaVersionUid: versionUids }, { valueSchemaVersionUid: versionUids }] }, order: [['topicName', 'ASC']], transaction,
  });
  return rows.map((r) => r.topicName as string);
}

/** Topic names of the stream configs of a stream or in an environment. */
export async function configsWhere(models: StreamConfigModels, where: { streamUid: string } | { environmentUid: string }, transaction?: Transaction): Promise<string[]> {
  const rows = await models.StreamConfig.findAll({ where, order: [['topicName', 'ASC']], transaction });
  return rows.map((r) => r.topicName as string);
}

/** Whether a stream config of the stream pins any version. */
export async function streamHasPinnedVersions(models: StreamConfigModels, streamUid: string, transaction?: Transaction): Promise<boolean> {
  const pinned = await models.StreamConfig.count({
    where: { streamUid, [Op.or]: [{ keySchemaVersionUid: { [Op.ne]: null } }, { valueSchemaVersionUid: { [Op.ne]: null } }] }, transaction,
  });
  return pinned > 0;
}

/** The other config of the same stream and environment, if any (the pair is unique). */
export function configOfPair(models: StreamConfigModels, streamUid: string, environmentUid: string, transaction?: Transaction) {
  return models.StreamConfig.findOne({ where: { streamUid, environmentUid }, transaction });
}

/** What keeps a schema: stream configs pinning one of its versions (topic names), streams using it (names). */
export async function schemaUsage(models: StreamConfigModels & { SchemaVersion: RowModel; Stream: RowModel }, schemaUid: string, transaction?: Transaction) {
  const versions = await models.SchemaVersion.findAll({ where: { schemaUid }, attributes: ['uid'], transaction });
  const pinnedBy = await configsPinning(models, versions.map((v) => v.uid as string), transaction);
  const streams = await models.Stream.findAll({ where: { [Op.or]: [{ keySchemaUid: schemaUid }, { valueSchemaUid: schemaUid }] }, order: [['name', 'ASC']], transaction });
  return { pinnedBy, streams: streams.map((s) => s.name as string) };
}

/** A stream config pinning a version of a schema: which config, which side, which version. */
export interface Pin { config: Row; side: 'key' | 'value'; versionUid: string }

/** Every pin of any of the versions (as key or value), in topic name order. */
export async function pinsOf(models: StreamConfigModels, versionUids: string[], transaction?: Transaction): Promise<Pin[]> {
  if (versionUids.length === 0) return [];
  const rows = await models.StreamConfig.findAll({
    where: { [Op.or]: [{ keySchemaVersionUid: versionUids }, { valueSchemaVersionUid: versionUids }] }, order: [['topicName', 'ASC']], transaction,
  });
  const wanted = new Set(versionUids);
  return rows.flatMap((config) => (['key', 'value'] as const)
    .filter((side) => wanted.has(config[`${side}SchemaVersionUid`] as string))
    .map((side) => ({ config, side, versionUid: config[`${side}SchemaVersionUid`] as string })));
}
