/** Groups: their name and contact, and their members (added by e-mail address, removed one by one). */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api, read } from '../api';
import type { EditorKind } from '../forms/editor-kind';
import { fieldErrorOf, FormProblem, headers, written } from '../forms/Editor';
import { FormRefusal, only, optionalText, textOf, type Values } from '../forms/values';

type Group = Schemas['Group'];

function body(v: Values) {
  return { name: textOf(v, 'name'), emailAddress: optionalText(v, 'emailAddress'), phoneNumber: optionalText(v, 'phoneNumber') };
}

export const groupEditor: EditorKind<Group> = {
  kind: 'groups',
  noun: 'group',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'emailAddress', label: 'E-mail address', kind: 'email' },
    { name: 'phoneNumber', label: 'Phone number', kind: 'text' },
  ],
  blank: () => ({ name: '', emailAddress: '', phoneNumber: '' }),
  valuesOf: (g) => ({ name: g.name, emailAddress: g.emailAddress?.email ?? '', phoneNumber: g.phoneNumber ?? '' }),
  titleOf: (g) => g.name,
  load: (uid) => api.GET('/groups/{id}', { params: { path: { id: uid } } }),
  create: (v, h) => api.POST('/groups', { body: body(v), headers: h }),
  update: (uid, v, changed, h) => api.PATCH('/groups/{id}', { params: { path: { id: uid } }, body: only(body(v), changed), headers: h }),
  remove: (uid, h) => api.DELETE('/groups/{id}', { params: { path: { id: uid } }, headers: h }),
  shownAt: (uid) => `/edit/groups/${uid}`,
  listAt: '/admin/groups',
  more: (group, etag, reload) => <Members group={group} etag={etag} reload={reload} />,
};

/** The members: the whole list is written back with the version it was read at, so two admins cannot lose a change. */
function Members({ group, etag, reload }: { group: Group; etag: string | undefined; reload: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const members = group._embedded?.members ?? [];
  const mayEdit = group._links.edit !== undefined;
  const change = useMutation({
    mutationFn: async (next: { add?: string; remove?: string }) => {
      let uids = members.map((m) => m.uid);
      if (next.add) {
        const found = await read(api.GET('/users/search/findByEmailAddress', { params: { query: { email: next.add } } }));
        const user = found._embedded.users[0];
        if (!user) throw new FormRefusal([{ field: 'email', message: `Nobody in this tenant has the address ${next.add}` }]);
        if (uids.includes(user.uid)) throw new FormRefusal([{ field: 'email', message: `${user.fullName} is a member already` }]);
        uids = [...uids, user.uid];
      }
      if (next.remove) uids = uids.filter((u) => u !== next.remove);
      await written(api.PATCH('/groups/{id}', { params: { path: { id: group.uid } }, body: { members: uids }, headers: headers(etag) }));
    },
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: ['groups'] });
      reload();
    },
  });
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) change.mutate({ add: email.trim() });
  };
  const emailError = fieldErrorOf(change.error, 'email');
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {members.length === 0 ? <p className="state">No members yet.</p> : (
        <ul className="cards">
          {members.map((m) => (
            <li key={m.uid}>
              {m.fullName} <span className="meta">{m.emailAddress?.email}</span>
              {mayEdit && <button type="button" className="secondary" disabled={change.isPending} aria-label={`Remove ${m.fullName}`} onClick={() => change.mutate({ remove: m.uid })}>Remove</button>}
            </li>
          ))}
        </ul>
      )}
      {mayEdit && (
        <form onSubmit={add} aria-label="Add a member" noValidate>
          <label htmlFor="member-email">Add a member by e-mail address</label>
          <input id="member-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)}
            aria-invalid={emailError ? true : undefined} aria-describedby={emailError ? 'member-email-error' : undefined} />
          {emailError && <p id="member-email-error" className="field-error">{emailError}</p>}
          <button type="submit" disabled={change.isPending}>Add</button>
        </form>
      )}
      {!emailError && <FormProblem error={change.error} onReload={reload} />}
    </section>
  );
}
