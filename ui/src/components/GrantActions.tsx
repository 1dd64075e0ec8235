/**
 * What the person may do to a grant, exactly the actions its `_links` offer them: approve, deny or revoke with a
 * reason the requester sees, cancel their own request. A refusal of the API shows beside the buttons.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiFailure, api, failureText, read } from '../api';
import { useFocusOnOpen } from './focus';

type Action = 'approve' | 'deny' | 'revoke' | 'cancel';

export function GrantActions({ grant, label }: { grant: { uid: string; _links?: Record<string, unknown> }; label: string }) {
  const queryClient = useQueryClient();
  const offered = new Set(Object.keys(grant._links ?? {}));
  const [asking, setAsking] = useState<'deny' | 'revoke' | null>(null);
  const [reason, setReason] = useState('');
  const act = useMutation({
    mutationFn: async ({ action, why }: { action: Action; why?: string }) => {
      const path = { params: { path: { id: grant.uid } } };
      const body = { reason: why?.trim() ? why.trim() : null };
      switch (action) {
        case 'approve': return read(api.PUT('/application_access_grants/{id}', path));
        case 'deny': return read(api.POST('/application_access_grants/{id}/deny', { ...path, body }));
        case 'revoke': return read(api.POST('/application_access_grants/{id}/revoke', { ...path, body }));
        case 'cancel': {
          const { response, error } = await api.DELETE('/application_access_grants/{id}', path);
          if (!response.ok) throw new ApiFailure(response.status, error);
          return null;
        }
      }
    },
    onSuccess: () => {
      setAsking(null);
      setReason('');
      void queryClient.invalidateQueries({ queryKey: ['grants'] });
      void queryClient.invalidateQueries({ queryKey: ['graph'] });
    },
  });
  const submitReason = (event: FormEvent) => {
    event.preventDefault();
    if (asking) act.mutate({ action: asking, why: reason });
  };
  const any = ['approve', 'deny', 'revoke', 'cancel'].some((a) => offered.has(a));
  if (!any) return null;
  const reasonId = `reason-${grant.uid}`;
  return (
    <div className="actions">
      {asking ? (
        <ReasonForm onSubmit={submitReason} label={`${asking === 'deny' ? 'Deny' : 'Revoke'} ${label}`}>
          <label htmlFor={reasonId}>Reason (the requester sees it)</label>
          <textarea id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={1000} />
          <div className="buttons">
            <button type="submit" disabled={act.isPending}>{asking === 'deny' ? 'Deny' : 'Revoke'}</button>
            <button type="button" className="secondary" onClick={() => setAsking(null)}>Back</button>
          </div>
        </ReasonForm>
      ) : (
        <div className="buttons">
          {offered.has('approve') && <button type="button" disabled={act.isPending} aria-label={`Approve ${label}`} onClick={() => act.mutate({ action: 'approve' })}>Approve</button>}
          {offered.has('deny') && <button type="button" className="secondary" aria-label={`Deny ${label}`} onClick={() => setAsking('deny')}>Deny…</button>}
          {offered.has('revoke') && <button type="button" className="secondary" aria-label={`Revoke ${label}`} onClick={() => setAsking('revoke')}>Revoke…</button>}
          {offered.has('cancel') && <button type="button" className="secondary" disabled={act.isPending} aria-label={`Cancel ${label}`} onClick={() => act.mutate({ action: 'cancel' })}>Cancel request</button>}
        </div>
      )}
      {act.isError && <p className="field-error" role="alert">{failureText(act.error)}</p>}
    </div>
  );
}

/** The reason's form, focused as it opens (it takes the place of the button that opened it). */
function ReasonForm({ onSubmit, label, children }: { onSubmit: (event: FormEvent) => void; label: string; children: React.ReactNode }) {
  const ref = useFocusOnOpen<HTMLFormElement>();
  return <form ref={ref} onSubmit={onSubmit} aria-label={label}>{children}</form>;
}
