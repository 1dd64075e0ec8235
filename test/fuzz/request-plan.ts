/**
 * One fuzzed request = an operation of the document + a `Plan` drawn by fast-check (which path ids, query,
 * headers and body shape). Plans hold indexes and placeholders only; `materialize` turns one into the exact
 * bytes against the fixture pools of the moment, so the same seed replays the same sequence of choices.
 */
import fc from 'fast-check';
import {
  ACCEPTS, CONTENT_TYPES, HOSTILE_SEGMENTS, ODD_QUERY_VALUES, PAGE_VALUES, RAW_BODIES, SIZE_VALUES, SORT_VALUES,
  TRICKY_STRINGS, UNKNOWN_QUERY,
} from './hostile-values';
import { RefPick, concrete, deref, refTarget, requestBodyOf, schemaArb, spec, toJson, wrongValue, type Schema } from './spec-arbitraries';
import type { Fixtures } from './fixtures';
import type { RawRequest } from './raw-client';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

export interface Operation {
  method: string;
  template: string;
  /** First path segment: the collection the ids of the path belong to. */
  collection: string;
  query: Array<{ name: string; required: boolean; schema: Schema }>;
  /** Declared request media types and the schema of the JSON one. */
  body?: { types: string[]; schema: Schema };
  /** The operation calls an external provider and documents 502 for one that cannot be reached. */
  gateway: boolean;
}

/** Every operation of the bundled document (88 today), parameters merged from path and operation level. */
export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(p));
      const body = requestBodyOf(m, template);
      out.push({
        method: m.toUpperCase(), template, collection: template.split('/')[1],
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required, schema: deref(p.schema ?? {}) })),
        body: body ? { types: body.types, schema: body.schema } : undefined,
        gateway: Boolean(op.responses?.['502']),
      });
    }
  }
  return out;
}

type IdChoice = { kind: 'existing' | 'foreign' | 'unknown' | 'upper' | 'encoded' | 'dashed' | 'hostile'; index: number };
type BodyChoice =
  | { kind: 'schema'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'wrapped'; value: unknown }
  | { kind: 'truncated'; value: unknown; at: number }
  | { kind: 'none' };

export interface Plan {
  ids: IdChoice[];
  rel: number;
  query: Array<[string, string]>;
  accept: string | undefined;
  contentType: string | undefined;
  ifMatch: string | undefined;
  slash: '' | '/' | '//';
  body: BodyChoice;
}

const idChoice: fc.Arbitrary<IdChoice> = fc.record({
  kind: fc.constantFrom<IdChoice['kind']>(...Array(12).fill('existing'), 'foreign', 'foreign', 'unknown', 'upper', 'encoded', 'dashed', 'hostile', 'hostile', 'hostile'),
  index: fc.nat(10_000),
});

/** Raw query values: already on-the-wire (percent-encoded or deliberately broken). */
function queryArb(op: Operation, hostile = true): fc.Arbitrary<Array<[string, string]>> {
  const one = (p: Operation['query'][number]): fc.Arbitrary<Array<[string, string]>> => {
    let values: fc.Arbitrary<string>;
    if (!hostile) {
      const plain = p.name === 'page' ? '0' : p.name === 'size' ? '20' : p.name === 'sort' ? 'created_at,desc' : undefined;
      values = plain ? fc.constant(plain) : fc.constant(`\u0001pool:${p.name}`);
    } else if (p.name === 'page') values = fc.constantFrom('0', '0', '1', ...PAGE_VALUES).map(pct);
    else if (p.name === 'size') values = fc.constantFrom('20', '1', ...SIZE_VALUES).map(pct);
    else if (p.name === 'sort') values = fc.constantFrom(...SORT_VALUES).map(pct);
    else {
      values = fc.oneof(
        { weight: 4, arbitrary: fc.constant(`\u0001pool:${p.name}`) }, // filled from the pools at send time
        { weight: 1, arbitrary: fc.constantFrom(...(p.schema.enum ?? [p.schema.example ?? 'x'])).map((v) => pct(String(v))) },
        { weight: 2, arbitrary: fc.constantFrom(...TRICKY_STRINGS).map(pct) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES) },
        { weight: 1, arbitrary: fc.constant(pct('x'.repeat(3000))) },
      );
    }
    const times = p.name === 'sort' ? fc.integer({ min: 1, max: 3 }) : fc.constantFrom(1, 1, 1, 1, 2);
    const presence = p.required ? fc.constantFrom(true, true, true, true, false) : fc.boolean();
    return fc.tuple(presence, times, fc.array(values, { minLength: 3, maxLength: 3 }))
      .map(([present, n, vs]) => (present ? vs.slice(0, n).map((v) => [p.name, v] as [string, string]) : []));
  };
  const extra = hostile ? fc.option(fc.constantFrom(...UNKNOWN_QUERY), { freq: 6 }) : fc.constant(null);
  return fc.tuple(fc.tuple(...op.query.map(one)), extra).map(([lists, x]) => [
    ...lists.flat(), ...(x ? [x.split('=', 2).concat('').slice(0, 2) as [string, string]] : []),
  ]);
}

