/** Streams (docs/contract.md §7): an owned kind; STREAM_AUTHOR/ADMIN create, owners and STREAM_ADMIN edit ("stream editors"). */
import { ownedPolicy } from './owned';

export const STREAM_ADMIN = 'STREAM_ADMIN';

export const streamPolicy = ownedPolicy({ author: 'STREAM_AUTHOR', admin: STREAM_ADMIN, viewers: (m) => m.StreamViewer });

/** "Stream editors" of docs/contract.md §7: they approve access grants and edit stream configs. */
export const canEditStream = streamPolicy.canEditRow;
export const mayAssignStreamOwners = streamPolicy.mayAssignOwners;
