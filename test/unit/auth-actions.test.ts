import { describe, expect, it } from 'vitest';
import { CRUD_VERBS, parseQuestion, RESOURCE_TYPES, SPECIAL_ACTIONS } from '../../auth/actions';

describe('the /auth vocabulary', () => {
  it('knows VIEW, EDIT, DELETE and CREATE of every type, and nothing of another type', () => {
    for (const type of RESOURCE_TYPES) {
      for (const verb of CRUD_VERBS) {
        expect(parseQuestion(`${type}_${verb}`, type)).toEqual({ ok: true, question: { type, action: `${type}_${verb}`, verb } });
      }
      const foreign = RESOURCE_TYPES.find((t) => t !== type && !t.startsWith(type) && !type.startsWith(t))!;
      expect(parseQuestion(`${foreign}_VIEW`, type)).toMatchObject({ ok: false, field: 'action' });
    }
  });

  it('places each special action on exactly its type', () => {
    for (const [action, type] of Object.entries(SPECIAL_ACTIONS)) {
      expect(parseQuestion(action, type)).toEqual({ ok: true, question: { type, action, verb: action } });
      const wrong = RESOURCE_TYPES.find((t) => t !== type)!;
      expect(parseQuestion(action, wrong)).toMatchObject({ ok: false, field: 'action', problem: `${action} is not an action on ${wrong}` });
    }
  });

  it.each([
    ['stream_config_edit', 'StreamConfig', 'STREAM_CONFIG', 'STREAM_CONFIG_EDIT'],
    ['Stream-Config-Edit', 'stream config', 'STREAM_CONFIG', 'STREAM_CONFIG_EDIT'],
    ['TOPIC_VIEW', 'Topic', 'STREAM', 'STREAM_VIEW'],
    ['stream_view', 'topic', 'STREAM', 'STREAM_VIEW'],
    ['grant_approve', 'application_access_grant', 'APPLICATION_ACCESS_GRANT', 'GRANT_APPROVE'],
  ])('matches %s on %s in any spelling', (action, type, canonicalType, canonicalAction) => {
    expect(parseQuestion(action, type)).toMatchObject({ ok: true, question: { type: canonicalType, action: canonicalAction } });
  });

  it.each([
    [undefined, 'CLUSTER', 'action', 'is required'],
    ['  ', 'CLUSTER', 'action', 'is required'],
    ['CLUSTER_VIEW', undefined, 'resourceType', 'is required'],
    ['CLUSTER_VIEW', 'GALAXY', 'resourceType', /^unknown resource type 'GALAXY'/],
    ['CLUSTER_LAUNCH', 'CLUSTER', 'action', "unknown action 'CLUSTER_LAUNCH'"],
  ])('refuses action %s on %s, naming %s', (action, type, field, problem) => {
    const result = parseQuestion(action, type);
    expect(result).toMatchObject({ ok: false, field });
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});
