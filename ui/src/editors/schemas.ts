/** A schema's description and owners (its versions come by upload, ../pages/SchemaUpload). */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { only, optionalText, type Values } from '../forms/values';

function body(v: Values) {
  return { description: optionalText(v, 'description'), owners: optionalText(v, 'owners') };
}

export const schemaEditor: EditorKind<Schemas['Schema']> = {
  kind: 'schemas',
  noun: 'schema',
  fields: [
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'owners', label: 'Owners', kind: 'choice', options: 'groups', empty: 'No owners group' },
  ],
  blank: () => ({ description: '', owners: '' }),
  valuesOf: (s) => ({ description: s.description ?? '', owners: s._embedded?.owners?.uid ?? s.owners?.uid ?? '' }),
  titleOf: (s) => s.name,
  load: (uid) => api.GET('/schemas/{id}', { params: { path: { id: uid } } }),
  update: (uid, v, changed, headers) => api.PATCH('/schemas/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/schemas/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/schemas/${uid}`,
  listAt: '/schemas',
};
