/** `/edit/{kind}/{uid}`: the editor of any resource the portal edits (`new` creates one). */
import { useParams } from '@tanstack/react-router';
import { EDITORS } from '../editors';
import { Editor } from '../forms/Editor';
import { NotFound } from './NotFound';

export function EditPage() {
  const { kind, uid } = useParams({ from: '/edit/$kind/$uid' });
  const editor = EDITORS[kind];
  if (!editor || (uid === 'new' && !editor.create)) return <NotFound />;
  // A new key per item: moving from one item's editor to another's starts a fresh form.
  return <Editor key={`${kind}/${uid}`} editor={editor} uid={uid} />;
}
