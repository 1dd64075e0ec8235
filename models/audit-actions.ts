/**
 * The audit actions of the specification (§6) and docs/contract.md §8, exactly and in their order: a client generated
 * from the specification reads every entry. Then the kinds of resource an entry names (docs/contract.md §8).
 */
export const AUDIT_ACTIONS = [
  'CREATED', 'UPDATED', 'DELETED', 'BROWSED', 'TOPIC_BROWSED', 'APPLICATION_ACCESS_REQUESTED', 'APPLICATION_ACCESS_CANCELLED',
  'APPLICATION_ACCESS_APPROVED', 'APPLICATION_ACCESS_DENIED', 'APPLICATION_ACCESS_REVOKED', 'AUTHENTICATION_CONFIGURED',
  'AUTHENTICATION_UNCONFIGURED', 'APPLICATION_CONFIGURED', 'APPLICATION_UNCONFIGURED', 'APPLICATION_STARTED', 'APPLICATION_STOPPED',
  'APPLICATION_RESTARTED', 'APPLICATION_RESET', 'TOPIC_CONFIGURED', 'TOPIC_UNCONFIGURED', 'TOPIC_MASKING_CONFIGURED',
  'SCHEMA_REGISTRY_CONFIGURED', 'SCHEMA_REGISTRY_UNCONFIGURED', 'BROWSE_PERMISSION_GRANTED', 'BROWSE_PERMISSION_REVOKED',
  'SCHEMA_VERSION_UPLOADED', 'SCHEMA_VERSION_DELETED', 'SCHEMA_OWNERSHIP_TRANSFERRED', 'SCHEMA_MASKING_CONFIGURED', 'CLUSTER_ADDED',
  'CLUSTER_REMOVED', 'KSML_PROVISIONER_CONFIGURED', 'KSML_PROVISIONER_UNCONFIGURED', 'SYNCHRONIZED',
] as const;

export const AUDIT_RESOURCE_TYPES = ['Tenant', 'User', 'Group', 'Cluster', 'Instance', 'Environment', 'Topic', 'Schema', 'Application'] as const;

/** Kinds every user of the tenant may see (no Private rows): their entries are visible to all of it. */
export const OPEN_RESOURCE_TYPES = ['Tenant', 'User', 'Group', 'Cluster', 'Instance', 'Schema'] as const;

/** The canonical action for any case, or null. */
export function auditActionOf(text: string): string | null {
  const upper = text.trim().toUpperCase();
  return (AUDIT_ACTIONS as readonly string[]).includes(upper) ? upper : null;
}

/** The canonical resource type for any case (`Stream` = `Topic`), or null. */
export function auditResourceTypeOf(text: string): string | null {
  const lower = text.trim().toLowerCase();
  if (lower === 'stream') return 'Topic';
  return AUDIT_RESOURCE_TYPES.find((t) => t.toLowerCase() === lower) ?? null;
}
