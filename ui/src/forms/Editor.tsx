/**
 * The one editor of every resource: create (uid `new`) or edit an item, and delete it. A refusal of the API appears
 * next to the field it names; a version conflict (412: someone saved in between) says so and offers a reload; a
 * delete the API refuses because the item is still in use shows the API's reason, in its words.
 */
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiFailure, failureText } from '../api';
import { Failed, Loading } from '../components/states';
import { useFocusOnOpen } from '../components/focus';
import { Fields, type FormModel } from './fields';
import type { Call, EditorKind, WriteHeaders } from './editor-kind';
import { changedFields, FormRefusal, type Value, type Values } from './values';

/** The data of a write, or its refusal (an ApiFailure, as reads throw). */
export async function written<T>(call: Call<T>): Promise<T | undefined> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiFailure(response.status, error as never);
  return data;
}

/** An item with the version it was read at (its ETag), which every write of it sends back as If-Match. */
export async function withTag<T>(call: Call<T>): Promise<{ item: T; etag: string | undefined }> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ApiFailure(response.status, error as never);
  return { item: data, etag: response.headers.get('ETag') ?? undefined };
}

export function headers(etag?: string): WriteHeaders {
  return etag ? { 'If-Match': etag, Prefer: 'handling=strict' } : { Prefer: 'handling=strict' };
}

/** The message a field shows: the API's sub-error for it, or the form's own refusal. */
export function fieldErrorOf(err: unknown, field: string): string | undefined {
  if (err instanceof ApiFailure) return err.fieldError(field);
  if (err instanceof FormRefusal) return err.subErrors.find((e) => e.field === field)?.message;
  return undefined;
}

export function FormProblem({ error, onReload }: { error: unknown; onReload?: () => void }) {
  if (!error) return null;
  if (error instanceof ApiFailure && error.status === 412) {
    return (
      <div className="field-error problem" role="alert">
        <p>This was changed by someone else since you opened it. Reload to see their change, then make yours again.</p>
        {onReload && <button type="button" onClick={onReload}>Reload</button>}
      </div>
    );
  }
  const fields = error instanceof FormRefusal || (error instanceof ApiFailure && (error.body?.subErrors?.length ?? 0) > 0);
  return <p className="field-error problem" role="alert">{fields ? 'Some fields need another value: see the fields marked above.' : failureText(error)}</p>;
}

export function Editor<T extends { uid: string; _links?: object }>({ editor, uid }: { editor: EditorKind<T>; uid: string }) {
  const creating = uid === 'new';
  // Kept here: a save reads the item anew (its new version), which starts the form again.
  const [saved, setSaved] = useState(false);
  const loaded = useQuery({
    queryKey: [editor.kind, 'edit', uid],
    queryFn: async () => {
      const { item, etag } = await withTag(editor.load(uid));
      return { item, etag, values: editor.valuesOf(item) };
    },
    enabled: !creating,
    staleTime: 0,
  });
  if (creating) return <EditorForm editor={editor} initial={editor.blank()} saved={false} setSaved={setSaved} />;
  if (loaded.isPending) return <Loading what={`the ${editor.noun}`} />;
  if (loaded.isError) return <Failed error={loaded.error} retry={() => void loaded.refetch()} />;
  const { item, etag, values } = loaded.data;
  const reload = () => { setSaved(false); void loaded.refetch(); };
  // The form starts again from the item whenever the item is read anew (a reload after a conflict); what is below it
  // keeps its own state (a secret shown once stays on screen when the item is read again).
  return (
    <>
      <EditorForm key={`${etag}`} editor={editor} initial={values} item={item} etag={etag} saved={saved} setSaved={setSaved} reload={reload} />
      {editor.more?.(item, etag, reload)}
    </>
  );
}

interface FormProps<T> {
  editor: EditorKind<T & { uid: string }>;
  initial: Values;
  item?: T & { uid: string; _links?: object };
  etag?: string;
  reload?: () => void;
  saved: boolean;
  setSaved: (saved: boolean) => void;
}

