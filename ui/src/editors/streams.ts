/** Streams: create, edit (not the name's uniqueness or an owners group the person is not in: the API decides), delete. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { listOf, only, optionalText, textOf, type Values } from '../forms/values';

const DATA_TYPES = ['String', 'AVRO', 'JSON', 'JSON_SCHEMA', 'PROTOBUF', 'Binary', 'Xml'] as const;
const SCHEMA_TYPES = new Set<string>(['AVRO', 'JSON_SCHEMA', 'PROTOBUF']);
const typeOptions = DATA_TYPES.map((t) => ({ value: t, label: t }));
type DataType = (typeof DATA_TYPES)[number];
type RetentionPolicy = 'delete' | 'compact' | 'compact,delete';

function body(v: Values) {
  const keyType = textOf(v, 'keyType') as DataType;
  const valueType = textOf(v, 'valueType') as DataType;
  return {
    name: textOf(v, 'name'),
    description: optionalText(v, 'description'),
    keyType,
    valueType,
    keySchema: SCHEMA_TYPES.has(keyType) ? optionalText(v, 'keySchema') : null,
    valueSchema: SCHEMA_TYPES.has(valueType) ? optionalText(v, 'valueSchema') : null,
    retentionPolicy: textOf(v, 'retentionPolicy') as RetentionPolicy,
    visibility: textOf(v, 'visibility') as 'Public' | 'Private',
    owners: textOf(v, 'owners'),
    viewers: listOf(v, 'viewers'),
  };
}

export const streamEditor: EditorKind<Schemas['Stream']> = {
  kind: 'streams',
  noun: 'stream',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true, hint: '3 to 180 letters, digits, dots, dashes or underscores.' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'owners', label: 'Owners', kind: 'choice', options: 'groups', required: true, empty: 'Choose a group', hint: 'The group that decides who may read and write this stream.' },
    { name: 'keyType', label: 'Key type', kind: 'choice', options: typeOptions, required: true },
    { name: 'keySchema', label: 'Key schema', kind: 'choice', options: 'schemas', empty: 'Choose a schema', shownWhen: (v) => SCHEMA_TYPES.has(textOf(v, 'keyType')) },
    { name: 'valueType', label: 'Value type', kind: 'choice', options: typeOptions, required: true },
    { name: 'valueSchema', label: 'Value schema', kind: 'choice', options: 'schemas', empty: 'Choose a schema', shownWhen: (v) => SCHEMA_TYPES.has(textOf(v, 'valueType')) },
    {
      name: 'retentionPolicy', label: 'Retention policy', kind: 'choice', empty: 'Delete (the default)',
      options: [{ value: 'delete', label: 'Delete old messages' }, { value: 'compact', label: 'Compact: keep the last of each key' }, { value: 'compact,delete', label: 'Compact and delete' }],
    },
    { name: 'visibility', label: 'Visibility', kind: 'choice', options: [{ value: 'Public', label: 'Public: everyone in the tenant sees it' }, { value: 'Private', label: 'Private: owners and viewers only' }] },
    { name: 'viewers', label: 'Viewers (groups that may see a private stream)', kind: 'many', options: 'groups' },
  ],
  blank: () => ({ name: '', description: '', owners: '', keyType: 'String', keySchema: '', valueType: 'AVRO', valueSchema: '', retentionPolicy: 'delete', visibility: 'Public', viewers: [] }),
  valuesOf: (s) => ({
    name: s.name, description: s.description ?? '', owners: s._embedded?.owners?.uid ?? '',
    keyType: s.keyType, keySchema: s._embedded?.keySchema?.uid ?? '', valueType: s.valueType, valueSchema: s._embedded?.valueSchema?.uid ?? '',
    retentionPolicy: s.retentionPolicy, visibility: s.visibility, viewers: (s._embedded?.viewers ?? []).map((g) => g.uid),
  }),
  titleOf: (s) => s.name,
  load: (uid) => api.GET('/streams/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/streams', { body: body(v), headers }),
  update: (uid, v, changed, headers) => {
    // A changed type carries its schema with it (a schema is only valid with a type that has one).
    const fields = new Set(changed);
    if (fields.has('keyType')) fields.add('keySchema');
    if (fields.has('valueType')) fields.add('valueSchema');
    return api.PATCH('/streams/{id}', { params: { path: { id: uid } }, body: only(body(v), fields), headers });
  },
  remove: (uid, headers) => api.DELETE('/streams/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/streams/${uid}`,
  listAt: '/streams',
};