function bodyArb(op: Operation): fc.Arbitrary<BodyChoice> {
  if (!op.body) {
    // Bodies where none is declared must be drained and ignored, not crash or change anything.
    return fc.oneof({ weight: 9, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((text): BodyChoice => ({ kind: 'raw', text })) });
  }
  const schema = op.body.schema;
  return fc.oneof(
    { weight: 6, arbitrary: schemaArb(schema, 'clean').map((value): BodyChoice => ({ kind: 'schema', value })) },
    { weight: 4, arbitrary: schemaArb(schema, 'valid').map((value): BodyChoice => ({ kind: 'schema', value })) },
    { weight: 4, arbitrary: schemaArb(schema, 'mixed').map((value): BodyChoice => ({ kind: 'schema', value })) },
    { weight: 1, arbitrary: wrongValue.map((value): BodyChoice => ({ kind: 'schema', value })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((text): BodyChoice => ({ kind: 'raw', text })) },
    { weight: 1, arbitrary: schemaArb(schema, 'valid').map((value): BodyChoice => ({ kind: 'wrapped', value })) },
    { weight: 1, arbitrary: fc.tuple(schemaArb(schema, 'valid'), fc.double({ min: 0, max: 1, noNaN: true })).map(([value, at]): BodyChoice => ({ kind: 'truncated', value, at })) },
    { weight: 1, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
  );
}

/**
 * A third of the requests are what a careful client sends (existing ids, declared media type, no conditional
 * header, a `clean` body): most are accepted, so read-back and state are tested on real writes, not only on
 * refusals. The rest vary every part of the request.
 */
export function planArb(op: Operation): fc.Arbitrary<Plan> {
  return fc.oneof({ weight: 1, arbitrary: cleanPlanArb(op) }, { weight: 2, arbitrary: hostilePlanArb(op) });
}

function cleanPlanArb(op: Operation): fc.Arbitrary<Plan> {
  const declared = op.body?.types ?? ['application/json'];
  return fc.record({
    ids: fc.array(fc.nat(10_000).map((index): IdChoice => ({ kind: 'existing', index })), { minLength: 3, maxLength: 3 }),
    rel: fc.nat(100).filter((r) => r % 10 !== 0),
    query: queryArb(op, false),
    accept: fc.constant(undefined),
    contentType: fc.constant(declared.includes('application/json') ? 'application/json' : declared[0]),
    ifMatch: fc.constant(undefined),
    slash: fc.constant<Plan['slash']>(''),
    body: op.body ? schemaArb(op.body.schema, 'clean').map((value): BodyChoice => ({ kind: 'schema', value })) : fc.constant<BodyChoice>({ kind: 'none' }),
  });
}

function hostilePlanArb(op: Operation): fc.Arbitrary<Plan> {
  const declared = op.body?.types ?? ['application/json'];
  return fc.record({
    ids: fc.array(idChoice, { minLength: 3, maxLength: 3 }),
    rel: fc.nat(100),
    query: queryArb(op),
    accept: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(undefined, 'application/hal+json') }, { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS) }),
    contentType: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...declared) }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
    ifMatch: fc.option(fc.constantFrom('"0"', '"1"', '*', 'W/"0"', 'garbage', '""', '"99999999999999999999"'), { freq: 10 }).map((v) => v ?? undefined),
    slash: fc.constantFrom<Plan['slash']>('', '', '', '', '', '', '', '', '/', '//'),
    body: bodyArb(op),
  });
}

/** Percent-encodes everything but unreserved characters, as UTF-8 (lone surrogates become U+FFFD, as in any client). */
export function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

const fakeUid = (i: number) => (i * 2654435761 >>> 0).toString(16).padStart(8, '0').repeat(4);
const dashed = (u: string) => `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20)}`;

export interface Built {
  req: RawRequest;
  /** The body as the server should have understood it (references resolved), when it was JSON. */
  sent?: unknown;
  /** The pool row the path addresses when it names an existing row ({id} of the collection). */
  target?: { collection: string; uid: string; rel?: string };
}

