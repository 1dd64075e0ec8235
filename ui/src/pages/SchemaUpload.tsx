/**
 * Uploading a schema version, from a file or pasted: check it first (the API parses it and names the schema and its
 * versions so far), then upload. A parse error names its line and column; "Show in the text" puts the cursor there.
 */
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '@platform-management-service/client';
import { ApiFailure, api, read } from '../api';
import { Fields, type FormModel } from '../forms/fields';
import { fieldErrorOf, FormProblem, headers, written } from '../forms/Editor';
import { offsetOf, optionalText, positionOf, textOf, type Value, type Values } from '../forms/values';

type SchemaType = Schemas['SchemaType'];

const TYPES = [{ value: 'AVRO', label: 'Avro' }, { value: 'JSON_SCHEMA', label: 'JSON Schema' }, { value: 'PROTOBUF', label: 'Protobuf' }] as const;

/** The parser's messages of a 400 `Invalid schema`, each with where it points, if it says. */
function parseProblems(err: unknown): { text: string; at?: { line: number; column: number } }[] | undefined {
  if (!(err instanceof ApiFailure) || err.status !== 400 || !err.body?.errors?.some((e) => e.startsWith('schema: '))) return undefined;
  return err.body.errors.filter((e) => e.startsWith('schema: ')).map((e) => ({ text: e.slice('schema: '.length), at: positionOf(e) }));
}

export function SchemaUpload() {
  const id = useId();
  const { schema: existing } = useSearch({ from: '/schemas/upload' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const text = useRef<HTMLTextAreaElement>(null);
  const known = useQuery({
    queryKey: ['schemas', 'item', existing],
    queryFn: () => read(api.GET('/schemas/{id}', { params: { path: { id: existing! } } })),
    enabled: existing !== undefined,
  });
  const [values, setValues] = useState<Values>({ type: 'AVRO', version: '', description: '', owners: '' });
  const [schemaText, setSchemaText] = useState('');
  const [fileProblem, setFileProblem] = useState<string>();
  const type = (known.data?.type ?? textOf(values, 'type')) as SchemaType;
  const check = useMutation({
    mutationFn: () => read(api.POST('/schemas/check-parse', { body: { schema: schemaText, type }, headers: headers() })),
  });
  const upload = useMutation({
    mutationFn: () => written(api.POST('/schemas/upload', {
      body: {
        schema: schemaText, type, version: textOf(values, 'version'),
        description: optionalText(values, 'description'), ...(optionalText(values, 'owners') ? { owners: optionalText(values, 'owners') } : {}),
      },
      headers: headers(),
    })),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: ['schemas'] });
      void queryClient.invalidateQueries({ queryKey: ['schema_versions'] });
      if (result) void navigate({ to: '/schemas/$uid', params: { uid: result.schemaUid } });
    },
  });
  const lastError = upload.error ?? check.error;
  const problems = parseProblems(lastError);
  const form: FormModel = {
    id, values, existing: false,
    set: (field: string, value: Value) => setValues((v) => ({ ...v, [field]: value })),
    errorOf: (field) => fieldErrorOf(upload.error, field),
  };
  const changeText = (value: string) => {
    setSchemaText(value);
    check.reset();
    upload.reset();
  };
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileProblem(undefined);
    if (!file) return;
    if (file.size > 1_000_000) {
      setFileProblem(`${file.name} is ${Math.round(file.size / 1024)} KiB; a schema of at most 1 MB is accepted.`);
      return;
    }
    changeText(await file.text());
  };
  const showAt = (at: { line: number; column: number }) => {
    const area = text.current;
    if (!area) return;
    const offset = offsetOf(schemaText, at);
    area.focus();
    area.setSelectionRange(offset, Math.min(offset + 1, schemaText.length));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate();
  };
  const textError = problems ? undefined : fieldErrorOf(upload.error, 'schema');
  return (
    <>
      <h1>{known.data ? `Upload a version of ${known.data.name}` : 'Upload a schema'}</h1>
      <p className="meta">A new full name makes a new schema; the full name of one you have adds a version to it.</p>
      <form className="editor" onSubmit={submit} aria-label="Upload a schema version" noValidate>
        {!existing && <Fields specs={[{ name: 'type', label: 'Type', kind: 'choice', options: TYPES, required: true }]} form={form} />}
        <div className="field">
          <label htmlFor={`${id}-file`}>From a file</label>
          <input id={`${id}-file`} type="file" accept=".avsc,.json,.proto,.txt,application/json,text/plain" onChange={(e) => void readFile(e)}
            aria-describedby={fileProblem ? `${id}-file-error` : undefined} />
          {fileProblem && <p id={`${id}-file-error`} className="field-error">{fileProblem}</p>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-text`}>Schema text<span aria-hidden="true"> *</span></label>
          <textarea id={`${id}-text`} ref={text} className="code" rows={14} spellCheck={false} value={schemaText} onChange={(e) => changeText(e.target.value)}
            aria-invalid={problems || textError ? true : undefined} aria-describedby={problems ? `${id}-problems` : textError ? `${id}-text-error` : undefined} />
          {textError && <p id={`${id}-text-error`} className="field-error">{textError}</p>}
          {problems && (
            <div id={`${id}-problems`} className="field-error" role="alert">
              <p>The schema does not parse:</p>
              <ul>
                {problems.map((p) => (
                  <li key={p.text}>
                    {p.at ? <>Line {p.at.line}, column {p.at.column}: {p.text.replace(/^line \d+(, column \d+)?: /, '')} <button type="button" className="secondary" onClick={() => showAt(p.at!)}>Show in the text</button></> : p.text}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <div className="buttons">
          <button type="button" className="secondary" disabled={check.isPending || schemaText.trim() === ''} onClick={() => { upload.reset(); check.mutate(); }}>Check</button>
        </div>
        {check.data && (
          <p role="status" className="saved">
            It parses: {check.data.fullName}{check.data.version.length > 0 ? `, which has versions ${check.data.version.join(', ')}` : ', a new schema'}.
          </p>
        )}
        <Fields specs={[
          { name: 'version', label: 'Version', kind: 'text', required: true, hint: 'Such as 1.0.0; each version of a schema once.' },
          { name: 'description', label: 'Description', kind: 'textarea', rows: 2 },
          ...(existing ? [] : [{ name: 'owners', label: 'Owners (of a new schema)', kind: 'choice', options: 'groups', empty: 'No owners group' } as const]),
        ]} form={form} />
        {!problems && <FormProblem error={lastError} />}
        <button type="submit" disabled={upload.isPending}>{upload.isPending ? 'Uploading…' : 'Upload'}</button>
      </form>
    </>
  );
}
