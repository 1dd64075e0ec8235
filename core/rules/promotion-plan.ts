/**
 * Promotion of a stream config to another environment, as pure functions: which values the target takes, what
 * changes (`from → to`), and an environment chain's successor rules.
 */
import { TOPIC_PROPERTIES } from './stream-config-rules';

/** The promoted fields, in the order a plan lists them. */
export const PROMOTED_FIELDS = ['partitions', 'retentionTime', 'properties', 'keySchemaVersion', 'valueSchemaVersion'] as const;
export type PromotedField = (typeof PROMOTED_FIELDS)[number];

/**
 * A stream config's promoted values. A pinned version is whatever the caller shows of it (a uid, or a uid and its
 * name): plans compare and echo it as it is given.
 */
export interface PromotedValues {
  partitions: number;
  retentionTime: number;
  properties: Record<string, string>;
  keySchemaVersion: unknown;
  valueSchemaVersion: unknown;
}

export interface FieldChange { field: string; from: unknown; to: unknown }
export interface NotPromoted extends FieldChange { reason: string }

export interface PromotionPlan {
  action: 'create' | 'update';
  /** Fields the target takes another value of, `from` null on create. */
  changes: FieldChange[];
  /** Promoted fields whose value the target has already. */
  unchanged: PromotedField[];
  /** What the source has but the target does not take: partitions of an existing target, unknown properties. */
  notPromoted: NotPromoted[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export const PARTITIONS_KEPT = 'partitions are immutable: an existing stream config keeps its own';
export const PROPERTY_NOT_ALLOWED = 'is not a supported property of a stream config';

/** The source's properties a stream config may set (its allow-list), in key order. */
export function promotedProperties(properties: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(properties).filter(([k]) => has(TOPIC_PROPERTIES, k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The values a promotion writes: everything promoted on create, everything but `partitions` on update. */
export function promotedValues(source: PromotedValues, creating: boolean): Partial<PromotedValues> {
  const values: Partial<PromotedValues> = {
    retentionTime: source.retentionTime,
    properties: promotedProperties(source.properties),
    keySchemaVersion: source.keySchemaVersion ?? null,
    valueSchemaVersion: source.valueSchemaVersion ?? null,
  };
  return creating ? { partitions: source.partitions, ...values } : values;
}

/** What promoting `source` onto `target` (null: none there yet) changes and leaves. */
export function promotionPlan(source: PromotedValues, target: PromotedValues | null): PromotionPlan {
  const next = promotedValues(source, target === null);
  const plan: PromotionPlan = { action: target ? 'update' : 'create', changes: [], unchanged: [], notPromoted: [] };
  for (const field of PROMOTED_FIELDS) {
    const from = target ? target[field] ?? null : null;
    if (!has(next, field)) {
      if (same(from, source[field])) plan.unchanged.push(field);
      else plan.notPromoted.push({ field, from, to: source[field], reason: PARTITIONS_KEPT });
      continue;
    }
    const to = next[field] ?? null;
    if (target && same(from, to)) plan.unchanged.push(field);
    else plan.changes.push({ field, from, to });
  }
  for (const [key, value] of Object.entries(source.properties)) {
    if (!has(TOPIC_PROPERTIES, key)) plan.notPromoted.push({ field: `properties.${key}`, from: target?.properties[key] ?? null, to: value, reason: PROPERTY_NOT_ALLOWED });
  }
  return plan;
}

/**
 * The chain an environment would start by taking `successor` when the environments' current successors are
 * `successorOf`: `[environment, successor, …, environment]` when it comes back (a cycle), else null. A chain that
 * runs into a cycle of others (which the rule never lets be stored) ends the walk without blaming this one.
 */
export function successorCycle(environment: string, successor: string | null, successorOf: (uid: string) => string | null | undefined): string[] | null {
  if (successor === null) return null;
  const chain = [environment];
  const seen = new Set(chain);
  for (let at: string | null | undefined = successor; at; at = successorOf(at)) {
    chain.push(at);
    if (at === environment) return chain;
    if (seen.has(at)) return null;
    seen.add(at);
  }
  return null;
}
