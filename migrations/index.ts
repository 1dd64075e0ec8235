/** Every migration, in order. Append-only: a landed migration is never edited, only followed by a new one. */
import * as m0001 from './0001-initial';
import * as m0002 from './0002-millisecond-timestamps';
import * as m0003 from './0003-tenant-contacts';
import * as m0004 from './0004-user-lookup-indexes';
import * as m0005 from './0005-reference-data';
import * as m0006 from './0006-applications';
import * as m0007 from './0007-schemas';
import * as m0008 from './0008-streams';
import * as m0009 from './0009-stream-configs';
import * as m0010 from './0010-application-access';
import * as m0011 from './0011-application-authentications';
import * as m0012 from './0012-application-deployments';
import * as m0013 from './0013-audit-queries';
import * as m0014 from './0014-audit-order-indexes';
import * as m0015 from './0015-page-order-indexes';
import * as m0016 from './0016-audit-action-type-index';
import * as m0017 from './0017-service-facts';
import * as m0018 from './0018-login-failures';
import * as m0019 from './0019-expiring-access';
import * as m0020 from './0020-environment-successors';
import * as m0021 from './0021-lockout-clears-as-updates';
import * as m0022 from './0022-issuer-sessions';
import * as m0023 from './0023-notification-outbox';
import * as m0024 from './0024-webhooks';
import * as m0025 from './0025-schema-compatibility';

export const migrations = [
  { name: '0001-initial', ...m0001 },
  { name: '0002-millisecond-timestamps', ...m0002 },
  { name: '0003-tenant-contacts', ...m0003 },
  { name: '0004-user-lookup-indexes', ...m0004 },
  { name: '0005-reference-data', ...m0005 },
  { name: '0006-applications', ...m0006 },
  { name: '0007-schemas', ...m0007 },
  { name: '0008-streams', ...m0008 },
  { name: '0009-stream-configs', ...m0009 },
  { name: '0010-application-access', ...m0010 },
  { name: '0011-application-authentications', ...m0011 },
  { name: '0012-application-deployments', ...m0012 },
  { name: '0013-audit-queries', ...m0013 },
  { name: '0014-audit-order-indexes', ...m0014 },
  { name: '0015-page-order-indexes', ...m0015 },
  { name: '0016-audit-action-type-index', ...m0016 },
  { name: '0017-service-facts', ...m0017 },
  { name: '0018-login-failures', ...m0018 },
  { name: '0019-expiring-access', ...m0019 },
  { name: '0020-environment-successors', ...m0020 },
  { name: '0021-lockout-clears-as-updates', ...m0021 },
  { name: '0022-issuer-sessions', ...m0022 },
  { name: '0023-notification-outbox', ...m0023 },
  { name: '0024-webhooks', ...m0024 },
  { name: '0025-schema-compatibility', ...m0025 },
];
