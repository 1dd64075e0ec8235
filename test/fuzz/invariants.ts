/**
 * What must hold for every fuzzed request, whatever was sent:
 *  1. no 5xx (but a 502 where the operation documents one: its provider could not be reached);
 *  2. every status ≥ 400 carries the one error body of docs/contract.md §2, as application/hal+json;
 *  3. an accepted write stores what it was given: every scalar sent at a typed, non-enum, non-reference,
 *     non-write-only field, and every value of a string map, reads back identical from GET of the item;
 *  4. a refused mutating request changes nothing: the database fingerprint of the fuzz tenants is unchanged;
 *  5. a generated credential's password is answered once and never stored or shown in plain.
 */
import { STATUS_CODES } from 'node:http';
import type { Model, ModelStatic } from 'sequelize';
import type { TestApp } from '../support/app';
import type { RawRequest, RawResponse } from './raw-client';
import { deref, flatten, isReference, type Schema } from './spec-arbitraries';
import type { Fixtures } from './fixtures';

const UPPER_SNAKE = /^[A-Z]+(_[A-Z]+)*$/;
/** Internals that must never reach a client: stack frames, SQL, driver names. */
const LEAK = /\bat [^\s]+ \(.*:\d+:\d+\)|\.ts:\d+|Sequelize[A-Z]\w*Error|\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bpg_|ECONNREFUSED/;

/** Invariant 1 and 2. Returns problems as short sentences (also used to group failures into classes). */
export function responseProblems(res: RawResponse, gateway = false): string[] {
  if (res.status >= 500 && !(gateway && res.status === 502)) return [`server error ${res.status}`];
  if (res.status < 400) return [];
  const problems: string[] = [];
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/hal\+json/.test(type)) problems.push(`${res.status} with content-type ${type || '(none)'}`);
  const body = res.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, `${res.status} without a JSON object body`];
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'errors,message,status,subErrors') problems.push(`${res.status} body keys ${keys}`);
  const expected = (STATUS_CODES[res.status] ?? '').toUpperCase().replace(/[^A-Z]+/g, '_');
  if (typeof body.status !== 'string' || !UPPER_SNAKE.test(body.status)) problems.push(`${res.status} status field ${JSON.stringify(body.status)}`);
  else if (body.status !== expected) problems.push(`${res.status} status field ${body.status}, reason phrase is ${expected}`);
  if (typeof body.message !== 'string') problems.push(`${res.status} message not a string`);
  if (!Array.isArray(body.errors) || body.errors.length === 0 || body.errors.some((e) => typeof e !== 'string')) {
    problems.push(`${res.status} errors not a non-empty string array`);
  }
  if (body.subErrors !== null && !Array.isArray(body.subErrors)) problems.push(`${res.status} subErrors neither null nor array`);
  if (LEAK.test(res.text)) problems.push(`${res.status} body leaks internals`);
  return problems;
}

export interface Echo { path: string[]; value: unknown }

/**
 * Body fields of action operations that are stored under another name of the item: the `reason` of a deny or a
 * revoke becomes the grant's `comment` (docs/contract.md §5.14). `null`: a field that is no stored value — the `action`
 * and `taskId` of a deployment operation are commands (docs/contract.md §5.15), a credential's `type` is stored canonical
 * in `types[].type` (docs/contract.md §5.12). By `METHOD template`.
 */
export const STORED_AS: Record<string, Record<string, string | null>> = {
  'POST /application_access_grants/{id}/deny': { reason: 'comment' },
  'POST /application_access_grants/{id}/revoke': { reason: 'comment' },
  'PUT /application_deployments/{id}/operation': { action: null, taskId: null },
  'POST /application_authentications': { type: null },
};

/**
 * The object an accepted body describes: a principal POST is a one-element array of it or the object itself
 * (docs/contract.md §5.11); the schema is then the object alternative.
 */
function unwrapped(schema: Schema, sent: unknown): [Schema, unknown] {
  const s = deref(schema);
  const alternatives: Schema[] | undefined = s?.oneOf ?? s?.anyOf;
  if (!alternatives) return [schema, sent];
  if (Array.isArray(sent)) {
    const array = alternatives.map((a) => deref(a)).find((a) => a?.type === 'array');
    return sent.length === 1 && array ? [array.items ?? {}, sent[0]] : [{}, undefined];
  }
  return [alternatives.find((a) => flatten(a)?.properties) ?? {}, sent];
}

