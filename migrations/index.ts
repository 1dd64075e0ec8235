/** Every migration, in order. Append-only: a landed migration is never edited, only followed by a new one. */
import * as m0001 from './0001-initial';

export const migrations = [
  { name: '0001-initial', ...m0001 },
];
