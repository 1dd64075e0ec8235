import { describe, expect, it } from 'vitest';
import { browseRefusal, pinProblem, propertyProblems, selfGrantProblems, topicNameOf, topicNameProblem } from '../../core/rules/stream-config-rules';

const fields = (p: Record<string, unknown>) => propertyProblems(p).map((x) => x.field);

describe('propertyProblems', () => {
  it.each([
    ['segment.ms', '0'], ['segment.ms', '9223372036854775807'], ['retention.bytes', '-1'], ['min.compaction.lag.ms', '12'],
    ['max.compaction.lag.ms', '1'], ['message.timestamp.difference.max.ms', '0'], ['message.timestamp.type', 'CreateTime'], ['message.timestamp.type', 'LogAppendTime'],
  ])('accepts %s = %s', (key, value) => expect(fields({ [key]: value })).toEqual([]));

  it.each([
    ['segment.ms', '-1'], ['segment.ms', '1.0'], ['segment.ms', ' 1'], ['segment.ms', '9223372036854775808'], ['segment.ms', 5],
    ['retention.bytes', '-2'], ['min.compaction.lag.ms', ''], ['max.compaction.lag.ms', '1e3'], ['message.timestamp.difference.max.ms', '-0x1'],
    ['message.timestamp.type', 'createtime'], ['message.timestamp.type', ''],
  ])('refuses %s = %j', (key, value) => expect(fields({ [key]: value })).toEqual([`properties.${key}`]));

  it('names every unknown key, __proto__ included', () => {
    expect(fields(JSON.parse('{"cleanup.policy":"compact","__proto__":"x","segment.ms":"1"}'))).toEqual(['properties.cleanup.policy', 'properties.__proto__']);
    expect(propertyProblems(null)).toEqual([]);
  });
});

describe('pinProblem', () => {
  it.each(['AVRO', 'PROTOBUF', 'JSON_SCHEMA'])('a %s side takes versions of its own schema only', (type) => {
    expect(pinProblem('key', { streamType: type, streamSchemaUid: 's', versionSchemaUid: 's' })).toBeNull();
    expect(pinProblem('key', { streamType: type, streamSchemaUid: 's', versionSchemaUid: 'o' })?.field).toBe('keySchemaVersion');
  });
  it.each(['JSON', 'Binary', 'String', 'Xml'])('a %s side takes no version', (type) => {
    expect(pinProblem('value', { streamType: type, streamSchemaUid: null, versionSchemaUid: 's' })?.message).toMatch(/must be empty/);
  });
});

describe('topic names', () => {
  const parts = { tenant: 'Acme', instance: 'Prod', environment: 'DEV', stream: 'Payments.V1' };
  it('fills the placeholders, lowercasing short names but not the stream name', () => {
    expect(topicNameOf('{tenant}-{instance}-{environment}-{stream}', parts)).toBe('acme-prod-dev-Payments.V1');
    expect(topicNameOf('{stream}', parts)).toBe('Payments.V1');
    expect(topicNameOf('{environment}.{stream}.{environment}', parts)).toBe('dev.Payments.V1.dev');
  });
  it.each([
    ['a'.repeat(249), null], ['a'.repeat(250), /at most 249/], ['a b', /may contain only/], ['a/b', /may contain only/], ['', /empty/], ['a._-Z9', null],
  ])('%j → %s', (name, problem) => {
    const found = topicNameProblem(name);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});

describe('browse permissions', () => {
  it.each([
    [true, 'Public', 'Stream owner', null],
    [false, 'Public', 'Stream owner', /granular/],
    [true, 'Private', 'Auto', /Private/],
    [true, 'Public', 'Auto', /automatically/],
    [false, 'Private', 'Auto', /granular/],
  ])('granular %s, %s, %s → %s', (granularBrowsePermission, visibility, authorizationIssuer, refusal) => {
    const found = browseRefusal({ granularBrowsePermission, visibility, authorizationIssuer });
    if (refusal === null) expect(found).toBeNull();
    else expect(found).toMatch(refusal);
  });
  it('refuses oneself and own groups, one entry each', () => {
    expect(selfGrantProblems(['u1', 'me'], ['g1', 'mine'], 'me', new Set(['mine']))).toEqual([
      'users[1]: you cannot grant or revoke browse permission for yourself',
      'groups[1]: you cannot grant or revoke browse permission for a group you belong to',
    ]);
    expect(selfGrantProblems(['u1'], ['g1'], 'me', new Set(['mine']))).toEqual([]);
  });
});
