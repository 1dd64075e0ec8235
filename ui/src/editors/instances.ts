/** Instances: the clusters they run on and the topic names they give. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { flagOf, listOf, only, optionalText, textOf, type Values } from '../forms/values';

function body(v: Values) {
  return {
    name: textOf(v, 'name'),
    shortName: textOf(v, 'shortName'),
    description: optionalText(v, 'description'),
    topicNamePattern: textOf(v, 'topicNamePattern'),
    clusters: listOf(v, 'clusters'),
    supportTier: optionalText(v, 'supportTier'),
    granularBrowsePermission: flagOf(v, 'granularBrowsePermission'),
    connectEnabled: flagOf(v, 'connectEnabled'),
  };
}

export const instanceEditor: EditorKind<Schemas['Instance']> = {
  kind: 'instances',
  noun: 'instance',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'shortName', label: 'Short name', kind: 'text', required: true, immutable: true, hint: 'A lowercase letter, then lowercase letters or digits; part of every topic name.' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'topicNamePattern', label: 'Topic name pattern', kind: 'text', hint: 'Of {tenant}, {instance}, {environment} and {stream}, which must be there.' },
    { name: 'clusters', label: 'Clusters', kind: 'many', options: 'clusters' },
    { name: 'supportTier', label: 'Support tier', kind: 'choice', options: 'supportTiers' },
    { name: 'granularBrowsePermission', label: 'Browse permissions per stream', kind: 'check' },
    { name: 'connectEnabled', label: 'Connectors may run here', kind: 'check' },
  ],
  blank: () => ({
    name: '', shortName: '', description: '', topicNamePattern: '{tenant}-{instance}-{environment}-{stream}', clusters: [], supportTier: '',
    granularBrowsePermission: false, connectEnabled: true,
  }),
  valuesOf: (i) => ({
    name: i.name, shortName: i.shortName, description: i.description ?? '', topicNamePattern: i.topicNamePattern,
    clusters: (i._embedded?.clusters ?? []).map((c) => c.uid), supportTier: i._embedded?.supportTier?.uid ?? '',
    granularBrowsePermission: i.granularBrowsePermission, connectEnabled: i.connectEnabled,
  }),
  titleOf: (i) => i.name,
  load: (uid) => api.GET('/instances/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/instances', { body: body(v), headers }),
  update: (uid, v, changed, headers) => api.PATCH('/instances/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/instances/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/edit/instances/${uid}`,
  listAt: '/admin/instances',
};
