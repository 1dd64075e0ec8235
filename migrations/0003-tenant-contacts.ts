/** Tenant contacts (docs/contract.md §5.1): at most one BUSINESS and one TECHNICAL contact per tenant. */
import type { QueryInterface } from 'sequelize';
import { common, createTable, str, uniqueIndex } from './columns';

type Ctx = { context: QueryInterface };

export async function up({ context: qi }: Ctx): Promise<void> {
  await createTable(qi, 'tenant_contacts', {
    ...common(),
    type: str(16, false),
    name: str(255, false),
    email: str(255),
    phone_number: str(16),
  });
  await uniqueIndex(qi, 'tenant_contacts', ['tenant_uid', 'type']);
}

export async function down({ context: qi }: Ctx): Promise<void> {
  await qi.dropTable('tenant_contacts');
}
