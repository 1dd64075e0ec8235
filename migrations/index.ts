/** Every migration, in order. Append-only: a landed migration is never edited, only followed by a new one. */
import * as m0001 from './0001-initial';
import * as m0002 from './0002-millisecond-timestamps';
import * as m0003 from './0003-tenant-contacts';
import * as m0004 from './0004-user-lookup-indexes';

export const migrations = [
  { name: '0001-initial', ...m0001 },
  { name: '0002-millisecond-timestamps', ...m0002 },
  { name: '0003-tenant-contacts', ...m0003 },
  { name: '0004-user-lookup-indexes', ...m0004 },
];
