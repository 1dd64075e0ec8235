/** Applications: who owns them and who may see them, their kind; the application id, name and short name are unique. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { listOf, only, optionalText, textOf, type Values } from '../forms/values';

type ApplicationType = 'Custom' | 'Connector' | 'Ksml';
type Kind = Schemas['ApplicationFields']['type'];
const KINDS = ['Java', 'Kafka Streams', 'Pega', 'SAP', 'DotNet', 'Bridge', 'Python', 'Other'] as const;

function body(v: Values) {
  return {
    applicationId: textOf(v, 'applicationId'),
    name: textOf(v, 'name'),
    shortName: textOf(v, 'shortName'),
    description: optionalText(v, 'description'),
    applicationType: textOf(v, 'applicationType') as ApplicationType,
    type: optionalText(v, 'type') as Kind,
    applicationClass: optionalText(v, 'applicationClass'),
    visibility: textOf(v, 'visibility') as 'Public' | 'Private',
    owners: textOf(v, 'owners'),
    viewers: listOf(v, 'viewers'),
  };
}

export const applicationEditor: EditorKind<Schemas['Application']> = {
  kind: 'applications',
  noun: 'application',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'shortName', label: 'Short name', kind: 'text', required: true, hint: 'Lowercase letters, digits and underscores, 3 to 60.' },
    { name: 'applicationId', label: 'Application id', kind: 'text', required: true, hint: 'The id the application uses towards Kafka (its client id).' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'owners', label: 'Owners', kind: 'choice', options: 'groups', required: true, empty: 'Choose a group' },
    {
      name: 'applicationType', label: 'Application type', kind: 'choice', required: true, immutable: true,
      options: [{ value: 'Custom', label: 'Custom' }, { value: 'Connector', label: 'Connector' }, { value: 'Ksml', label: 'KSML' }],
    },
    { name: 'type', label: 'Kind', kind: 'choice', options: KINDS.map((k) => ({ value: k, label: k })), shownWhen: (v) => textOf(v, 'applicationType') === 'Custom' },
    { name: 'applicationClass', label: 'Connector class', kind: 'text', required: true, shownWhen: (v) => textOf(v, 'applicationType') === 'Connector' },
    { name: 'visibility', label: 'Visibility', kind: 'choice', options: [{ value: 'Public', label: 'Public' }, { value: 'Private', label: 'Private: owners and viewers only' }] },
    { name: 'viewers', label: 'Viewers', kind: 'many', options: 'groups' },
  ],
  blank: () => ({ name: '', shortName: '', applicationId: '', description: '', owners: '', applicationType: 'Custom', type: 'Java', applicationClass: '', visibility: 'Public', viewers: [] }),
  valuesOf: (a) => ({
    name: a.name, shortName: a.shortName, applicationId: a.applicationId, description: a.description ?? '', owners: a._embedded?.owners?.uid ?? a.owners?.uid ?? '',
    applicationType: a.applicationType, type: a.type ?? '', applicationClass: a.applicationClass ?? '', visibility: a.visibility,
    viewers: (a._embedded?.viewers ?? []).map((g) => g.uid),
  }),
  titleOf: (a) => a.name,
  load: (uid) => api.GET('/applications/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/applications', { body: body(v), headers }),
  update: (uid, v, changed, headers) => api.PATCH('/applications/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/applications/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/applications/${uid}`,
  listAt: '/applications',
};