/** Invariant 3, part one: which parts of an accepted JSON object body must read back verbatim. */
export function echoExpectations(bodySchema: Schema, body: unknown, storedAs: Record<string, string | null> = {}): Echo[] {
  const [schema, sent] = unwrapped(bodySchema, body);
  if (!sent || typeof sent !== 'object' || Array.isArray(sent)) return [];
  const props = (flatten(schema).properties ?? {}) as Record<string, Schema>;
  const out: Echo[] = [];
  for (const key of Object.keys(sent)) {
    const p = props[key];
    const value = (sent as Record<string, unknown>)[key];
    if (!p || isReference(p) || storedAs[key] === null) continue;
    const s = flatten(p);
    if (s.writeOnly || s.oneOf || s.anyOf) continue;
    if (['string', 'integer', 'number', 'boolean'].includes(s.type)) {
      // Enums are matched ignoring case and spelling (docs/contract.md §4): stored canonical, not verbatim.
      if (!s.enum && !s.format?.startsWith('date') && value !== undefined) out.push({ path: [storedAs[key] ?? key], value });
    } else if (s.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
      // String maps (`properties`, `settings`): every key sent with a value is there with exactly that value.
      for (const k of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[k];
        if (v !== null) out.push({ path: [key, k], value: v });
      }
    }
  }
  return out;
}

/** Invariant 3, part two: compare against the item as GET returns it. */
export function echoProblems(expected: Echo[], item: unknown): string[] {
  const problems: string[] = [];
  for (const { path, value } of expected) {
    let cur: unknown = item;
    for (const seg of path) {
      // A map read back as pairs: deployment `configs` are `[{configKey, configValue}]` (docs/contract.md §5.15).
      if (Array.isArray(cur) && cur.every((e) => e && typeof e === 'object' && 'configKey' in e)) {
        cur = (cur as Array<{ configKey: unknown; configValue: unknown }>).find((e) => e.configKey === seg)?.configValue;
        continue;
      }
      cur = cur && typeof cur === 'object' && Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
    }
    if (cur !== value && !(typeof value === 'number' && typeof cur === 'number' && cur === value)) {
      problems.push(`${path.join('.')} [${echoDiffKind(value, cur)}] sent ${show(value)} read back ${show(cur)}`);
    }
  }
  return problems;
}

/** Shows the code units that matter (NUL, surrogates, bidi marks) in failure messages. */
export function show(v: unknown): string {
  if (typeof v !== 'string') return v === undefined ? '(absent)' : JSON.stringify(v) ?? String(v);
  const shown = v.length > 60 ? `${v.slice(0, 60)}…(${v.length} units)` : v;
  return `"${[...shown].map((c) => (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\ufeff\ud800-\udfff]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')}"`;
}

type AnyModel = ModelStatic<Model> & { rawAttributes: Record<string, { field?: string }> };

/**
 * Invariant 4: a cheap fingerprint of everything the fuzz tenants own — per model COUNT and SUM(version) of
 * their rows (tenants by uid, tenant-scoped tables by tenant_uid, audit events included) and, per association
 * table, COUNT, SUM(position) and a checksum over the characters of source and target uids of the rows whose
 * source they own. Derived from `app.models`, so a new model is covered. The signing-key table is global and not
 * reachable through the API; it is left out. One round trip (CTEs: MariaDB 10.2+), as it runs twice around
 * every refused mutating request.
 */
export function fingerprinter(app: TestApp, f: Fixtures): () => Promise<string> {
  const sequelize = app.models.sequelize;
  const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
  const models = Object.values(app.models).filter((m): m is AnyModel => typeof m === 'function' && 'rawAttributes' in m);
  const col = (m: AnyModel, attr: string) => q(m.rawAttributes[attr].field ?? attr);
  const table = (m: AnyModel) => q(m.getTableName() as string);
  const tenants = models.find((m) => m.name === 'Tenant')!;
  const scoped = models.filter((m) => 'tenantUid' in m.rawAttributes);
  // One UNION ALL branch per table: (model, count, sum). Fewer subqueries than one scalar per value: planning
  // dominated the cost.
  const branches: string[] = [];
  for (const m of [tenants, ...scoped]) {
    const where = `${col(m, m === tenants ? 'uid' : 'tenantUid')} IN (SELECT uid FROM fz_s)`;
    const sum = 'version' in m.rawAttributes ? `COALESCE(SUM(${col(m, 'version')}), 0)` : '0';
    branches.push(`SELECT '${m.name}' AS m, COUNT(*) AS n, ${sum} AS v FROM ${table(m)} WHERE ${where}`);
  }
  // Which target a link points to, as a number: weighted character codes of both uids (portable SQL).
  const checksum = (c: string) => [1, 2, 3, 4, 5, 30, 31, 32].map((i, k) => `${k + 1} * ASCII(SUBSTRING(${c}, ${i}, 1))`).join(' + ');
  for (const m of models.filter((x) => 'sourceUid' in x.rawAttributes)) {
    const sum = `COALESCE(SUM(${col(m, 'position')} + (${checksum(col(m, 'targetUid'))}) * (${checksum(col(m, 'sourceUid'))})), 0)`;
    branches.push(`SELECT '${m.name}' AS m, COUNT(*) AS n, ${sum} AS v FROM ${table(m)} WHERE ${col(m, 'sourceUid')} IN (SELECT uid FROM fz_o)`);
  }
  const owned = scoped.filter((m) => 'uid' in m.rawAttributes && 'version' in m.rawAttributes)
    .map((m) => `SELECT ${col(m, 'uid')} AS uid FROM ${table(m)} WHERE ${col(m, 'tenantUid')} IN (SELECT uid FROM fz_s)`).join(' UNION ALL ');
  const sql = `WITH fz_s AS (SELECT ${col(tenants, 'uid')} AS uid FROM ${table(tenants)} WHERE ${col(tenants, 'uid')} IN (:fixed) OR ${col(tenants, 'createdBy')} = :email), `
    + `fz_o AS (${owned}) ${branches.join(' UNION ALL ')}`;
  return async () => {
    const [rows] = (await sequelize.query(sql, { replacements: f.tenantScope() })) as [Array<{ m: string; n: unknown; v: unknown }>, unknown];
    return rows.map((r) => `${r.m}_n=${r.n} ${r.m}_v=${r.v}`).sort().join(' ');
  };
}

