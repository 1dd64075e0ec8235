/** Environments: the instance they run on, who owns them, the next step of promotion, and how long access lasts. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { listOf, only, optionalText, textOf, wholeNumber, type Values } from '../forms/values';

function body(v: Values) {
  return {
    name: textOf(v, 'name'),
    shortName: textOf(v, 'shortName'),
    description: optionalText(v, 'description'),
    color: textOf(v, 'color'),
    instance: textOf(v, 'instance'),
    owners: textOf(v, 'owners'),
    viewers: listOf(v, 'viewers'),
    visibility: textOf(v, 'visibility') as 'Public' | 'Private',
    authorizationIssuer: textOf(v, 'authorizationIssuer') as 'Stream owner' | 'Auto',
    successor: optionalText(v, 'successor'),
    partitions: wholeNumber(v, 'partitions', 'Partitions'),
    retentionTime: wholeNumber(v, 'retentionTime', 'Retention'),
    maxAccessDuration: optionalText(v, 'maxAccessDuration'),
    defaultAccessDuration: optionalText(v, 'defaultAccessDuration'),
  };
}

const DURATION_HINT = 'An ISO 8601 duration such as P90D (90 days) or PT12H; empty for no limit.';

export const environmentEditor: EditorKind<Schemas['Environment']> = {
  kind: 'environments',
  noun: 'environment',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'shortName', label: 'Short name', kind: 'text', required: true, immutable: true, hint: 'A letter, then letters or digits; part of every topic name.' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'instance', label: 'Instance', kind: 'choice', options: 'instances', required: true, immutable: true, empty: 'Choose an instance' },
    { name: 'owners', label: 'Owners', kind: 'choice', options: 'groups', required: true, empty: 'Choose a group' },
    { name: 'visibility', label: 'Visibility', kind: 'choice', options: [{ value: 'Public', label: 'Public' }, { value: 'Private', label: 'Private: owners and viewers only' }] },
    { name: 'viewers', label: 'Viewers', kind: 'many', options: 'groups' },
    {
      name: 'authorizationIssuer', label: 'Who approves access', kind: 'choice',
      options: [{ value: 'Stream owner', label: 'The stream\'s owners' }, { value: 'Auto', label: 'Approved automatically' }],
    },
    { name: 'successor', label: 'Promotes to', kind: 'choice', options: 'environments', empty: 'No next environment', hint: 'The next step of promotion (dev → acc → prod).' },
    { name: 'partitions', label: 'Partitions of a new stream config', kind: 'number' },
    { name: 'retentionTime', label: 'Retention of a new stream config (ms)', kind: 'number' },
    { name: 'maxAccessDuration', label: 'Longest access', kind: 'text', hint: DURATION_HINT },
    { name: 'defaultAccessDuration', label: 'Access without an end lasts', kind: 'text', hint: DURATION_HINT },
    { name: 'color', label: 'Colour', kind: 'text', hint: 'A hex colour such as #80affe.' },
  ],
  blank: () => ({
    name: '', shortName: '', description: '', instance: '', owners: '', visibility: 'Public', viewers: [], authorizationIssuer: 'Stream owner',
    successor: '', partitions: '', retentionTime: '', maxAccessDuration: '', defaultAccessDuration: '', color: '#80affe',
  }),
  valuesOf: (e) => ({
    name: e.name, shortName: e.shortName, description: e.description ?? '', instance: e._embedded?.instance?.uid ?? '', owners: e._embedded?.owners?.uid ?? '',
    visibility: e.visibility, viewers: (e._embedded?.viewers ?? []).map((g) => g.uid), authorizationIssuer: e.authorizationIssuer,
    successor: e._embedded?.successor?.uid ?? '', partitions: String(e.partitions), retentionTime: String(e.retentionTime),
    maxAccessDuration: e.maxAccessDuration ?? '', defaultAccessDuration: e.defaultAccessDuration ?? '', color: e.color,
  }),
  titleOf: (e) => e.name,
  load: (uid) => api.GET('/environments/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/environments', { body: body(v), headers }),
  update: (uid, v, changed, headers) => api.PATCH('/environments/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/environments/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/edit/environments/${uid}`,
  listAt: '/environments',
};
