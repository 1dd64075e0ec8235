/**
 * A stream's config in one environment: deploy the stream there (partitions, retention, pinned schema versions),
 * change it, or take it away. Pinning a version that cannot read the data of the version pinned now is refused by
 * the API with its reasons; they are listed, and the person may save anyway, knowingly.
 */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { ApiFailure, api } from '../api';
import { Fields, type FieldSpec, type FormModel } from '../forms/fields';
import { Confirm, fieldErrorOf, FormProblem, headers, written } from '../forms/Editor';
import { useFocusOnOpen } from './focus';
import { optionsQuery, schemaVersionOptionsQuery } from '../forms/options';
import { changedFields, optionalText, textOf, wholeNumber, type Value, type Values } from '../forms/values';

type Stream = Schemas['Stream'];
type Config = Schemas['StreamConfig'];

const SCHEMA_TYPES = new Set<string>(['AVRO', 'JSON_SCHEMA', 'PROTOBUF']);

/** The 422 of an incompatible pin: the API's sentence first, then one entry per reason. */
export function incompatibility(err: unknown): { message: string; reasons: string[] } | undefined {
  if (!(err instanceof ApiFailure) || err.status !== 422 || !/not backward compatible/.test(err.message)) return undefined;
  return { message: err.message, reasons: (err.body?.errors ?? []).slice(1) };
}

function useVersionOptions(schemaUid: string | undefined) {
  return useQuery({ ...schemaVersionOptionsQuery(schemaUid ?? ''), enabled: schemaUid !== undefined });
}

function valuesOf(c: Config | undefined): Values {
  return {
    environment: c?._embedded?.environment?.uid ?? '',
    partitions: c ? String(c.partitions) : '',
    retentionTime: c ? String(c.retentionTime) : '',
    keySchemaVersion: c?._embedded?.keySchemaVersion?.uid ?? '',
    valueSchemaVersion: c?._embedded?.valueSchemaVersion?.uid ?? '',
  };
}

export function StreamConfigForm({ stream, config, etag, onDone, reload }: { stream: Stream; config?: Config; etag?: string; onDone: () => void; reload?: () => void }) {
  const id = useId();
  const opened = useFocusOnOpen<HTMLFormElement>();
  const queryClient = useQueryClient();
  const initial = valuesOf(config);
  const [values, setValues] = useState<Values>(initial);
  const [force, setForce] = useState(false);
  const keySchema = SCHEMA_TYPES.has(stream.keyType) ? stream._embedded?.keySchema?.uid : undefined;
  const valueSchema = SCHEMA_TYPES.has(stream.valueType) ? stream._embedded?.valueSchema?.uid : undefined;
  const keyVersions = useVersionOptions(keySchema);
  const valueVersions = useVersionOptions(valueSchema);
  const environments = useQuery({ ...optionsQuery('environments'), enabled: !config });
  const fields: FieldSpec[] = [
    ...(config ? [] : [{ name: 'environment', label: 'Environment', kind: 'choice', required: true, empty: 'Choose an environment', options: environments.data ?? [] } as const]),
    { name: 'partitions', label: 'Partitions', kind: 'number', immutable: true, hint: config ? 'Partitions cannot change once the topic exists.' : 'Empty: the environment\'s default.' },
    { name: 'retentionTime', label: 'Retention (ms)', kind: 'number', hint: 'Empty: the environment\'s default.' },
    ...(keySchema ? [{ name: 'keySchemaVersion', label: 'Pinned key schema version', kind: 'choice', empty: 'None pinned', options: keyVersions.data ?? [] } as const] : []),
    ...(valueSchema ? [{ name: 'valueSchemaVersion', label: 'Pinned value schema version', kind: 'choice', empty: 'None pinned', options: valueVersions.data ?? [] } as const] : []),
  ];
  const save = useMutation({
    mutationFn: async () => {
      const pins = {
        ...(keySchema ? { keySchemaVersion: optionalText(values, 'keySchemaVersion') } : {}),
        ...(valueSchema ? { valueSchemaVersion: optionalText(values, 'valueSchemaVersion') } : {}),
      };
      const retentionTime = wholeNumber(values, 'retentionTime', 'Retention');
      if (!config) {
        const partitions = wholeNumber(values, 'partitions', 'Partitions');
        await written(api.POST('/stream_configs', {
          body: { stream: stream.uid, environment: textOf(values, 'environment'), ...(partitions !== undefined ? { partitions } : {}), ...(retentionTime !== undefined ? { retentionTime } : {}), ...pins },
          headers: headers(),
        }));
        return;
      }
      const changed = changedFields(initial, values);
      await written(api.PATCH('/stream_configs/{id}', {
        params: { path: { id: config.uid } },
        body: {
          ...(changed.has('retentionTime') ? { retentionTime: retentionTime ?? null } : {}),
          ...Object.fromEntries(Object.entries(pins).filter(([k]) => changed.has(k))),
          ...(force ? { force: true } : {}),
        },
        headers: headers(etag),
      }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['stream_configs'] });
      void queryClient.invalidateQueries({ queryKey: ['graph'] });
      onDone();
    },
  });
  const form: FormModel = {
    id, values, existing: config !== undefined,
    set: (field: string, value: Value) => setValues((v) => ({ ...v, [field]: value })),
    errorOf: (field) => fieldErrorOf(save.error, field),
  };
  const incompatible = incompatibility(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = config ? `Change the config in ${config._embedded?.environment?.name ?? 'this environment'}` : 'Deploy to another environment';
  return (
    <form ref={opened} className="editor request" onSubmit={submit} aria-label={title} noValidate>
      <h3>{title}</h3>
      <fieldset className="plain" disabled={save.isPending}><Fields specs={fields} form={form} /></fieldset>
      {incompatible ? (
        <div className="field-error problem" role="alert">
          <p>{incompatible.message.replace(/; retry with force=true$/, '.')}</p>
          {incompatible.reasons.length > 0 && <ul>{incompatible.reasons.map((r) => <li key={r}>{r}</li>)}</ul>}
          <label className="inline"><input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Pin it anyway: consumers may fail to read older messages</label>
        </div>
      ) : <FormProblem error={save.error} onReload={reload} />}
      <div className="buttons">
        <button type="submit" disabled={save.isPending}>{config ? 'Save config' : 'Deploy'}</button>
        <button type="button" className="secondary" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

/** Take the stream out of an environment; refused, with the API's reason, while access there is open. */
export function UndeployConfig({ config, etag }: { config: Config; etag?: string }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => written(api.DELETE('/stream_configs/{id}', { params: { path: { id: config.uid } }, headers: headers(etag) })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['stream_configs'] });
      void queryClient.invalidateQueries({ queryKey: ['graph'] });
    },
  });
  const where = config._embedded?.environment?.name ?? 'this environment';
  return (
    <div className="actions">
      {asking ? (
        <Confirm question={`Remove the topic ${config.topicName} from ${where}?`} yes={`Remove from ${where}`} busy={remove.isPending}
          onYes={() => remove.mutate()} onNo={() => { setAsking(false); remove.reset(); }} />
      ) : <button type="button" className="secondary" onClick={() => setAsking(true)}>Remove from {where}…</button>}
      {remove.isError && (remove.error instanceof ApiFailure && remove.error.status === 422
        ? <p className="field-error" role="alert">It cannot be removed yet: {remove.error.message}</p>
        : <FormProblem error={remove.error} />)}
    </div>
  );
}