function EditorForm<T>({ editor, initial, item, etag, reload, saved, setSaved }: FormProps<T>) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(initial);
  const links = (item?._links ?? {}) as Record<string, unknown>;
  const mayEdit = !item || 'edit' in links;
  const save = useMutation({
    mutationFn: async () => {
      if (!item) return editor.create ? (await written(editor.create(values, headers())))?.uid : undefined;
      await written(editor.update(item.uid, values, changedFields(initial, values), headers(etag)));
      return item.uid;
    },
    onSuccess: (savedUid) => {
      void queryClient.invalidateQueries({ queryKey: [editor.kind] });
      if (!item && savedUid) void navigate({ to: editor.shownAt(savedUid) });
      else setSaved(true);
    },
  });
  const form: FormModel = {
    id, values, existing: item !== undefined,
    set: (field: string, value: Value) => { setSaved(false); setValues((v) => ({ ...v, [field]: value })); },
    errorOf: (field) => fieldErrorOf(save.error, field),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = item ? editor.titleOf(item) : `New ${editor.noun}`;
  return (
    <>
      <p className="meta"><Link to={editor.listAt}>All {editor.noun}s</Link>{item && <> · <Link to={editor.shownAt(item.uid)}>{title}</Link></>}</p>
      <h1>{item ? `${mayEdit ? 'Edit' : ''} ${title}`.trim() : title}</h1>
      {!mayEdit && <p className="state">You may see this {editor.noun}, not change it.</p>}
      <form className="editor" onSubmit={submit} aria-label={item ? `Edit ${title}` : title} noValidate>
        <fieldset disabled={!mayEdit || save.isPending} className="plain">
          <Fields specs={editor.fields} form={form} />
        </fieldset>
        <FormProblem error={save.error} onReload={reload} />
        {saved && <p role="status" className="saved">Saved.</p>}
        {mayEdit && <button type="submit" disabled={save.isPending}>{save.isPending ? 'Saving…' : item ? 'Save changes' : `Create ${editor.noun}`}</button>}
      </form>
      {item && 'delete' in links && <DeleteAction editor={editor} uid={item.uid} title={title} etag={etag} reload={reload} />}
    </>
  );
}

/** Delete with a second, explicit step; the API's refusal (what still uses the item) is shown as it says it. */
function DeleteAction<T>({ editor, uid, title, etag, reload }: { editor: EditorKind<T & { uid: string }>; uid: string; title: string; etag?: string; reload?: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => written(editor.remove(uid, headers(etag))),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [editor.kind, 'edit', uid] });
      void queryClient.invalidateQueries({ queryKey: [editor.kind] });
      void navigate({ to: editor.listAt });
    },
  });
  return (
    <section className="danger" aria-label={`Delete ${title}`}>
      {asking ? (
        <Confirm question={`Delete ${title}? This cannot be undone.`} yes={`Delete ${editor.noun}`} busy={remove.isPending}
          onYes={() => remove.mutate()} onNo={() => { setAsking(false); remove.reset(); }} />
      ) : <button type="button" className="secondary" onClick={() => setAsking(true)}>Delete…</button>}
      {remove.isError && (remove.error instanceof ApiFailure && remove.error.status === 422
        ? <p className="field-error" role="alert">It cannot be deleted yet: {remove.error.message}</p>
        : <FormProblem error={remove.error} onReload={reload} />)}
    </section>
  );
}

/** The second step of something that cannot be undone: the question, and the keyboard on "Keep it". */
export function Confirm({ question, yes, busy, onYes, onNo }: { question: string; yes: string; busy: boolean; onYes: () => void; onNo: () => void }) {
  const keep = useFocusOnOpen<HTMLButtonElement>();
  return (
    <>
      <p>{question}</p>
      <div className="buttons">
        <button type="button" className="bad" disabled={busy} onClick={onYes}>{yes}</button>
        <button type="button" className="secondary" ref={keep} onClick={onNo}>Keep it</button>
      </div>
    </>
  );
}
