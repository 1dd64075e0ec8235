import { describe, expect, it } from 'vitest';
import { normaliseQueryEnums, queryEnumsOf } from '../../server/query-enums';
import type { DeclaredParameter } from '../../server/plain-parameters';

const action: DeclaredParameter = { name: 'action', in: 'query', schema: { type: 'string', enum: ['TOPIC_CONFIGURED', 'CREATED'] } };
const statuses: DeclaredParameter = { name: 'statuses', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['Pending', 'Approved'] } } };
const name: DeclaredParameter = { name: 'name', in: 'query', schema: { type: 'string' } };
const rel: DeclaredParameter = { name: 'rel', in: 'path', schema: { type: 'string', enum: ['owners'] } };
const enums = queryEnumsOf([action, statuses, name, rel])!;

describe('query values at enum positions', () => {
  it('finds the query parameters with listed values, not the others', () => {
    expect(enums.map((e) => [e.name, e.many])).toEqual([['action', false], ['statuses', true]]);
    expect(queryEnumsOf([name, rel, undefined])).toBeUndefined();
  });

  it.each([
    ['topic_configured', 'TOPIC_CONFIGURED'],
    ['Topic-Configured', 'TOPIC_CONFIGURED'],
    [' topic configured ', 'TOPIC_CONFIGURED'],
    ['created', 'CREATED'],
  ])('%j is spelled %j for the validator', (given, canonical) => {
    expect(normaliseQueryEnums(enums, { action: given })).toEqual({ action: canonical });
  });

  it('leaves values that match nothing for the validator to refuse', () => {
    expect(normaliseQueryEnums(enums, { action: 'nope' })).toEqual({ action: 'nope' });
    expect(normaliseQueryEnums(enums, { statuses: ['pending', 'nope'] })).toEqual({ statuses: ['Pending', 'nope'] });
  });

  it('splits comma-joined array values and accepts repeated ones', () => {
    expect(normaliseQueryEnums(enums, { statuses: 'pending, APPROVED' })).toEqual({ statuses: ['Pending', 'Approved'] });
    expect(normaliseQueryEnums(enums, { statuses: ['pending', 'approved'] })).toEqual({ statuses: ['Pending', 'Approved'] });
  });

  it('a blank value is no value, as the filters have always read it', () => {
    expect(normaliseQueryEnums(enums, { action: '', statuses: ' , ', name: '' })).toEqual({ name: '' });
    expect(normaliseQueryEnums(enums, { action: '   ' })).toEqual({});
  });

  it('leaves the given query and other parameters alone', () => {
    const query = { action: 'created', name: 'orders' };
    expect(normaliseQueryEnums(enums, query)).toEqual({ action: 'CREATED', name: 'orders' });
    expect(query).toEqual({ action: 'created', name: 'orders' });
  });
});
