/** Users of the tenant (tenant admins): names, e-mail address, roles; a first password for the embedded sign-in. */
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { listOf, only, optionalText, textOf, type Values } from '../forms/values';

type RoleName = Schemas['RoleName'];
const ROLES: { value: RoleName; label: string }[] = [
  { value: 'TENANT_ADMIN', label: 'Tenant admin' },
  { value: 'STREAM_ADMIN', label: 'Stream admin' }, { value: 'STREAM_AUTHOR', label: 'Stream author' },
  { value: 'APPLICATION_ADMIN', label: 'Application admin' }, { value: 'APPLICATION_AUTHOR', label: 'Application author' },
  { value: 'ENVIRONMENT_ADMIN', label: 'Environment admin' }, { value: 'ENVIRONMENT_AUTHOR', label: 'Environment author' },
  { value: 'SCHEMA_ADMIN', label: 'Schema admin' }, { value: 'SCHEMA_AUTHOR', label: 'Schema author' },
];

function body(v: Values) {
  const password = textOf(v, 'password');
  return {
    firstName: textOf(v, 'firstName'),
    middleName: optionalText(v, 'middleName'),
    lastName: textOf(v, 'lastName'),
    emailAddress: textOf(v, 'emailAddress'),
    phoneNumber: optionalText(v, 'phoneNumber'),
    roles: listOf(v, 'roles') as RoleName[],
    ...(password ? { password } : {}),
  };
}

export const userEditor: EditorKind<Schemas['User']> = {
  kind: 'users',
  noun: 'user',
  fields: [
    { name: 'firstName', label: 'First name', kind: 'text', required: true },
    { name: 'middleName', label: 'Middle name', kind: 'text' },
    { name: 'lastName', label: 'Last name', kind: 'text', required: true },
    { name: 'emailAddress', label: 'E-mail address', kind: 'email', required: true },
    { name: 'phoneNumber', label: 'Phone number', kind: 'text' },
    { name: 'roles', label: 'Roles', kind: 'many', options: ROLES },
    { name: 'password', label: 'First password', kind: 'password', createOnly: true, hint: '8 to 128 characters; the user signs in with it. Empty: they set one through a reset.' },
  ],
  blank: () => ({ firstName: '', middleName: '', lastName: '', emailAddress: '', phoneNumber: '', roles: ['APPLICATION_AUTHOR', 'ENVIRONMENT_AUTHOR', 'STREAM_AUTHOR'], password: '' }),
  valuesOf: (u) => ({
    firstName: u.firstName, middleName: u.middleName ?? '', lastName: u.lastName, emailAddress: u.emailAddress?.email ?? '', phoneNumber: u.phoneNumber ?? '',
    roles: u.roles.map((r) => r.name),
  }),
  titleOf: (u) => u.fullName,
  load: (uid) => api.GET('/users/{id}', { params: { path: { id: uid } } }),
  create: (v, headers) => api.POST('/users', { body: body(v), headers }),
  update: (uid, v, changed, headers) => api.PATCH('/users/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers }),
  remove: (uid, headers) => api.DELETE('/users/{id}', { params: { path: { id: uid } }, headers }),
  shownAt: (uid) => `/edit/users/${uid}`,
  listAt: '/admin/users',
};
