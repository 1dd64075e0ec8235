import { describe, expect, it } from 'vitest';
import {
  accessByPrincipal, applicationNamesOf, configValuesOf, isInternalTopic, retentionPolicyOf, streamNameProblem, streamTypeOf, versionNameOf,
} from '../../providers/import-rules';
import type { ProviderTopic } from '../../providers/types';

const topic = (o: Partial<ProviderTopic> = {}): ProviderTopic => ({
  name: 'orders', partitions: 3, replicationFactor: 3, retentionMs: 86_400_000, cleanupPolicy: 'delete', configs: {},
  keySchema: null, valueSchema: null, acls: [], ...o,
});

describe('import rules: topics and stream names', () => {
  it('internal topics start with _', () => {
    expect(isInternalTopic('__consumer_offsets')).toBe(true);
    expect(isInternalTopic('_schemas')).toBe(true);
    expect(isInternalTopic('orders_v1')).toBe(false);
  });

  it('a topic name must be a stream name: 3–180 of letters, digits, . _ -, starting with a letter or digit', () => {
    expect(streamNameProblem('orders.v1_x-y')).toBeNull();
    expect(streamNameProblem('a'.repeat(180))).toBeNull();
    expect(streamNameProblem('ab')).toMatch(/3–180/);
    expect(streamNameProblem('a'.repeat(181))).toMatch(/3–180/);
    expect(streamNameProblem('.orders')).toMatch(/starting with a letter or digit/);
    expect(streamNameProblem('-orders')).toMatch(/starting/);
  });
});

describe('import rules: applications from ACL principals', () => {
  it('User: prefix dropped; shortName lowercase with _ for everything else; applicationId and name keep the text', () => {
    expect(applicationNamesOf('User:orders-svc')).toEqual({ applicationId: 'orders-svc', name: 'orders-svc', shortName: 'orders_svc' });
    expect(applicationNamesOf('billing')).toEqual({ applicationId: 'billing', name: 'billing', shortName: 'billing' });
    expect(applicationNamesOf('User:Payments.Service')).toEqual({ applicationId: 'Payments.Service', name: 'Payments.Service', shortName: 'payments_service' });
  });

  it('an mTLS principal is named by its CN', () => {
    expect(applicationNamesOf('User:CN=orders-app,OU=Streaming,O=Acme,C=NL')).toEqual({ applicationId: 'orders-app', name: 'orders-app', shortName: 'orders_app' });
  });

  it('odd characters become - in applicationId and name, _ in shortName (a run of them as one, none at the ends); long names are cut', () => {
    expect(applicationNamesOf('User:svc@acme#1')).toEqual({ applicationId: 'svc-acme-1', name: 'svc-acme-1', shortName: 'svc_acme_1' });
    expect(applicationNamesOf('User:__weird__name__')).toMatchObject({ shortName: 'weird__name', applicationId: 'weird__name__' });
    const long = applicationNamesOf(`User:${'x'.repeat(300)}`)!;
    expect(long.shortName).toHaveLength(60);
    expect(long.name).toHaveLength(100);
    expect(long.applicationId).toHaveLength(255);
  });

  it('no shortName of 3 characters → null', () => {
    expect(applicationNamesOf('User:ab')).toBeNull();
    expect(applicationNamesOf('User:*')).toBeNull();
    expect(applicationNamesOf('   ')).toBeNull();
    // Two letters are too short for a name but the shortName decides; 3 usable ones are enough.
    expect(applicationNamesOf('User:a-b')).toEqual({ applicationId: 'a-b', name: 'a-b', shortName: 'a_b' });
  });

  it('access per principal: READ → CONSUMER, WRITE → PRODUCER, both when both; sorted and deduplicated', () => {
    const map = accessByPrincipal([
      { principal: 'User:z', operation: 'READ', patternType: 'LITERAL' },
      { principal: 'User:a', operation: 'WRITE', patternType: 'PREFIXED' },
      { principal: 'User:a', operation: 'READ', patternType: 'LITERAL' },
      { principal: 'User:a', operation: 'WRITE', patternType: 'LITERAL' },
    ]);
    expect([...map.entries()]).toEqual([['User:a', ['CONSUMER', 'PRODUCER']], ['User:z', ['CONSUMER']]]);
    expect(accessByPrincipal([]).size).toBe(0);
  });
});

describe('import rules: stream and config values', () => {
  it('stream types from the schemas, String without one; version names are the registry numbers', () => {
    const schema = (type: 'AVRO' | 'PROTOBUF' | 'JSON') => ({ subject: 's', type, version: 7, schema: '{}' });
    expect(streamTypeOf(null)).toBe('String');
    expect(streamTypeOf(schema('AVRO'))).toBe('AVRO');
    expect(streamTypeOf(schema('PROTOBUF'))).toBe('PROTOBUF');
    expect(streamTypeOf(schema('JSON'))).toBe('JSON_SCHEMA');
    expect(versionNameOf(schema('AVRO'))).toBe('7');
  });

  it('cleanup.policy → retentionPolicy, in the stored order; anything else delete', () => {
    expect(retentionPolicyOf('compact')).toBe('compact');
    expect(retentionPolicyOf('delete')).toBe('delete');
    expect(retentionPolicyOf('delete,compact')).toBe('compact,delete');
    expect(retentionPolicyOf(' Compact , Delete ')).toBe('compact,delete');
    expect(retentionPolicyOf(null)).toBe('delete');
    expect(retentionPolicyOf('tiered')).toBe('delete');
  });

  it('config values: partitions kept, retention in range kept else the environment default, known properties only', () => {
    expect(configValuesOf(topic({ configs: { 'segment.ms': '600000', 'min.insync.replicas': '2', 'message.timestamp.type': 'LogAppendTime', 'retention.bytes': '-1' } })))
      .toEqual({ partitions: 3, retentionTime: 86_400_000, properties: { 'segment.ms': '600000', 'message.timestamp.type': 'LogAppendTime', 'retention.bytes': '-1' } });
    for (const r of [-1, 999, 160_704_000_001, null]) expect(configValuesOf(topic({ retentionMs: r })), String(r)).toMatchObject({ retentionTime: null });
    expect(configValuesOf(topic({ retentionMs: 1000 }))).toMatchObject({ retentionTime: 1000 });
    expect(configValuesOf(topic({ retentionMs: 160_704_000_000 }))).toMatchObject({ retentionTime: 160_704_000_000 });
    // A value the stream config would refuse is not kept.
    expect(configValuesOf(topic({ configs: { 'segment.ms': '-5', 'message.timestamp.type': 'Whenever' } }))).toMatchObject({ properties: {} });
  });

  it('partitions outside 1–120000 are the reason the topic cannot be kept', () => {
    expect(configValuesOf(topic({ partitions: 0 }))).toBe('topic orders has 0 partitions; a stream config holds 1–120000');
    expect(configValuesOf(topic({ partitions: 120_001 }))).toMatch(/120001 partitions/);
    expect(configValuesOf(topic({ partitions: 120_000 }))).toMatchObject({ partitions: 120_000 });
  });
});
