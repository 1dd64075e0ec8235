/** Rules of one stream config (docs/contract.md §5.8), as pure functions: properties, pinned versions, topic names, browse permissions. */
import type { SubError } from '../errors';
import { SCHEMA_TYPES } from './stream-rules';

const LONG_MAX = 9223372036854775807n;
const long = (min: bigint) => (v: string) => /^-?[0-9]{1,19}$/.test(v) && BigInt(v) >= min && BigInt(v) <= LONG_MAX;

/** The Kafka topic properties a stream config may set, with what each accepts. */
export const TOPIC_PROPERTIES: Record<string, { accepts: (v: string) => boolean; expected: string }> = {
  'segment.ms': { accepts: long(0n), expected: 'an integer ≥ 0' },
  'retention.bytes': { accepts: long(-1n), expected: 'an integer ≥ -1' },
  'min.compaction.lag.ms': { accepts: long(0n), expected: 'an integer ≥ 0' },
  'max.compaction.lag.ms': { accepts: long(0n), expected: 'an integer ≥ 0' },
  'message.timestamp.difference.max.ms': { accepts: long(0n), expected: 'an integer ≥ 0' },
  'message.timestamp.type': { accepts: (v) => v === 'CreateTime' || v === 'LogAppendTime', expected: 'CreateTime or LogAppendTime' },
};

/** One problem per unknown key or unacceptable value, named `properties.<key>`. */
export function propertyProblems(properties: Record<string, unknown> | null | undefined): SubError[] {
  const problems: SubError[] = [];
  for (const [key, value] of Object.entries(properties ?? {})) {
    const field = `properties.${key}`;
    const rule = Object.prototype.hasOwnProperty.call(TOPIC_PROPERTIES, key) ? TOPIC_PROPERTIES[key] : undefined;
    if (!rule) problems.push({ field, message: `is not a supported property; allowed are ${Object.keys(TOPIC_PROPERTIES).join(', ')}`, rejectedValue: value });
    else if (typeof value !== 'string' || !rule.accepts(value)) problems.push({ field, message: `must be ${rule.expected}`, rejectedValue: value });
  }
  return problems;
}

export interface PinnedVersion {
  /** The stream's key or value type and schema. */
  streamType: string;
  streamSchemaUid: string | null;
  /** The schema the pinned version belongs to. */
  versionSchemaUid: string;
}

/** Why a version cannot be pinned on the key or value side, or null. */
export function pinProblem(side: 'key' | 'value', pin: PinnedVersion): SubError | null {
  const field = `${side}SchemaVersion`;
  if (!SCHEMA_TYPES.has(pin.streamType)) return { field, message: `must be empty: the stream's ${side}Type ${pin.streamType} has no schema` };
  if (pin.versionSchemaUid !== pin.streamSchemaUid) return { field, message: `must be a version of the stream's ${side} schema` };
  return null;
}

/** Why a second config of a stream in one environment is refused (409): the field the request sent, in its words. */
export function alreadyConfigured(stream: string, environment: string): string {
  return `environment: stream ${stream} is already configured in environment ${environment}`;
}

export interface TopicNameParts { tenant: string; instance: string; environment: string; stream: string }

/** The instance's pattern with lowercase tenant, instance and environment short names and the stream name. */
export function topicNameOf(pattern: string, p: TopicNameParts): string {
  const values: Record<string, string> = { tenant: p.tenant.toLowerCase(), instance: p.instance.toLowerCase(), environment: p.environment.toLowerCase(), stream: p.stream };
  return pattern.replace(/\{(tenant|instance|environment|stream)\}/g, (_m, k: string) => values[k]);
}

/** Kafka's limits on a topic name, or null when it is fine. */
export function topicNameProblem(name: string): string | null {
  if (name.length === 0) return 'Topic name must not be empty';
  if (name.length > 249) return `Topic name ${name.slice(0, 40)}… is ${name.length} characters long; at most 249 are allowed`;
  if (!/^[A-Za-z0-9._-]+$/.test(name)) return `Topic name ${name} may contain only letters, digits, '.', '_' and '-'`;
  return null;
}

export interface BrowseSetting {
  granularBrowsePermission: boolean;
  visibility: string;
  authorizationIssuer: string;
}

/** Why browse permissions cannot be granted on a config in this environment, or null. */
export function browseRefusal(s: BrowseSetting): string | null {
  if (!s.granularBrowsePermission) return 'The instance does not enable granular browse permissions';
  if (s.visibility === 'Private') return 'Browse permissions cannot be granted in a Private environment';
  if (s.authorizationIssuer === 'Auto') return 'Browse permissions cannot be granted in an environment that approves access automatically';
  return null;
}

/** One problem per entry naming the caller or a group the caller belongs to. */
export function selfGrantProblems(users: string[], groups: string[], me: string, myGroups: Set<string>): string[] {
  return [
    ...users.map((u, i) => (u === me ? `users[${i}]: you cannot grant or revoke browse permission for yourself` : null)),
    ...groups.map((g, i) => (myGroups.has(g) ? `groups[${i}]: you cannot grant or revoke browse permission for a group you belong to` : null)),
  ].filter((p): p is string => p !== null);
}