/** The parts of two fingerprints that differ, for the failure message. */
export function fingerprintDiff(before: string, after: string): string {
  const b = new Map(before.split(' ').map((x) => x.split('=') as [string, string]));
  return after.split(' ').map((x) => x.split('=')).filter(([k, v]) => b.get(k) !== v).map(([k, v]) => `${k} ${b.get(k)} → ${v}`).join(', ');
}

/**
 * What was hostile about a request, so a 5xx or a malformed error groups by cause, not only by operation:
 * one undecodable path segment breaks every `{id}` route the same way.
 */
export function requestTraits(req: RawRequest): string[] {
  const traits: string[] = [];
  const [path, query = ''] = req.path.split('?');
  const undecodable = (s: string) => { try { decodeURIComponent(s); return false; } catch { return true; } };
  if (path.split('/').some(undecodable)) traits.push('undecodable path segment');
  if (req.path.length > 8000) traits.push('very long URL');
  if (query.split('&').some(undecodable)) traits.push('undecodable query');
  const sort = /(?:^|&)sort=([^&]*)/.exec(query)?.[1];
  if (sort && !/^(name|created_at|modified_at)(%2C(asc|desc))?$/i.test(sort)) traits.push(`sort=${sort}`);
  const body = String(req.body ?? '');
  if (/\\u0000|\u0000/.test(body)) traits.push('NUL in body');
  if (/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i.test(body)) traits.push('lone surrogate in body');
  if (/[[{]{500}/.test(body)) traits.push('deep nesting');
  if (/:null[,}]/.test(body)) traits.push('null value in body');
  if (/\b1e309\b|9007199254740993/.test(body)) traits.push('inexact number');
  return traits;
}

/** How a read-back string differs from the one sent (the class of an echo failure). */
export function echoDiffKind(sent: unknown, got: unknown): string {
  if (got === undefined || got === null) return 'dropped';
  if (typeof sent !== 'string' || typeof got !== 'string') return `${typeof sent} read back as ${typeof got}`;
  if (sent.includes('\u0000') && got === sent.replace(/\u0000/g, '')) return 'NUL removed';
  if (sent.includes('\u0000')) return 'NUL altered';
  if (/[\ud800-\udfff]/.test(sent) && got.includes('\ufffd')) return 'lone surrogate replaced by U+FFFD';
  if (got === sent.trim()) return 'trimmed';
  if (sent.startsWith(got)) return 'truncated';
  return 'altered';
}

/**
 * A generated credential (docs/contract.md §5.12): the creation reply is `[{authData:{username, password, provider,
 * clusters}}]` with a 32-character password, and the password is never stored or shown in plain — not in the
 * credential's row, not in the audit history, not on GET of the credential.
 */
export async function credentialSecretProblems(app: TestApp, res: RawResponse, readBack: string | undefined): Promise<string[]> {
  const reply = res.json as Array<{ authData?: { username?: unknown; password?: unknown; provider?: unknown; clusters?: unknown } }> | undefined;
  const authData = Array.isArray(reply) && reply.length === 1 ? reply[0].authData : undefined;
  if (!authData) return ['reply is not [{authData}]'];
  const problems: string[] = [];
  const password = authData.password;
  if (typeof password !== 'string' || !/^[A-Za-z0-9]{32}$/.test(password)) return [`password ${show(password)} is not 32 characters [A-Za-z0-9]`];
  if (typeof authData.username !== 'string' || typeof authData.clusters !== 'string' || !['apache-kafka', 'schema-registry'].includes(String(authData.provider))) {
    problems.push(`authData ${JSON.stringify({ ...authData, password: '<password>' })} is not {username, password, provider, clusters}`);
  }
  const uid = String(res.headers.location ?? '').split('/').pop();
  const row = await app.models.ApplicationCredential.findOne({ where: { uid } });
  if (!row) problems.push(`no credential row ${uid} behind Location ${res.headers.location}`);
  else if (JSON.stringify(row.get({ plain: true })).includes(password)) problems.push('password stored in plain in the credential row');
  const audit = await app.models.AuditEvent.findAll({ where: { resourceId: row?.applicationUid ?? null }, order: [['seq', 'DESC']], limit: 5 });
  if (audit.some((e) => JSON.stringify(e.get({ plain: true })).includes(password))) problems.push('password in the audit history');
  if (readBack?.includes(password)) problems.push('password shown on GET of the credential');
  return problems;
}