export function materialize(op: Operation, plan: Plan, f: Fixtures, token: string): Built {
  const api = `${f.app.url}${f.app.config.basePath}`;
  const pick = <T>(xs: T[], i: number): T | undefined => (xs.length > 0 ? xs[i % xs.length] : undefined);
  let target: Built['target'];
  const idFor = (collection: string, c: IdChoice, slot: number): string => {
    const existing = pick(f.targets(collection, op.method), c.index);
    if (['existing', 'upper', 'encoded', 'dashed'].includes(c.kind) && existing && slot === 0) target = { collection, uid: existing };
    switch (c.kind) {
      case 'existing': return existing ?? fakeUid(c.index);
      case 'foreign': return pick(f.foreign[collection] ?? [], c.index) ?? fakeUid(c.index);
      case 'unknown': return fakeUid(c.index);
      case 'upper': return (existing ?? fakeUid(c.index)).toUpperCase();
      case 'encoded': return [...(existing ?? fakeUid(c.index))].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('');
      case 'dashed': return dashed(existing ?? fakeUid(c.index));
      default: return pick(HOSTILE_SEGMENTS, c.index)!;
    }
  };
  const rels = f.rels(op.collection);
  const rel = rels.length > 0 && plan.rel % 10 !== 0 ? rels[plan.rel % rels.length] : undefined;
  const relName = rel?.rel ?? pick(['__proto__', 'constructor', 'nothing', '%zz', 'MEMBERS', 'tenant'], plan.rel)!;
  let path = op.template
    .replace('{id}', () => idFor(op.collection, plan.ids[0], 0))
    .replace('{rel}', relName)
    .replace('{propertyId}', () => idFor(rel?.target ?? 'users', plan.ids[1], 1))
    .replace('{collection}', () => pick([...f.collections.map((c) => c.collection), 'nothing', '__proto__', '%zz'], plan.rel)!);
  if (target && op.template.includes('{rel}')) target.rel = relName;
  if (plan.slash === '/') path += '/';
  if (plan.slash === '//') path = path.replace(/\/([^/]*)$/, '//$1');

  const resolve = (r: RefPick): string | null => {
    const coll = r.collection ?? 'groups';
    const own = pick(f.targets(coll, 'GET').filter((u) => !f.protectedIds.has(u)), r.index) ?? fakeUid(r.index);
    switch (r.form) {
      case 'uid': return own;
      case 'uri': return `${api}/${coll}/${own}`;
      case 'otherUri': return `https://elsewhere.example/x/wrong/${own}?q=1#frag`;
      case 'dashed': return dashed(own);
      case 'upper': return own.toUpperCase();
      case 'foreign': return pick(f.foreign[coll] ?? [], r.index) ?? fakeUid(r.index);
      case 'unknown': return fakeUid(r.index);
      default: return pick(['not-a-uid', '%zz', "' OR 1=1 --", 'x'.repeat(300), '../../users', '\u0000', '🚀'], r.index)!;
    }
  };
  const poolValue = (name: string, i: number): string => {
    const byName: Record<string, string[]> = {
      name: f.names[op.collection] ?? [], shortName: f.names[op.collection] ?? [], email: [f.admin.email],
      resourceUid: f.pools.clusters ?? [], action: ['CLUSTER_VIEW', 'ENVIRONMENT_EDIT', 'USER_DELETE'], resourceType: ['CLUSTER', 'Topic', 'ENVIRONMENT'],
      // The grant search's enums (any case; statuses comma-joined or repeated).
      accessType: ['CONSUMER', 'producer'], statuses: ['Pending', 'APPROVED,rejected', 'Cancelled'],
    };
    // A deployment operation's `action` (any case) and a credential search's `type`.
    if (op.template.endsWith('/operation')) byName.action = ['START', 'stop', 'RESTART', 'RESET', 'restart_task', 'VIEW_STATUS', 'view-logs'];
    if (op.collection === 'application_credentials') byName.type = ['SCRAM_SHA_512', 'scram-sha-256', 'PLAIN', 'SCHEMA_REGISTRY_BASIC_AUTH'];
    // `applicationId` names an application by its applicationId field there, and is a reference elsewhere.
    if (name === 'applicationId' && op.collection === 'applications') byName.applicationId = f.applicationIds;
    return pct(pick(byName[name] ?? f.pools[refTarget(name)] ?? [], i) ?? 'x');
  };
  const query = plan.query.map(([k, v], i) => `${k}=${v.startsWith('\u0001pool:') ? poolValue(k, plan.ids[2].index + i) : v}`);
  if (query.length > 0) path += `?${query.join('&')}`;

  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (plan.accept !== undefined) headers.Accept = plan.accept;
  if (plan.ifMatch) headers[op.method === 'GET' ? 'If-None-Match' : 'If-Match'] = plan.ifMatch;
  let body: string | undefined;
  let sent: unknown;
  const b = plan.body;
  if (b.kind === 'raw') body = b.text;
  else if (b.kind === 'schema' || b.kind === 'wrapped' || b.kind === 'truncated') {
    const value = b.kind === 'wrapped' ? [b.value] : b.value;
    if (plan.contentType === 'text/uri-list') {
      const refs = (Array.isArray(value) ? value : [value]).map((v) => (v instanceof RefPick ? resolve(v) : typeof v === 'string' ? v : toJson(v, resolve)));
      body = refs.join('\n');
    } else {
      body = toJson(value, resolve);
      if (b.kind === 'truncated') body = body.slice(0, Math.floor(body.length * b.at));
      else sent = concrete(value, resolve);
    }
  }
  if (body !== undefined && plan.contentType !== undefined) headers['Content-Type'] = plan.contentType;
  return { req: { method: op.method, path: `${f.app.config.basePath}${path}`, headers, body }, sent, target };
}
