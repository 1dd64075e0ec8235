/** A schema's description, owners and compatibility mode (its versions come by upload, ../pages/SchemaUpload). */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { only, optionalText, type Values } from '../forms/values';

type Mode = NonNullable<Schemas['Schema']['compatibility']>;

/** The modes as Confluent names them, each with what it asks of a new version. */
const MODES: { value: Mode; label: string }[] = [
  { value: 'NONE', label: 'None: every version is stored' },
  { value: 'BACKWARD', label: 'Backward: reads the latest version\'s data' },
  { value: 'BACKWARD_TRANSITIVE', label: 'Backward, transitive: reads every earlier version\'s data' },
  { value: 'FORWARD', label: 'Forward: the latest version reads its data' },
  { value: 'FORWARD_TRANSITIVE', label: 'Forward, transitive: every earlier version reads its data' },
  { value: 'FULL', label: 'Full: both, with the latest version' },
  { value: 'FULL_TRANSITIVE', label: 'Full, transitive: both, with every earlier version' },
];

function body(v: Values) {
  return { description: optionalText(v, 'description'), owners: optionalText(v, 'owners'), compatibility: (optionalText(v, 'compatibility') ?? 'NONE') as Mode };
}

export const schemaEditor: EditorKind<Schemas['Schema']> = {
  kind: 'schemas',
  noun: 'schema',
  fields: [
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'owners', label: 'Owners', kind: 'choice', options: 'groups', empty: 'No owners group' },
    { name: 'compatibility', label: 'Compatibility', kind: 'choice', options: MODES, hint: 'How a new version is judged before it is stored.' },
  ],
  blank: () => ({ description: '', owners: '', compatibility: 'NONE' }),
  valuesOf: (s) => ({ description: s.description ?? '', owners: s._embedded?.owners?.uid ?? s.owners?.uid ?? '', compatibility: s.compatibility ?? 'NONE' }),
  titleOf: (s) => s.name,
  load: (uid) => api.GET('/schemas/{id}', { params: { path: { id: uid } } }),
  update: (uid, v, changed, headers) => api.PATCH('/schemas/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/schemas/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/schemas/${uid}`,
  listAt: '/schemas',
};
