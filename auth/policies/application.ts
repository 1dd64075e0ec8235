/** Applications (CONTRACT §7): an owned kind; APPLICATION_AUTHOR/ADMIN create, owners and APPLICATION_ADMIN edit. */
import { ownedPolicy } from './owned';

export const APPLICATION_ADMIN = 'APPLICATION_ADMIN';

export const applicationPolicy = ownedPolicy({ author: 'APPLICATION_AUTHOR', admin: APPLICATION_ADMIN, viewers: (m) => m.ApplicationViewer });

/** "App editors" of CONTRACT §7, which principals, credentials, deployments and grant requests reuse. */
export const canEditApplication = applicationPolicy.canEditRow;
export const mayAssignApplicationOwners = applicationPolicy.mayAssignOwners;
