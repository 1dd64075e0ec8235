/**
 * The statements of the graph reads (models/graph.ts): who produces to and consumes from a stream, what an
 * application produces to and consumes from, and one page of an environment's streams with their edges. Each is
 * one statement answering one row per edge, in the same text on every database (nothing newer than MariaDB 10.3).
 * Whether the caller may see a stream, an application or an environment is answered per row by the statement
 * (`*_seen`), from the caller's groups, so that no second read is needed to hide a Private row.
 */
import type { Models } from '../core/context';
import { tableOf } from './select-sql';

/** A statement's text and the names of the values its `?` take, in order. */
export interface GraphStatement { sql: string; slots: string[] }

/** The values of a statement's slots, in the order of its `?`. */
export function valuesOf(statement: GraphStatement, args: Record<string, unknown>): unknown[] {
  return statement.slots.map((slot) => {
    if (!(slot in args)) throw new Error(`graph statement: no value for ${slot}`);
    return args[slot];
  });
}

/**
 * Builds a statement once per key; `p(name)` places a value. `build` must call `p` in the order of the text (a
 * fragment built before the text around it is built inside a function it calls in place).
 */
function cached(key: string, build: (p: (slot: string) => string) => string): GraphStatement {
  let found = statements.get(key);
  if (found) return found;
  const slots: string[] = [];
  const sql = build((slot) => {
    slots.push(slot);
    return '?';
  });
  if (sql.split('?').length - 1 !== slots.length) throw new Error(`graph statement ${key}: ${slots.length} slots for its placeholders`);
  statements.set(key, (found = { sql, slots }));
  return found;
}
const statements = new Map<string, GraphStatement>();

type Kind = 'stream' | 'application' | 'environment';

const VIEWERS: Record<Kind, (m: Models) => Parameters<typeof tableOf>[0]> = {
  stream: (m) => m.StreamViewer as never,
  application: (m) => m.ApplicationViewer as never,
  environment: (m) => m.EnvironmentViewer as never,
};

/**
 * Whether the caller sees the row `alias` of a Public/Private kind: Public, owned by one of the caller's groups, or
 * viewed by one (the kind's ADMIN and tenant admins see all: the reader decides that). `groups` is never empty.
 */
function seen(m: Models, kind: Kind, alias: string, p: (slot: string) => string): string {
  return `(${alias}.visibility = 'Public' OR ${alias}.owners_uid IN (${p('groups')}) OR EXISTS (SELECT 1 FROM ${tableOf(VIEWERS[kind](m))} ${alias}v`
    + ` WHERE ${alias}v.source_uid = ${alias}.uid AND ${alias}v.target_uid IN (${p('groups')})))`;
}

const seenColumn = (m: Models, kind: Kind, alias: string, p: (slot: string) => string) =>
  `CASE WHEN ${seen(m, kind, alias, p)} THEN 1 ELSE 0 END AS ${alias}_seen`;

const APPLICATION_COLUMNS = 'a.uid AS a_uid, a.name AS a_name, a.short_name AS a_short, a.application_type AS a_kind, a.type AS a_type,'
  + ' a.visibility AS a_visibility, a.owners_uid AS a_owners, ag.name AS a_owners_name';
const STREAM_COLUMNS = 's.uid AS s_uid, s.name AS s_name, s.visibility AS s_visibility, s.owners_uid AS s_owners, sg.name AS s_owners_name';
const ENVIRONMENT_COLUMNS = 'e.uid AS e_uid, e.name AS e_name, e.short_name AS e_short, e.visibility AS e_visibility, e.owners_uid AS e_owners';
const GRANT_COLUMNS = 'g.uid AS g_uid, g.access_type AS g_access, g.status AS g_status, g.requested_by AS g_requested_by, g.requested_at AS g_requested_at, g.expires_at AS g_expires_at';

/**
 * The stream's configs (one environment with `byEnvironment`), each with its open grants (Approved and Pending),
 * their applications, owners groups and deployments there. Slots: groups, stream, tenant (, environment).
 */
export function streamGraphSql(m: Models, byEnvironment: boolean): GraphStatement {
  return cached(`stream:${byEnvironment}`, (p) => `SELECT c.uid AS c_uid, ${ENVIRONMENT_COLUMNS}, ${seenColumn(m, 'environment', 'e', p)},
  ${GRANT_COLUMNS}, ${APPLICATION_COLUMNS}, ${seenColumn(m, 'application', 'a', p)}, d.state AS d_state
FROM ${tableOf(m.StreamConfig)} c
JOIN ${tableOf(m.Environment)} e ON e.uid = c.environment_uid
LEFT JOIN ${tableOf(m.ApplicationAccessGrant)} g ON g.stream_uid = c.stream_uid AND g.environment_uid = c.environment_uid AND g.status IN ('Approved', 'Pending')
LEFT JOIN ${tableOf(m.Application)} a ON a.uid = g.application_uid
LEFT JOIN ${tableOf(m.Group)} ag ON ag.uid = a.owners_uid
LEFT JOIN ${tableOf(m.ApplicationDeployment)} d ON d.application_uid = a.uid AND d.environment_uid = c.environment_uid
WHERE c.stream_uid = ${p('stream')} AND c.tenant_uid = ${p('tenant')}${byEnvironment ? ` AND c.environment_uid = ${p('environment')}` : ''}
ORDER BY e.name, e.uid, g.access_type, a.name, a.uid, g.uid`);
}

