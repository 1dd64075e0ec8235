/**
 * Reference data of a tenant (docs/contract.md §5.16): ranked lists (confidentialities, integrities, support tiers) and
 * Kafka Connect plugins. Every new tenant gets the seeds below at creation (`seedReferenceData`); migration 0005 seeded the tenants that
 * existed before it from its own frozen copy.
 */
import { DataTypes, type QueryInterface, type Sequelize, type Transaction } from 'sequelize';
import { defineModel, jsonText, keyOf, newUid } from './define';
import type { Models } from '../core/context';

/** Tables of the ranked lists: `name` (unique per tenant), `level` (integer rank), `description`. */
export const RANKED_TABLES = ['confidentialities', 'integrities', 'support_tiers'] as const;
export type RankedTable = (typeof RANKED_TABLES)[number];

export const CONFIG_TYPES = ['STRING', 'INT', 'LONG', 'DOUBLE', 'BOOLEAN', 'LIST', 'CLASS', 'PASSWORD'] as const;

export interface ConfigDefinition {
  name: string;
  type: (typeof CONFIG_TYPES)[number];
  required: boolean;
  defaultValue: string | null;
  documentation: string | null;
}

interface RankedSeed { name: string; level: number; description: string }
interface PluginSeed { pluginClass: string; pluginType: 'SOURCE' | 'SINK'; pluginVersion: string; configDefinitions: ConfigDefinition[] }

export const RANKED_SEEDS: Record<RankedTable, RankedSeed[]> = {
  confidentialities: [
    { name: 'Public', level: 1, description: 'May be shared with anyone' },
    { name: 'Internal', level: 2, description: 'For use inside the organisation only' },
    { name: 'Confidential', level: 3, description: 'For a limited group with a business need' },
    { name: 'Secret', level: 4, description: 'For named people only; disclosure causes serious harm' },
  ],
  integrities: [
    { name: 'Low', level: 1, description: 'Errors are tolerable' },
    { name: 'Medium', level: 2, description: 'Errors must be detected and corrected' },
    { name: 'High', level: 3, description: 'Data must be complete and correct at all times' },
  ],
  support_tiers: [
    { name: 'Bronze', level: 1, description: 'Best effort, office hours' },
    { name: 'Silver', level: 2, description: 'Office hours with agreed response times' },
    { name: 'Gold', level: 3, description: 'Around the clock with agreed response times' },
  ],
};

const config = (name: string, documentation: string, type: ConfigDefinition['type'] = 'STRING', required = false, defaultValue: string | null = null): ConfigDefinition =>
  ({ name, type, required, defaultValue, documentation });

export const PLUGIN_SEEDS: PluginSeed[] = [
  {
    pluginClass: 'org.apache.kafka.connect.axual.utils.LogSourceConnector', pluginType: 'SOURCE', pluginVersion: '3.7.0',
    configDefinitions: [
      config('topic', 'The topic to publish the generated log records to', 'STRING', true),
      config('logger.name', 'The name of the logger whose records are published'),
      config('throughput', 'The number of records produced per second', 'INT'),
    ],
  },
  {
    pluginClass: 'org.apache.kafka.connect.file.FileStreamSourceConnector', pluginType: 'SOURCE', pluginVersion: '3.7.0',
    configDefinitions: [
      config('topic', 'The topic to publish data to', 'STRING', true),
      config('file', 'Source filename. If not specified, the standard input will be used'),
    ],
  },
  {
    pluginClass: 'org.apache.kafka.connect.file.FileStreamSinkConnector', pluginType: 'SINK', pluginVersion: '3.7.0',
    configDefinitions: [
      config('topics', 'The topics to consume data from', 'LIST', true),
      config('file', 'Destination filename. If not specified, the standard output will be used'),
    ],
  },
];

/** The model of one ranked list (they share their shape, not their table). */
export function defineRankedReference(sequelize: Sequelize, name: string, table: RankedTable) {
  return defineModel(sequelize, name, table, {
    name: { type: DataTypes.STRING, allowNull: false },
    nameKey: keyOf('name', 'name_key'),
    level: { type: DataTypes.INTEGER, allowNull: false },
    description: { type: DataTypes.STRING, allowNull: true },
  });
}

export function defineConnectPlugin(sequelize: Sequelize) {
  return defineModel(sequelize, 'ConnectPlugin', 'connect_plugins', {
    pluginClass: { type: DataTypes.STRING, allowNull: false },
    pluginClassKey: keyOf('pluginClass', 'plugin_class_key'),
    pluginType: { type: DataTypes.STRING(16), allowNull: false },
    pluginVersion: { type: DataTypes.STRING, allowNull: true },
    configDefinitions: jsonText('configDefinitions', []),
  });
}

/** Inserts the seeds for one tenant, written against the query interface with the tables' columns. */
export async function seedReferenceData(qi: QueryInterface, tenantUid: string, transaction?: Transaction): Promise<void> {
  const now = new Date();
  const common = () => ({ uid: newUid(), tenant_uid: tenantUid, created_at: now, modified_at: now, created_by: null, modified_by: null, version: 0 });
  for (const table of RANKED_TABLES) {
    const rows = RANKED_SEEDS[table].map((s) => ({ ...common(), name: s.name, name_key: s.name.toLowerCase(), level: s.level, description: s.description }));
    await qi.bulkInsert(table, rows, { transaction });
  }
  const plugins = PLUGIN_SEEDS.map((p) => ({
    ...common(), plugin_class: p.pluginClass, plugin_class_key: p.pluginClass.toLowerCase(), plugin_type: p.pluginType,
    plugin_version: p.pluginVersion, config_definitions: JSON.stringify(p.configDefinitions),
  }));
  await qi.bulkInsert('connect_plugins', plugins, { transaction });
}

/**
 * What refers to a reference row and so blocks its deletion, per table: the model, its attribute holding the uid,
 * and how its rows are named.
 */
const USERS: Partial<Record<RankedTable, Array<{ model: 'Instance' | 'Stream'; attribute: string; kind: string }>>> = {
  support_tiers: [{ model: 'Instance', attribute: 'supportTierUid', kind: 'instance' }],
  confidentialities: [{ model: 'Stream', attribute: 'confidentialityUid', kind: 'stream' }],
  integrities: [{ model: 'Stream', attribute: 'integrityUid', kind: 'stream' }],
};

/** `instance(s) A, B` per kind of row referring to `uid` of `table` (the 422 message of a refused delete). */
export async function referenceUsers(models: Models, table: RankedTable, uid: string, transaction?: Transaction): Promise<string[]> {
  const out: string[] = [];
  for (const u of USERS[table] ?? []) {
    const rows = await models[u.model].findAll({ where: { [u.attribute]: uid }, attributes: ['name'], order: [['name', 'ASC']], transaction });
    if (rows.length > 0) out.push(`${u.kind}(s) ${rows.map((r) => r.name as string).join(', ')}`);
  }
  return out;
}
