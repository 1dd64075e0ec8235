/**
 * Reference data (docs/contract.md §5.16): confidentialities, integrities, support tiers and connect plugins per tenant,
 * seeded for every tenant that exists now (new tenants are seeded at creation), and an instance's optional
 * support tier (§5.4). Deleting a tier an instance uses is refused by the API (422); the column is SET NULL so a
 * tenant's cascading deletion never trips over the order in which its rows go.
 */
import { randomUUID } from 'node:crypto';
import { QueryTypes, type QueryInterface } from 'sequelize';
import { common, createTable, int, ref, str, text, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

const RANKED_TABLES = ['confidentialities', 'integrities', 'support_tiers'] as const;

/**
 * The seeds as they were when this migration landed. A migration is history: it keeps its own copy, so changing the
 * seeds of new tenants (models/reference-data.ts) never changes what this step did.
 */
const RANKED_SEEDS: Record<(typeof RANKED_TABLES)[number], Array<[name: string, level: number, description: string]>> = {
  confidentialities: [
    ['Public', 1, 'May be shared with anyone'],
    ['Internal', 2, 'For use inside the organisation only'],
    ['Confidential', 3, 'For a limited group with a business need'],
    ['Secret', 4, 'For named people only; disclosure causes serious harm'],
  ],
  integrities: [
    ['Low', 1, 'Errors are tolerable'],
    ['Medium', 2, 'Errors must be detected and corrected'],
    ['High', 3, 'Data must be complete and correct at all times'],
  ],
  support_tiers: [
    ['Bronze', 1, 'Best effort, office hours'],
    ['Silver', 2, 'Office hours with agreed response times'],
    ['Gold', 3, 'Around the clock with agreed response times'],
  ],
};

const config = (name: string, documentation: string, type = 'STRING', required = false) =>
  ({ name, type, required, defaultValue: null, documentation });

const PLUGIN_SEEDS = [
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

async function seedTenant(qi: QueryInterface, tenantUid: string): Promise<void> {
  const now = new Date();
  const row = () => ({ uid: randomUUID().replace(/-/g, ''), tenant_uid: tenantUid, created_at: now, modified_at: now, created_by: null, modified_by: null, version: 0 });
  for (const table of RANKED_TABLES) {
    const rows = RANKED_SEEDS[table].map(([name, level, description]) => ({ ...row(), name, name_key: name.toLowerCase(), level, description }));
    await qi.bulkInsert(table, rows);
  }
  const plugins = PLUGIN_SEEDS.map((p) => ({
    ...row(), plugin_class: p.pluginClass, plugin_class_key: p.pluginClass.toLowerCase(), plugin_type: p.pluginType,
    plugin_version: p.pluginVersion, config_definitions: JSON.stringify(p.configDefinitions),
  }));
  await qi.bulkInsert('connect_plugins', plugins);
}

export async function up({ context: qi }: Ctx): Promise<void> {
  for (const table of RANKED_TABLES) {
    await createTable(qi, table, {
      ...common(),
      name: str(255, false),
      name_key: str(255, false),
      level: int(false),
      description: str(),
    });
    await uniqueIndex(qi, table, ['tenant_uid', 'name_key']);
  }
  await createTable(qi, 'connect_plugins', {
    ...common(),
    plugin_class: str(255, false),
    plugin_class_key: str(255, false),
    plugin_type: str(16, false),
    plugin_version: str(),
    config_definitions: text(false),
  });
  await uniqueIndex(qi, 'connect_plugins', ['tenant_uid', 'plugin_class_key']);
  await qi.addColumn('instances', 'support_tier_uid', ref('support_tiers', true, 'SET NULL'));
  await qi.addIndex('instances', ['support_tier_uid'], { name: 'instances_support_tier_ix' });

  const tenants = await qi.sequelize.query<{ uid: string }>('SELECT uid FROM tenants', { type: QueryTypes.SELECT });
  for (const { uid } of tenants) await seedTenant(qi, uid);
}

export async function down({ context: qi }: Ctx): Promise<void> {
  // The index goes with the column (MySQL would refuse dropping it first: the foreign key needs it).
  await qi.removeColumn('instances', 'support_tier_uid');
  for (const table of ['connect_plugins', ...RANKED_TABLES]) await qi.dropTable(table);
}
