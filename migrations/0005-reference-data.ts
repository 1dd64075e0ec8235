/**
 * Reference data (CONTRACT §5.16): confidentialities, integrities, support tiers and connect plugins per tenant,
 * seeded for every tenant that exists now (new tenants are seeded at creation), and an instance's optional
 * support tier (§5.4). Deleting a tier an instance uses is refused by the API (422); the column is SET NULL so a
 * tenant's cascading deletion never trips over the order in which its rows go.
 */
import { QueryTypes, type QueryInterface } from 'sequelize';
import { RANKED_TABLES, seedReferenceData } from '../models/reference-data';
import { common, createTable, int, ref, str, text, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

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
  for (const { uid } of tenants) await seedReferenceData(qi, uid);
}

export async function down({ context: qi }: Ctx): Promise<void> {
  // The index goes with the column (MySQL would refuse dropping it first: the foreign key needs it).
  await qi.removeColumn('instances', 'support_tier_uid');
  for (const table of ['connect_plugins', ...RANKED_TABLES]) await qi.dropTable(table);
}
