/**
 * Users as other resources reference them (group members, managers…). Read-only for now: the users endpoints
 * (CONTRACT §5.2) come with their own issue; until then this descriptor only resolves and renders references.
 */
import { emailOutput } from './_lib/email';
import type { Resource } from './_lib/resource';

const no = () => false;

export const userResource: Resource = {
  collection: 'users',
  itemRel: 'user',
  model: (m) => m.User,
  auditType: 'User',
  auditName: (row) => row.email,
  fields: [
    { name: 'firstName' },
    { name: 'middleName' },
    { name: 'lastName' },
    { name: 'emailAddress', attribute: 'email', output: emailOutput },
    { name: 'phoneNumber' },
    { name: 'roles', kind: 'list', output: (v) => ((v as string[] | null) ?? []).map((name) => ({ name })) },
  ],
  associations: [],
  searches: [],
  policy: { canCreate: no, canEdit: no, canDelete: no },
};
