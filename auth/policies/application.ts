/**
 * Applications (docs/contract.md §7): an owned kind; APPLICATION_AUTHOR/ADMIN create, owners and APPLICATION_ADMIN edit.
 * Its editors ("app editors") also request access for it (GRANT_REQUEST) and manage what hangs off it.
 */
import { ownedPolicy } from './owned';

export const APPLICATION_ADMIN = 'APPLICATION_ADMIN';

const owned = ownedPolicy({ author: 'APPLICATION_AUTHOR', admin: APPLICATION_ADMIN, viewers: (m) => m.ApplicationViewer });

/** "App editors" of docs/contract.md §7, which principals, credentials, deployments and grant requests reuse. */
export const canEditApplication = owned.canEditRow;
export const mayAssignApplicationOwners = owned.mayAssignOwners;

export const applicationPolicy = { ...owned, actions: { GRANT_REQUEST: canEditApplication } };
