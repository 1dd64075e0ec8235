/**
 * A form's fields, described rather than written out: each resource's editor lists its fields and this renders
 * them alike — a label, the control, a hint, and the API's message for that field right under it (tied to the
 * control with aria-describedby, so a screen reader reads it too).
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { failureText } from '../api';
import { listOf, textOf, flagOf, type Value, type Values } from './values';
import { optionsQuery, type Option, type OptionSource } from './options';

interface Common {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  /** Set at creation only: shown, not editable, once the item exists. */
  immutable?: boolean;
  /** Asked only when the item is created (a first password). */
  createOnly?: boolean;
  /** Shown only when the form's values call for it (a schema when the type has one). */
  shownWhen?: (values: Values) => boolean;
}

export type FieldSpec = Common & (
  | { kind: 'text' | 'email' | 'password' | 'number' }
  | { kind: 'textarea' | 'lines'; rows?: number }
  | { kind: 'check' }
  | { kind: 'choice'; options: readonly Option[] | OptionSource; empty?: string }
  | { kind: 'many'; options: readonly Option[] | OptionSource }
);

export interface FormModel {
  id: string;
  values: Values;
  set: (field: string, value: Value) => void;
  errorOf: (field: string) => string | undefined;
  /** The item exists: immutable fields are read-only. */
  existing: boolean;
}

export function Fields({ specs, form }: { specs: readonly FieldSpec[]; form: FormModel }) {
  return <>{specs.filter((s) => !(s.createOnly && form.existing) && (!s.shownWhen || s.shownWhen(form.values))).map((s) => <Field key={s.name} spec={s} form={form} />)}</>;
}

function Field({ spec, form }: { spec: FieldSpec; form: FormModel }) {
  const id = `${form.id}-${spec.name}`;
  const error = form.errorOf(spec.name);
  const described = [spec.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const control = {
    id, name: spec.name, 'aria-invalid': error ? (true as const) : undefined, 'aria-describedby': described,
    disabled: spec.immutable && form.existing, required: spec.required,
  };
  const after = (
    <>
      {spec.hint && <p id={`${id}-hint`} className="meta hint">{spec.hint}</p>}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </>
  );
  if (spec.kind === 'check') {
    return (
      <div className="field">
        <label className="inline" htmlFor={id}>
          <input type="checkbox" {...control} checked={flagOf(form.values, spec.name)} onChange={(e) => form.set(spec.name, e.target.checked)} /> {spec.label}
        </label>
        {after}
      </div>
    );
  }
  if (spec.kind === 'many') {
    return (
      <fieldset className="field many" aria-describedby={described} aria-invalid={error ? true : undefined}>
        <legend>{spec.label}</legend>
        <Many spec={spec} form={form} id={id} disabled={control.disabled} />
        {after}
      </fieldset>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{spec.label}{spec.required ? <span aria-hidden="true"> *</span> : null}</label>
      <Control spec={spec} form={form} control={control} />
      {after}
    </div>
  );
}

type ControlProps = { id: string; name: string; disabled?: boolean; required?: boolean; 'aria-invalid'?: true; 'aria-describedby'?: string };

function Control({ spec, form, control }: { spec: FieldSpec; form: FormModel; control: ControlProps }): ReactNode {
  const text = textOf(form.values, spec.name);
  switch (spec.kind) {
    case 'text': case 'email': case 'password':
      return <input {...control} type={spec.kind} value={text} onChange={(e) => form.set(spec.name, e.target.value)}
        autoComplete={spec.kind === 'password' ? 'new-password' : 'off'} />;
    case 'number':
      return <input {...control} inputMode="numeric" value={text} onChange={(e) => form.set(spec.name, e.target.value)} />;
    case 'textarea': case 'lines':
      return <textarea {...control} rows={spec.rows ?? 3} value={text} onChange={(e) => form.set(spec.name, e.target.value)} />;
    case 'choice':
      return <Choice spec={spec} form={form} control={control} />;
    case 'many': case 'check':
      return null;
  }
}

function useOptions(source: readonly Option[] | OptionSource) {
  const fixed = typeof source !== 'string';
  const loaded = useQuery({ ...optionsQuery(fixed ? 'groups' : source), enabled: !fixed });
  if (fixed) return { options: source, state: null };
  if (loaded.isPending) return { options: [], state: <p className="state" role="status">Loading the choices…</p> };
  if (loaded.isError) return { options: [], state: <p className="field-error">{failureText(loaded.error)}</p> };
  return { options: loaded.data, state: null };
}

function Choice({ spec, form, control }: { spec: FieldSpec & { kind: 'choice' }; form: FormModel; control: ControlProps }) {
  const { options, state } = useOptions(spec.options);
  const value = textOf(form.values, spec.name);
  // A value the person may no longer see (or beyond the first 200) stays selectable, never silently replaced.
  const known = value === '' || options.some((o) => o.value === value);
  return (
    <>
      <select {...control} value={value} onChange={(e) => form.set(spec.name, e.target.value)}>
        <option value="">{spec.empty ?? 'None'}</option>
        {!known && <option value={value}>The current one</option>}
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      {state}
    </>
  );
}

/** A few choices of many (viewers, clusters): a checkbox each, which keyboards and screen readers handle well. */
function Many({ spec, form, id, disabled }: { spec: FieldSpec & { kind: 'many' }; form: FormModel; id: string; disabled?: boolean }) {
  const { options, state } = useOptions(spec.options);
  const chosen = listOf(form.values, spec.name);
  const unknown = chosen.filter((v) => !options.some((o) => o.value === v));
  const toggle = (value: string, on: boolean) => form.set(spec.name, on ? [...chosen, value] : chosen.filter((v) => v !== value));
  if (state) return state;
  if (options.length === 0 && unknown.length === 0) return <p className="state">None to choose from.</p>;
  return (
    <ul className="choices">
      {unknown.map((v) => (
        <li key={v}><label className="inline"><input type="checkbox" checked disabled={disabled} onChange={() => toggle(v, false)} /> One you may not see</label></li>
      ))}
      {options.map((o) => (
        <li key={o.value}>
          <label className="inline" htmlFor={`${id}-${o.value}`}>
            <input id={`${id}-${o.value}`} type="checkbox" disabled={disabled} checked={chosen.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} /> {o.label}
          </label>
        </li>
      ))}
    </ul>
  );
}
