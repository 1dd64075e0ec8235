/**
 * How a provider's topic becomes catalog entities in the topic wizard (docs/contract.md §10): the natural keys an import
 * is idempotent by, and the values of what it creates. Pure: the wizard's executor asks the database.
 */
import { TOPIC_PROPERTIES } from '../core/rules/stream-config-rules';
import type { AclOperation, ProviderAcl, ProviderSchema, ProviderTopic } from './types';

export type AccessType = 'CONSUMER' | 'PRODUCER';

/** READ → CONSUMER, WRITE → PRODUCER (a readwrite ACL arrives as both). */
export const ACCESS_OF: Record<AclOperation, AccessType> = { READ: 'CONSUMER', WRITE: 'PRODUCER' };

/** Internal topics (`__consumer_offsets`, `_schemas`, …) are neither counted nor imported. */
export const isInternalTopic = (name: string): boolean => name.startsWith('_');

/** docs/contract.md §5.7: what a stream name may be; a provider topic that is not one fails with this message. */
export function streamNameProblem(name: string): string | null {
  if (name.length < 3 || name.length > 180) return `topic name ${name} is not a valid stream name (3–180 characters)`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) return `topic name ${name} is not a valid stream name (letters, digits, . _ -, starting with a letter or digit)`;
  return null;
}

export interface ApplicationNames { applicationId: string; name: string; shortName: string }

/**
 * The application an ACL principal stands for. `User:orders-svc` → `orders-svc`; an mTLS principal
 * `User:CN=orders,OU=…` → its CN; the shortName (the natural key) lowercases it and writes every other character
 * as `_` (`^[a-z0-9][a-z0-9_]*$`, 3–60). Null when no valid shortName comes out (fewer than 3 usable characters).
 */
export function applicationNamesOf(principal: string): ApplicationNames | null {
  let base = principal.trim();
  const colon = base.indexOf(':');
  if (colon >= 0 && /^[A-Za-z]+$/.test(base.slice(0, colon))) base = base.slice(colon + 1);
  const cn = /(?:^|,)\s*CN=([^,]+)/i.exec(base);
  if (cn && base.includes('=')) base = cn[1];
  base = base.trim();
  const shortName = base.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60).replace(/_+$/, '');
  if (shortName.length < 3) return null;
  const applicationId = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 255);
  const name = base.replace(/[^A-Za-z0-9._\- ]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 100).trimEnd();
  return { applicationId: applicationId || shortName, name: name.length >= 3 ? name : shortName, shortName };
}

/** Each principal with the access types its ACLs on the topic give, in a stable order. */
export function accessByPrincipal(acls: ProviderAcl[]): Map<string, AccessType[]> {
  const out = new Map<string, Set<AccessType>>();
  for (const acl of acls) {
    const kinds = out.get(acl.principal) ?? new Set<AccessType>();
    kinds.add(ACCESS_OF[acl.operation]);
    out.set(acl.principal, kinds);
  }
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([p, kinds]) => [p, [...kinds].sort()]));
}

/** The stream's key or value type: the schema's format, else `String` (a provider without a schema says no more). */
export function streamTypeOf(schema: ProviderSchema | null): string {
  if (!schema) return 'String';
  return schema.type === 'JSON' ? 'JSON_SCHEMA' : schema.type;
}

/** The registry's numeric version as this catalog's version name. */
export const versionNameOf = (schema: ProviderSchema): string => String(schema.version);

const RETENTION_POLICIES = new Set(['delete', 'compact', 'compact,delete']);

/** `cleanup.policy` as a stream's retentionPolicy; unknown or absent → `delete` (Kafka's default). */
export function retentionPolicyOf(cleanupPolicy: string | null): string {
  const parts = (cleanupPolicy ?? '').split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '').sort();
  const joined = parts.join(',');
  return RETENTION_POLICIES.has(joined) ? joined : 'delete';
}

export interface ConfigValues { partitions: number; retentionTime: number | null; properties: Record<string, string> }

/**
 * The stream config's values, or the reason the topic cannot be kept. A retention outside 1000–160704000000 ms
 * (Kafka's -1, unlimited, among them) takes the environment's default (null); of the other configs only those a
 * stream config holds (docs/contract.md §5.8) are kept, and only with values it accepts.
 */
export function configValuesOf(topic: ProviderTopic): ConfigValues | string {
  if (!Number.isInteger(topic.partitions) || topic.partitions < 1 || topic.partitions > 120000) {
    return `topic ${topic.name} has ${topic.partitions} partitions; a stream config holds 1–120000`;
  }
  const r = topic.retentionMs;
  const retentionTime = r !== null && Number.isInteger(r) && r >= 1000 && r <= 160704000000 ? r : null;
  const properties: Record<string, string> = {};
  for (const [key, rule] of Object.entries(TOPIC_PROPERTIES)) {
    const value = topic.configs[key];
    if (typeof value === 'string' && rule.accepts(value)) properties[key] = value;
  }
  return { partitions: topic.partitions, retentionTime, properties };
}
