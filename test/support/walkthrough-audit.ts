/**
 * The audit entries README's "First ten minutes" leaves behind, newest first, as `action resourceType resourceName`:
 * the curl walkthrough and the typed client's walkthrough both end with exactly these.
 */
export const WALKTHROUGH_AUDIT = [
  'APPLICATION_ACCESS_APPROVED Application billing',
  'APPLICATION_ACCESS_REQUESTED Application billing',
  'AUTHENTICATION_CONFIGURED Application billing',
  'CREATED Application billing',
  'TOPIC_CONFIGURED Topic orders',
  'CREATED Topic orders',
  'SCHEMA_VERSION_UPLOADED Schema io.shop.Order',
  'CREATED Schema io.shop.Order',
  'CREATED Environment dev',
  'CREATED Group Orders team',
  'CLUSTER_ADDED Instance Local',
  'CREATED Instance Local',
  'CREATED Cluster local',
];