/**
 * The application's open grants (one environment with `byEnvironment`), each with its stream, the stream's owners
 * group, its config and the application's deployment there. Slots: groups, application, tenant (, environment).
 */
export function applicationGraphSql(m: Models, byEnvironment: boolean): GraphStatement {
  return cached(`application:${byEnvironment}`, (p) => `SELECT ${ENVIRONMENT_COLUMNS}, ${seenColumn(m, 'environment', 'e', p)},
  ${GRANT_COLUMNS}, ${STREAM_COLUMNS}, ${seenColumn(m, 'stream', 's', p)}, c.uid AS c_uid, d.state AS d_state
FROM ${tableOf(m.ApplicationAccessGrant)} g
JOIN ${tableOf(m.Environment)} e ON e.uid = g.environment_uid
JOIN ${tableOf(m.Stream)} s ON s.uid = g.stream_uid
LEFT JOIN ${tableOf(m.Group)} sg ON sg.uid = s.owners_uid
LEFT JOIN ${tableOf(m.StreamConfig)} c ON c.stream_uid = g.stream_uid AND c.environment_uid = g.environment_uid
LEFT JOIN ${tableOf(m.ApplicationDeployment)} d ON d.application_uid = g.application_uid AND d.environment_uid = g.environment_uid
WHERE g.application_uid = ${p('application')} AND g.tenant_uid = ${p('tenant')} AND g.status IN ('Approved', 'Pending')${byEnvironment ? ` AND g.environment_uid = ${p('environment')}` : ''}
ORDER BY e.name, e.uid, g.access_type, s.name, s.uid, g.uid`);
}

/**
 * The streams configured in the environment that the caller sees, in name order: `FROM streams … ORDER BY name,
 * uid` walks the tenant's (tenant, name, uid) index and looks each stream's config up by its unique (stream,
 * environment) key, so a page stops after its rows whatever the environment's size. `allStreams`: the caller sees
 * every stream (no visibility condition).
 */
function pagedStreams(m: Models, allStreams: boolean, p: (slot: string) => string, limit: () => string): string {
  return `SELECT s.uid, s.name, s.visibility, s.owners_uid, c.uid AS config_uid
  FROM ${tableOf(m.Stream)} s JOIN ${tableOf(m.StreamConfig)} c ON c.stream_uid = s.uid AND c.environment_uid = ${p('environment')}
  WHERE s.tenant_uid = ${p('tenant')}${allStreams ? '' : ` AND ${seen(m, 'stream', 's', p)}`}
  ORDER BY s.name, s.uid ${limit()}`;
}

/**
 * One page of the environment's graph in one statement: the bounded count of the caller's streams there (up to
 * `window` rows, in the page's order), then one row per stream of the page and Approved grant, with the
 * application, its owners group and its deployment there. The count is a one-row table the page is joined to, so a
 * page past the end still answers the count.
 */
export function environmentGraphSql(m: Models, allStreams: boolean): GraphStatement {
  return cached(`environment:${allStreams}`, (p) => {
    // Built in the order of the text: each `?` takes the slot placed before it.
    const applicationSeen = seenColumn(m, 'application', 'a', p);
    // A caller who sees every stream counts the environment's configs on their environment index alone; one who
    // does not counts the streams it sees, each config joined to its stream.
    const counted = allStreams
      ? `SELECT c.uid FROM ${tableOf(m.StreamConfig)} c WHERE c.environment_uid = ${p('environment')} LIMIT ${p('window')}`
      : pagedStreams(m, allStreams, p, () => `LIMIT ${p('window')}`);
    const page = pagedStreams(m, allStreams, p, () => `LIMIT ${p('size')} OFFSET ${p('offset')}`);
    return `SELECT k.total, ps.uid AS s_uid, ps.name AS s_name, ps.visibility AS s_visibility, ps.owners_uid AS s_owners, sg.name AS s_owners_name,
  ps.config_uid AS c_uid, g.uid AS g_uid, g.access_type AS g_access, g.expires_at AS g_expires_at, ${APPLICATION_COLUMNS}, ${applicationSeen}, d.state AS d_state
FROM (SELECT COUNT(*) AS total FROM (${counted}) n) k
LEFT JOIN (${page}) ps ON 1 = 1
LEFT JOIN ${tableOf(m.Group)} sg ON sg.uid = ps.owners_uid
LEFT JOIN ${tableOf(m.ApplicationAccessGrant)} g ON g.stream_uid = ps.uid AND g.environment_uid = ${p('environment')} AND g.status = 'Approved'
LEFT JOIN ${tableOf(m.Application)} a ON a.uid = g.application_uid
LEFT JOIN ${tableOf(m.Group)} ag ON ag.uid = a.owners_uid
LEFT JOIN ${tableOf(m.ApplicationDeployment)} d ON d.application_uid = a.uid AND d.environment_uid = ${p('environment')}
ORDER BY ps.name, ps.uid, g.access_type, a.name, a.uid, g.uid`;
  });
}
