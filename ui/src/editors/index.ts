/** Every resource the portal edits, by the URL segment of its editor (`/edit/{kind}/{uid or new}`). */
import type { AnyEditorKind } from '../forms/editor-kind';
import { applicationEditor } from './applications';
import { clusterEditor } from './clusters';
import { environmentEditor } from './environments';
import { groupEditor } from './groups';
import { instanceEditor } from './instances';
import { schemaEditor } from './schemas';
import { streamEditor } from './streams';
import { userEditor } from './users';
import { webhookEditor } from './webhooks';

export const EDITORS: Record<string, AnyEditorKind> = Object.fromEntries(
  [streamEditor, applicationEditor, environmentEditor, userEditor, groupEditor, instanceEditor, clusterEditor, schemaEditor, webhookEditor].map((e) => [e.kind, e]),
);
