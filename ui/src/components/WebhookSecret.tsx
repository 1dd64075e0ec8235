/**
 * A webhook endpoint's signing secret. The API answers it only when it is made (the create) or replaced (a
 * rotation), so it is shown then, once, with the keyboard in it to copy; leaving the page or reloading it forgets it.
 * A rotation lets the previous secret sign beside the new one for an overlap, so the receiver can switch at its pace.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { api } from '../api';
import { forgetRevealed, revealedSecret } from '../editors/revealed-secrets';
import { fieldErrorOf, FormProblem, written } from '../forms/Editor';
import { when } from '../format';
import { useFocusOnOpen } from './focus';

interface Shown { secret: string; rotated?: { until: string | null } }

const OVERLAPS = [
  { value: 'PT1H', label: 'for an hour' }, { value: 'PT24H', label: 'for 24 hours' }, { value: 'P7D', label: 'for 7 days' },
  { value: 'PT0S', label: 'no longer: it stops now' },
];

export function WebhookSecret({ webhook, etag, reload }: { webhook: Schemas['Webhook']; etag?: string; reload: () => void }) {
  const [shown, setShown] = useState<Shown | undefined>(() => {
    const secret = revealedSecret(webhook.uid);
    return secret ? { secret } : undefined;
  });
  useEffect(() => { forgetRevealed(webhook.uid); }, [webhook.uid]);
  const [rotating, setRotating] = useState(false);
  // Back from the form without a rotation: the keyboard returns to the button that opened it.
  const [back, setBack] = useState(false);
  return (
    <section aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      {shown ? <SecretOnce key={shown.secret} shown={shown} /> : (
        <p className="meta">
          Each delivery is signed with it (Standard Webhooks). It is shown only when it is made.
          {webhook.previousSecretValidUntil && ` The previous secret still signs too, until ${when(webhook.previousSecretValidUntil)}.`}
        </p>
      )}
      {webhook._links.rotateSecret && (rotating
        ? <RotateForm uid={webhook.uid} etag={etag} reload={reload} onDone={(rotated) => { setRotating(false); setBack(!rotated); if (rotated) setShown(rotated); }} />
        : <button type="button" className="secondary" autoFocus={back} onClick={() => setRotating(true)}>Rotate secret…</button>)}
    </section>
  );
}

/** The secret in a read-only field, selected, with the keyboard on it: Ctrl+C copies it. */
function SecretOnce({ shown }: { shown: Shown }) {
  const field = useFocusOnOpen<HTMLInputElement>();
  const [copied, setCopied] = useState<boolean>();
  // The clipboard is there only in a secure context (https, localhost), and the browser may refuse it.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const until = shown.rotated?.until;
  return (
    <div className="secret">
      <p id="secret-once"><strong>Copy it now: it is not shown again.</strong> Your receiver verifies each delivery's signature with it.</p>
      <label htmlFor="secret-value">{shown.rotated ? 'New signing secret' : 'Signing secret'}</label>
      <div className="buttons">
        <input id="secret-value" ref={field} readOnly value={shown.secret} aria-describedby="secret-once" onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()}>Copy</button>
      </div>
      <p role="status">{copied === true ? 'Copied.' : copied === false ? 'The browser did not copy it: select it and copy it yourself.' : ''}</p>
      {shown.rotated && (
        <p>{until ? `The previous secret still signs each delivery until ${when(until)}.` : 'The previous secret no longer signs.'}</p>
      )}
    </div>
  );
}

function RotateForm({ uid, etag, reload, onDone }: { uid: string; etag?: string; reload: () => void; onDone: (shown?: Shown) => void }) {
  const queryClient = useQueryClient();
  const form = useFocusOnOpen<HTMLFormElement>();
  const [overlap, setOverlap] = useState('PT24H');
  const rotate = useMutation({
    mutationFn: () => written(api.POST('/webhooks/{id}/secret', {
      params: { path: { id: uid } }, body: { overlap }, headers: etag ? { 'If-Match': etag } : {},
    })),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      reload();
      if (answer) onDone({ secret: answer.secret, rotated: { until: answer.previousSecretValidUntil } });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate();
  };
  const error = fieldErrorOf(rotate.error, 'overlap');
  return (
    <form ref={form} onSubmit={submit} aria-label="Rotate the signing secret" noValidate>
      <label htmlFor="rotate-overlap">The previous secret keeps signing</label>
      <select id="rotate-overlap" value={overlap} onChange={(e) => setOverlap(e.target.value)}
        aria-invalid={error ? true : undefined} aria-describedby={error ? 'rotate-overlap-error' : 'rotate-overlap-hint'}>
        {OVERLAPS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <p id="rotate-overlap-hint" className="meta hint">Meanwhile each delivery carries both signatures, so the receiver can switch when it is ready.</p>
      {error && <p id="rotate-overlap-error" className="field-error">{error}</p>}
      {!error && <FormProblem error={rotate.error} onReload={() => { rotate.reset(); reload(); }} />}
      <div className="buttons">
        <button type="submit" disabled={rotate.isPending}>{rotate.isPending ? 'Rotating…' : 'Rotate secret'}</button>
        <button type="button" className="secondary" onClick={() => onDone()}>Keep the current one</button>
      </div>
    </form>
  );
}
