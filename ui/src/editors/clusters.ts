/** Clusters: where Kafka runs, and the provider that manages it. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { lines, only, optionalText, textOf, type Values } from '../forms/values';

type Provider = 'APACHE_KAFKA' | 'AIVEN' | 'CONFLUENT_CLOUD';

function body(v: Values) {
  return {
    name: textOf(v, 'name'),
    description: optionalText(v, 'description'),
    location: optionalText(v, 'location'),
    bootstrapServers: lines(v, 'bootstrapServers'),
    schemaRegistryUrls: lines(v, 'schemaRegistryUrls'),
    providerType: textOf(v, 'providerType') as Provider,
    apiUrl: optionalText(v, 'apiUrl'),
  };
}

export const clusterEditor: EditorKind<Schemas['Cluster']> = {
  kind: 'clusters',
  noun: 'cluster',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'location', label: 'Location', kind: 'text' },
    { name: 'bootstrapServers', label: 'Bootstrap servers', kind: 'lines', required: true, hint: 'One host:port per line.' },
    { name: 'schemaRegistryUrls', label: 'Schema registry URLs', kind: 'lines', hint: 'One http(s) URL per line.' },
    {
      name: 'providerType', label: 'Provider', kind: 'choice',
      options: [{ value: 'APACHE_KAFKA', label: 'Apache Kafka' }, { value: 'AIVEN', label: 'Aiven' }, { value: 'CONFLUENT_CLOUD', label: 'Confluent Cloud' }],
    },
    { name: 'apiUrl', label: 'Provider API URL', kind: 'text' },
  ],
  blank: () => ({ name: '', description: '', location: '', bootstrapServers: '', schemaRegistryUrls: '', providerType: 'APACHE_KAFKA', apiUrl: '' }),
  valuesOf: (c) => ({
    name: c.name, description: c.description ?? '', location: c.location ?? '', bootstrapServers: c.bootstrapServers.join('\n'),
    schemaRegistryUrls: c.schemaRegistryUrls.join('\n'), providerType: c.providerType, apiUrl: c.apiUrl ?? '',
  }),
  titleOf: (c) => c.name,
  load: (uid) => api.GET('/clusters/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/clusters', { body: body(v), headers }),
  update: (uid, v, changed, headers) => api.PATCH('/clusters/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/clusters/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/edit/clusters/${uid}`,
  listAt: '/admin/clusters',
};
