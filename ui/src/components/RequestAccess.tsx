/**
 * Asking for access to a stream in one environment: one of my applications, producer or consumer, and how long,
 * within the environment's maximum (shown). The API's refusals appear next to the field they name.
 */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiFailure, api, failureText, read } from '../api';
import { durationInWords } from '../grant-status';
import { myApplicationsQuery } from '../queries';
import { useFocusOnOpen } from './focus';

type Length = 'default' | 'days' | 'until';

export function RequestAccess({ streamUid, environment }: { streamUid: string; environment: { uid: string; name: string } }) {
  const id = useId();
  const opened = useFocusOnOpen<HTMLFormElement>();
  const queryClient = useQueryClient();
  const apps = useQuery(myApplicationsQuery(0, 100));
  const env = useQuery({
    queryKey: ['environments', 'item', environment.uid],
    queryFn: () => read(api.GET('/environments/{id}', { params: { path: { id: environment.uid } } })),
  });
  const [application, setApplication] = useState('');
  const [accessType, setAccessType] = useState<'CONSUMER' | 'PRODUCER'>('CONSUMER');
  const [length, setLength] = useState<Length>('default');
  const [days, setDays] = useState('30');
  const [until, setUntil] = useState('');
  const ask = useMutation({
    mutationFn: () => read(api.POST('/application_access_grants', {
      body: {
        applicationId: application, streamId: streamUid, environmentId: environment.uid, accessType,
        ...(length === 'days' ? { validFor: `P${days.trim()}D` } : {}),
        ...(length === 'until' && until ? { expiresAt: new Date(`${until}T23:59:59`).toISOString() } : {}),
      },
    })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['grants'] });
      void queryClient.invalidateQueries({ queryKey: ['graph'] });
    },
  });
  const failure = ask.error instanceof ApiFailure ? ask.error : undefined;
  const fieldError = (field: string) => failure?.fieldError(field);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    ask.mutate();
  };
  const max = env.data?.maxAccessDuration;
  const fallback = env.data?.defaultAccessDuration;
  const error = (field: string) => {
    const message = fieldError(field);
    return message ? <p id={`${id}-${field}-error`} className="field-error">{message}</p> : null;
  };
  const described = (field: string) => (fieldError(field) ? `${id}-${field}-error` : undefined);
  if (ask.isSuccess) {
    return <p role="status" className="state">Requested: {ask.data.status}. The stream's owners decide; My work shows the answer.</p>;
  }
  return (
    <form ref={opened} className="request" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h4 id={`${id}-title`}>Request access in {environment.name}</h4>
      <label htmlFor={`${id}-app`}>Application</label>
      {apps.isPending ? <p className="state">Loading your applications…</p> : apps.isError ? <p className="field-error">{failureText(apps.error)}</p>
        : apps.data._embedded.applications.length === 0 ? <p className="state">You own no application: create one first.</p> : (
          <select id={`${id}-app`} value={application} onChange={(e) => setApplication(e.target.value)} required
            aria-invalid={fieldError('applicationId') ? true : undefined} aria-describedby={described('applicationId')}>
            <option value="">Choose one of your applications</option>
            {apps.data._embedded.applications.map((a) => <option key={a.uid} value={a.uid}>{a.name} ({a.shortName})</option>)}
          </select>
        )}
      {error('applicationId')}
      <fieldset>
        <legend>Access</legend>
        <label className="inline"><input type="radio" name={`${id}-type`} checked={accessType === 'CONSUMER'} onChange={() => setAccessType('CONSUMER')} /> Consumer (read)</label>
        <label className="inline"><input type="radio" name={`${id}-type`} checked={accessType === 'PRODUCER'} onChange={() => setAccessType('PRODUCER')} /> Producer (write)</label>
      </fieldset>
      <fieldset aria-describedby={`${id}-limit`}>
        <legend>For how long</legend>
        <p id={`${id}-limit`} className="meta">
          {env.isPending ? 'Reading the environment\'s limit…' : max ? `At most ${durationInWords(max)} in ${environment.name}.` : `No limit in ${environment.name}.`}
          {fallback ? ` Without an end, ${durationInWords(fallback)}.` : ''}
        </p>
        <label className="inline"><input type="radio" name={`${id}-length`} checked={length === 'default'} onChange={() => setLength('default')} /> {fallback ? 'The environment\'s default' : 'No end'}</label>
        <label className="inline"><input type="radio" name={`${id}-length`} checked={length === 'days'} onChange={() => setLength('days')} /> A number of days</label>
        <label className="inline"><input type="radio" name={`${id}-length`} checked={length === 'until'} onChange={() => setLength('until')} /> Until a date</label>
        {length === 'days' && (
          <>
            <label htmlFor={`${id}-days`}>Days</label>
            <input id={`${id}-days`} inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)}
              aria-invalid={fieldError('validFor') ? true : undefined} aria-describedby={described('validFor')} />
            {error('validFor')}
          </>
        )}
        {length === 'until' && (
          <>
            <label htmlFor={`${id}-until`}>Until</label>
            <input id={`${id}-until`} type="date" value={until} onChange={(e) => setUntil(e.target.value)}
              aria-invalid={fieldError('expiresAt') ? true : undefined} aria-describedby={described('expiresAt')} />
            {error('expiresAt')}
          </>
        )}
      </fieldset>
      {ask.isError && !failure?.body?.subErrors?.length && <p className="field-error" role="alert">{failureText(ask.error)}</p>}
      {failure?.body?.subErrors?.length ? <p className="field-error" role="alert">Some fields need another value: see the fields above.</p> : null}
      <button type="submit" disabled={ask.isPending || !application}>{ask.isPending ? 'Requesting…' : 'Request access'}</button>
    </form>
  );
}
