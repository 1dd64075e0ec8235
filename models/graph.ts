/**
 * The graph reads (docs/contract.md, the graph operations): one statement each (models/graph-sql), through the data
 * access, answering one plain row per edge. Which rows the caller may see comes back per row (`seen`); what to do
 * with a row the caller may not see is core/rules/graph.ts's.
 */
import type { Models } from '../core/context';
import type { EdgeRow, EnvironmentPart, GraphApplication, GraphStream } from '../core/rules/graph';
import { applicationGraphSql, environmentGraphSql, streamGraphSql, valuesOf } from './graph-sql';

/** Who reads: the tenant, the caller's groups (never empty in the statement), and which kinds it sees whole. */
export interface GraphReader { tenantUid: string; groups: string[] }

/** A uid no row has: `IN (?)` takes no empty list on every database. */
const NO_GROUP = '';
const groupsOf = (r: GraphReader) => (r.groups.length > 0 ? r.groups : [NO_GROUP]);

type Raw = Record<string, unknown>;
const text = (v: unknown) => (v == null ? null : String(v));
const flag = (v: unknown) => Number(v) === 1 || v === true;

function environmentOf(r: Raw): EnvironmentPart {
  return { uid: String(r.e_uid), name: String(r.e_name), shortName: String(r.e_short), visibility: String(r.e_visibility), ownersUid: String(r.e_owners), seen: flag(r.e_seen) };
}

function applicationOf(r: Raw): GraphApplication {
  return {
    uid: String(r.a_uid), name: String(r.a_name), shortName: String(r.a_short), applicationType: String(r.a_kind), type: text(r.a_type),
    visibility: String(r.a_visibility), ownersUid: String(r.a_owners), ownersName: text(r.a_owners_name), seen: flag(r.a_seen), deploymentState: text(r.d_state),
  };
}

function streamOf(r: Raw): GraphStream {
  return {
    uid: String(r.s_uid), name: String(r.s_name), visibility: String(r.s_visibility), ownersUid: String(r.s_owners), ownersName: text(r.s_owners_name),
    seen: r.s_seen === undefined ? true : flag(r.s_seen), streamConfigUid: text(r.c_uid),
  };
}

const instantOf = (at: unknown) => (at == null ? null : at instanceof Date ? at : new Date(String(at)));

function grantOf(r: Raw): Pick<EdgeRow, 'grantUid' | 'accessType' | 'status' | 'requestedBy' | 'requestedAt' | 'expiresAt'> {
  return {
    grantUid: String(r.g_uid), accessType: String(r.g_access) as EdgeRow['accessType'], status: String(r.g_status ?? 'Approved') as EdgeRow['status'],
    requestedBy: text(r.g_requested_by), requestedAt: instantOf(r.g_requested_at), expiresAt: instantOf(r.g_expires_at),
  };
}

/** The stream's configs (or the one in `environmentUid`), each with its open grants: a row per config without grants. */
export async function readStreamGraph(models: Models, reader: GraphReader, streamUid: string, environmentUid?: string) {
  const statement = streamGraphSql(models, environmentUid !== undefined);
  const rows = await models.data.select(statement.sql, valuesOf(statement, { groups: groupsOf(reader), stream: streamUid, tenant: reader.tenantUid, environment: environmentUid }));
  return rows.map((r) => ({
    environment: environmentOf(r), streamConfigUid: String(r.c_uid),
    edge: r.g_uid == null ? null : { ...grantOf(r), application: applicationOf(r) },
  }));
}

/** The application's open grants (or those in `environmentUid`), with their streams and environments. */
export async function readApplicationGraph(models: Models, reader: GraphReader, applicationUid: string, environmentUid?: string) {
  const statement = applicationGraphSql(models, environmentUid !== undefined);
  const rows = await models.data.select(statement.sql, valuesOf(statement, { groups: groupsOf(reader), application: applicationUid, tenant: reader.tenantUid, environment: environmentUid }));
  return rows.map((r) => ({ environment: environmentOf(r), deploymentState: text(r.d_state), edge: { ...grantOf(r), stream: streamOf(r) } }));
}

export interface EnvironmentPageRequest { environmentUid: string; allStreams: boolean; size: number; offset: number; window: number }

/**
 * One page of the environment's streams the caller sees, each with its Approved grants and their applications,
 * and the caller's streams there counted up to `window`: all in one statement.
 */
export async function readEnvironmentGraph(models: Models, reader: GraphReader, page: EnvironmentPageRequest) {
  const statement = environmentGraphSql(models, page.allStreams);
  // Planned per call: the plan that walks the streams' name index for a large environment is the wrong one for
  // an environment of a few streams in a large tenant, and a generic plan assumes every environment is average.
  const rows = await models.data.selectUnprepared(statement.sql, valuesOf(statement, {
    groups: groupsOf(reader), environment: page.environmentUid, tenant: reader.tenantUid, window: page.window, size: page.size, offset: page.offset,
  }));
  const counted = rows.length > 0 ? Number(rows[0].total) : 0;
  const entries = rows.filter((r) => r.s_uid != null).map((r) => ({
    stream: streamOf(r), edge: r.g_uid == null ? null : { ...grantOf(r), application: applicationOf(r) },
  }));
  return { counted, entries };
}
