/**
 * The promotion plan (docs/contract.md §5.8, "Promotion"): for every promoted field, create vs update × equal vs
 * different, what the plan lists; the allow-list of properties; the successor chain's cycle rule on chains of every
 * shape up to four environments.
 */
import { describe, expect, it } from 'vitest';
import {
  PARTITIONS_KEPT, PROMOTED_FIELDS, PROPERTY_NOT_ALLOWED, promotedProperties, promotedValues, promotionPlan, successorCycle,
  type PromotedValues,
} from '../../core/rules/promotion-plan';

const SOURCE: PromotedValues = {
  partitions: 6, retentionTime: 86400000, properties: { 'segment.ms': '600000' }, keySchemaVersion: null, valueSchemaVersion: { uid: 'v2', version: '2' },
};
/** A value of each field other than the source's. */
const OTHER: PromotedValues = {
  partitions: 3, retentionTime: 604800000, properties: { 'retention.bytes': '-1' }, keySchemaVersion: { uid: 'k1', version: '1' }, valueSchemaVersion: { uid: 'v1', version: '1' },
};

describe('promotionPlan: create', () => {
  it('lists every promoted field as a change from null, in order, and leaves nothing out', () => {
    const plan = promotionPlan(SOURCE, null);
    expect(plan).toEqual({
      action: 'create',
      changes: [
        { field: 'partitions', from: null, to: 6 },
        { field: 'retentionTime', from: null, to: 86400000 },
        { field: 'properties', from: null, to: { 'segment.ms': '600000' } },
        { field: 'keySchemaVersion', from: null, to: null },
        { field: 'valueSchemaVersion', from: null, to: { uid: 'v2', version: '2' } },
      ],
      unchanged: [],
      notPromoted: [],
    });
  });

  it('writes the partitions, the allow-listed properties and the pins', () => {
    expect(promotedValues(SOURCE, true)).toEqual({ ...SOURCE });
  });
});

describe('promotionPlan: update, each field equal or different', () => {
  const cases = PROMOTED_FIELDS.flatMap((field) => [true, false].map((equal) => [field, equal] as const));
  it.each(cases)('%s equal to the source: %s', (field, equal) => {
    const target: PromotedValues = { ...SOURCE, [field]: equal ? SOURCE[field] : OTHER[field] };
    const plan = promotionPlan(SOURCE, target);
    expect(plan.action).toBe('update');
    const others = PROMOTED_FIELDS.filter((f) => f !== field);
    if (equal) {
      expect(plan).toMatchObject({ changes: [], unchanged: [...PROMOTED_FIELDS], notPromoted: [] });
    } else if (field === 'partitions') {
      expect(plan.changes).toEqual([]);
      expect(plan.unchanged).toEqual(others);
      expect(plan.notPromoted).toEqual([{ field, from: OTHER.partitions, to: SOURCE.partitions, reason: PARTITIONS_KEPT }]);
    } else {
      expect(plan.changes).toEqual([{ field, from: OTHER[field], to: SOURCE[field] ?? null }]);
      expect(plan.unchanged).toEqual(others);
      expect(plan.notPromoted).toEqual([]);
    }
  });

  it('never writes partitions of an existing target', () => {
    expect(promotedValues(SOURCE, false)).not.toHaveProperty('partitions');
  });

  it('unpins what the source does not pin, and pins what it does', () => {
    const plan = promotionPlan({ ...SOURCE, valueSchemaVersion: null }, { ...SOURCE, keySchemaVersion: 'k9' });
    expect(plan.changes).toEqual([
      { field: 'keySchemaVersion', from: 'k9', to: null },
      { field: 'valueSchemaVersion', from: { uid: 'v2', version: '2' }, to: null },
    ]);
  });

  it('replaces the properties whole: keys only the target has are dropped', () => {
    const plan = promotionPlan(SOURCE, { ...SOURCE, properties: { 'segment.ms': '600000', 'retention.bytes': '-1' } });
    expect(plan.changes).toEqual([{ field: 'properties', from: { 'segment.ms': '600000', 'retention.bytes': '-1' }, to: { 'segment.ms': '600000' } }]);
  });

  it('compares properties whatever their key order', () => {
    const source = { ...SOURCE, properties: { 'segment.ms': '1', 'retention.bytes': '2' } };
    const plan = promotionPlan(source, { ...source, properties: { 'retention.bytes': '2', 'segment.ms': '1' } });
    expect(plan.changes).toEqual([]);
  });
});

describe('allow-listed properties', () => {
  it('keeps the supported keys and leaves the others, each named, out of what is written', () => {
    const source = { ...SOURCE, properties: { 'segment.ms': '1', 'cleanup.policy': 'compact', __proto__x: 'y' } };
    expect(promotedProperties(source.properties)).toEqual({ 'segment.ms': '1' });
    const plan = promotionPlan(source, { ...SOURCE, properties: { 'cleanup.policy': 'delete' } });
    expect(plan.notPromoted).toEqual([
      { field: 'properties.cleanup.policy', from: 'delete', to: 'compact', reason: PROPERTY_NOT_ALLOWED },
      { field: 'properties.__proto__x', from: null, to: 'y', reason: PROPERTY_NOT_ALLOWED },
    ]);
    expect(plan.changes).toEqual([{ field: 'properties', from: { 'cleanup.policy': 'delete' }, to: { 'segment.ms': '1' } }]);
  });

  it('does not take a key named after an Object prototype member', () => {
    expect(promotedProperties(JSON.parse('{"__proto__": "1", "constructor": "2", "toString": "3"}'))).toEqual({});
  });
});

describe('successorCycle', () => {
  const chain = (links: Record<string, string | null>) => (uid: string) => links[uid];

  it('no successor is never a cycle', () => {
    expect(successorCycle('a', null, chain({}))).toBeNull();
  });

  it('an environment as its own successor is a cycle', () => {
    expect(successorCycle('a', 'a', chain({ a: null }))).toEqual(['a', 'a']);
  });

  it.each([
    ['a → b, b ends', { b: null }, 'b', null],
    ['a → b → c, c ends', { b: 'c', c: null }, 'b', null],
    ['a → b → a', { b: 'a' }, 'b', ['a', 'b', 'a']],
    ['a → b → c → a', { b: 'c', c: 'a' }, 'b', ['a', 'b', 'c', 'a']],
    ['a → b → c → d → a', { b: 'c', c: 'd', d: 'a' }, 'b', ['a', 'b', 'c', 'd', 'a']],
    ['a → b where b is unknown', {}, 'b', null],
    ['a → b → c → b (a cycle of others)', { b: 'c', c: 'b' }, 'b', null],
    ['dev → acc → prod, prod → dev set last', { dev: 'acc', acc: 'prod' }, 'dev', ['prod', 'dev', 'acc', 'prod']],
  ])('%s', (_name, links, successor, expected) => {
    const start = _name.startsWith('dev') ? 'prod' : 'a';
    expect(successorCycle(start, successor, chain(links as Record<string, string | null>))).toEqual(expected);
  });
});
