import { adminOnlyPolicy } from '../auth/policies/admin-only';
import type { Resource } from './_lib/resource';
import type { AuditEntry } from '../models/audit-event';

export const clusterResource: Resource<'clusters', 'findByName'> = {
  collection: 'clusters',
  itemRel: 'cluster',
  model: (m) => m.Cluster,
  auditType: 'Cluster',
  auditName: (row) => row.name,
  fields: [
    { name: 'name', unique: true },
    { name: 'description' },
    { name: 'location' },
    { name: 'bootstrapServers', kind: 'list' },
    { name: 'schemaRegistryUrls', kind: 'list', default: () => [], input: (v) => v ?? [] },
    { name: 'providerType', default: () => 'APACHE_KAFKA', input: (v) => v ?? 'APACHE_KAFKA' },
    { name: 'apiUrl' },
  ],
  associations: [],
  searches: [
    { name: 'findByName', params: [{ name: 'name', required: true }], where: (a) => ({ nameKey: String(a.name).toLowerCase() }) },
  ],
  policy: adminOnlyPolicy,
  blockers: async (ctx, row, transaction) => {
    const used = await ctx.models.InstanceCluster.count({ where: { targetUid: row.uid }, transaction });
    return used > 0 ? `Cluster ${row.name} is used by ${used} instance(s); remove it from them first` : null;
  },
  extraAudit: ({ row, before, after }) => registryEvents(row.uid, row.name, before?.schemaRegistryUrls, after?.schemaRegistryUrls),
};

/** A cluster gaining its first registry URL is SCHEMA_REGISTRY_CONFIGURED; losing its last, _UNCONFIGURED. */
function registryEvents(uid: string, name: string, before: unknown, after: unknown): AuditEntry[] {
  const had = Array.isArray(before) && before.length > 0;
  const has = Array.isArray(after) && after.length > 0;
  if (had === has) return [];
  return [{ action: has ? 'SCHEMA_REGISTRY_CONFIGURED' : 'SCHEMA_REGISTRY_UNCONFIGURED', resourceType: 'Cluster', resourceName: name, resourceId: uid, details: { schemaRegistryUrls: { old: before ?? [], new: after ?? [] } } }];
}
