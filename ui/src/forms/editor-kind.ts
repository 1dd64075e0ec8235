/**
 * What the one generic editor needs to know of a resource: its fields, how an item becomes form values and form
 * values a body, and its calls. Each resource's editor (../editors) is one of these; the page, the save, the
 * conflict and the delete are the same code for all of them.
 */
import type { ReactNode } from 'react';
import type { FieldSpec } from './fields';
import type { Values } from './values';

export type Call<T = unknown> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** Sent with every write: a stale version answers 412, and a field the API does not know is an error, not ignored. */
export type WriteHeaders = { 'If-Match'?: string; Prefer: 'handling=strict' };

export interface EditorKind<T extends { uid: string }> {
  /** The URL segment (`/edit/streams/…`) and query key. */
  kind: string;
  /** "stream", for headings and messages. */
  noun: string;
  fields: readonly FieldSpec[];
  blank: () => Values;
  valuesOf: (item: T) => Values;
  titleOf: (item: T) => string;
  load: (uid: string) => Call<T>;
  /** None: items of this kind are made elsewhere (a schema by uploading its first version). */
  create?: (values: Values, headers: WriteHeaders) => Call<{ uid: string }>;
  /** `changed` names the fields the person changed: the PATCH sends those. */
  update: (uid: string, values: Values, changed: Set<string>, headers: WriteHeaders) => Call;
  remove: (uid: string, headers: WriteHeaders) => Call;
  /** Where the item is shown after it is saved (its own page), and the list to go back to. */
  shownAt: (uid: string) => string;
  listAt: string;
  /** More on the item's page below its form (a group's members). */
  more?: (item: T, etag: string | undefined, reload: () => void) => ReactNode;
}

/** A registry entry: each editor's own item type is checked where it is declared. */
export type AnyEditorKind = EditorKind<any>;
